import { describe, expect, it } from 'vitest';
import { findRoute, guard, ROUTES, routeByName, showsTabBar, slideDirection } from './routes.ts';

describe('route table', () => {
  it('has every route of the spec with its depth and login flag', () => {
    const table = Object.fromEntries(ROUTES.map((route) => [route.path, [route.depth, route.login]]));
    expect(table).toMatchObject({
      '/': [1, false],
      '/coinExchange': [1.1, true],
      '/cycle': [1.2, true],
      '/futures': [1.3, true],
      '/balances': [1.4, true],
      '/marketDetails/:type': [10, false],
      '/coinSearch': [2, false],
      '/ieo': [2, false],
      '/my': [2, false],
      '/notice': [3, false],
      '/inviteFriends': [3, true],
      '/myTeam': [3, true],
      '/securityCenter': [3, true],
      '/bindPhone': [3, true],
      '/bindEmail': [3, true],
      '/helpCenter': [3, true],
      '/aboutUs': [3, true],
      '/setting': [3, false],
      '/idAuth': [4, true],
      '/modifyLoginPass': [4, true],
      '/modifyPayPass': [4, true],
      '/resetPass': [11, false],
      '/downloadApp': [12, false],
      '/coinRecharge': [3, true],
      '/coinWithdraw': [3, true],
      '/coinTransfer': [3, true],
      '/coinConvert': [3, true],
      '/balanceRecord': [3, true],
      '/exchangeRecord/:data': [3, true],
      '/futuresRecord': [2, true],
      '/stopPl': [3, true],
      '/cycleHistory': [3, true],
      '/otc': [4, true],
    });
    expect(new Set(ROUTES.map((route) => route.name)).size).toBe(ROUTES.length);
  });

  it('finds parameterised routes and sends unknown paths home', () => {
    expect(findRoute('/marketDetails/trad').name).toBe('marketDetails');
    expect(findRoute('/exchangeRecord/%7B%7D').name).toBe('exchangeRecord');
    expect(findRoute('/marketDetails').name).toBe('home');
    expect(findRoute('/no/such/page').name).toBe('home');
  });

  it('slides left going deeper and right going back', () => {
    const home = routeByName('home');
    const my = routeByName('my');
    const idAuth = routeByName('idAuth');
    expect(slideDirection(home, my)).toBe('left');
    expect(slideDirection(my, idAuth)).toBe('left');
    expect(slideDirection(idAuth, my)).toBe('right');
    expect(slideDirection(routeByName('balances'), home)).toBe('right');
    expect(slideDirection(home, routeByName('coinExchange'))).toBe('left');
    expect(slideDirection(my, routeByName('coinSearch'))).toBe('none');
    expect(slideDirection(null, home)).toBe('none');
  });

  it('stops visitors on login routes only', () => {
    expect(guard(routeByName('balances'), false)).toBe('login');
    expect(guard(routeByName('balances'), true)).toBe('pass');
    expect(guard(routeByName('setting'), false)).toBe('pass');
    expect(guard(routeByName('my'), false)).toBe('pass');
  });

  it('shows the tab bar on home and the four trading tabs only', () => {
    const withBar = ROUTES.filter(showsTabBar).map((route) => route.name);
    expect(withBar.sort()).toEqual(['balances', 'coinExchange', 'cycle', 'futures', 'home']);
  });
});
