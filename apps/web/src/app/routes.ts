/**
 * Every screen of spec §2 with its depth (which decides the slide direction)
 * and whether it needs a signed-in user. Routes the spec leaves "not shown"
 * are open to visitors; the screens themselves ask for login where they must.
 * login, register and the wallet connect are the spec's implied "other areas".
 */
export interface RouteDef {
  name: string;
  path: string;
  depth: number;
  login: boolean;
  /** i18n key of the screen's title. */
  title: string;
}

export const ROUTES = [
  { name: 'home', path: '/', depth: 1, login: false, title: 'route.home' },
  { name: 'coinExchange', path: '/coinExchange', depth: 1.1, login: true, title: 'route.coinExchange' },
  { name: 'cycle', path: '/cycle', depth: 1.2, login: true, title: 'route.cycle' },
  { name: 'futures', path: '/futures', depth: 1.3, login: true, title: 'route.futures' },
  { name: 'balances', path: '/balances', depth: 1.4, login: true, title: 'route.balances' },
  {
    name: 'marketDetails',
    path: '/marketDetails/:type',
    depth: 10,
    login: false,
    title: 'route.marketDetails',
  },
  { name: 'coinSearch', path: '/coinSearch', depth: 2, login: false, title: 'route.coinSearch' },
  { name: 'ieo', path: '/ieo', depth: 2, login: false, title: 'route.ieo' },
  { name: 'ieoDetail', path: '/ieoDetail/:id', depth: 2.5, login: false, title: 'route.ieoDetail' },
  { name: 'ieoOrders', path: '/ieoOrders', depth: 3, login: true, title: 'route.ieoOrders' },
  { name: 'my', path: '/my', depth: 2, login: false, title: 'route.my' },
  { name: 'login', path: '/login', depth: 2, login: false, title: 'route.login' },
  { name: 'register', path: '/register', depth: 3, login: false, title: 'route.register' },
  { name: 'notice', path: '/notice', depth: 3, login: false, title: 'route.notice' },
  { name: 'inviteFriends', path: '/inviteFriends', depth: 3, login: true, title: 'route.inviteFriends' },
  { name: 'myTeam', path: '/myTeam', depth: 3, login: true, title: 'route.myTeam' },
  { name: 'securityCenter', path: '/securityCenter', depth: 3, login: true, title: 'route.securityCenter' },
  { name: 'bindPhone', path: '/bindPhone', depth: 3, login: true, title: 'route.bindPhone' },
  { name: 'bindEmail', path: '/bindEmail', depth: 3, login: true, title: 'route.bindEmail' },
  { name: 'helpCenter', path: '/helpCenter', depth: 3, login: true, title: 'route.helpCenter' },
  { name: 'aboutUs', path: '/aboutUs', depth: 3, login: true, title: 'route.aboutUs' },
  { name: 'setting', path: '/setting', depth: 3, login: false, title: 'route.setting' },
  { name: 'idAuth', path: '/idAuth', depth: 4, login: true, title: 'route.idAuth' },
  {
    name: 'modifyLoginPass',
    path: '/modifyLoginPass',
    depth: 4,
    login: true,
    title: 'route.modifyLoginPass',
  },
  { name: 'modifyPayPass', path: '/modifyPayPass', depth: 4, login: true, title: 'route.modifyPayPass' },
  { name: 'resetPass', path: '/resetPass', depth: 11, login: false, title: 'route.resetPass' },
  { name: 'downloadApp', path: '/downloadApp', depth: 12, login: false, title: 'route.downloadApp' },
  { name: 'coinRecharge', path: '/coinRecharge', depth: 3, login: true, title: 'route.coinRecharge' },
  { name: 'coinWithdraw', path: '/coinWithdraw', depth: 3, login: true, title: 'route.coinWithdraw' },
  { name: 'coinTransfer', path: '/coinTransfer', depth: 3, login: true, title: 'route.coinTransfer' },
  { name: 'coinConvert', path: '/coinConvert', depth: 3, login: true, title: 'route.coinConvert' },
  { name: 'balanceRecord', path: '/balanceRecord', depth: 3, login: true, title: 'route.balanceRecord' },
  {
    name: 'exchangeRecord',
    path: '/exchangeRecord/:data',
    depth: 3,
    login: true,
    title: 'route.exchangeRecord',
  },
  { name: 'futuresRecord', path: '/futuresRecord', depth: 2, login: true, title: 'route.futuresRecord' },
  { name: 'stopPl', path: '/stopPl', depth: 3, login: true, title: 'route.stopPl' },
  { name: 'cycleHistory', path: '/cycleHistory', depth: 3, login: true, title: 'route.cycleHistory' },
  { name: 'otc', path: '/otc', depth: 4, login: true, title: 'route.otc' },
] as const satisfies readonly RouteDef[];

export type RouteName = (typeof ROUTES)[number]['name'];

const HOME: RouteDef = ROUTES[0];

/** Spec §2: the tab bar shows on these screens only. */
export const TAB_BAR_ROUTES: readonly RouteName[] = ['home', 'coinExchange', 'futures', 'balances', 'cycle'];

/** The tabs, in order (spec §2: home, coinExchange, cycle, balances). */
export const TABS = ['home', 'coinExchange', 'cycle', 'balances'] as const satisfies readonly RouteName[];

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  if (want.length !== have.length) return false;
  return want.every((part, index) => part.startsWith(':') || part === have[index]);
}

/** The route a path belongs to; unknown paths are home's (spec §2). */
export function findRoute(pathname: string): RouteDef {
  return ROUTES.find((route) => matches(route.path, pathname)) ?? HOME;
}

export function routeByName(name: RouteName): RouteDef {
  return ROUTES.find((route) => route.name === name) ?? HOME;
}

export type Slide = 'left' | 'right' | 'none';

/** Deeper slides in from the right (moves left), shallower from the left (spec §2). */
export function slideDirection(from: RouteDef | null, to: RouteDef): Slide {
  if (from === null || from.depth === to.depth) return 'none';
  return to.depth > from.depth ? 'left' : 'right';
}

/** A visitor on a login route is sent to log in; everyone else passes. */
export function guard(route: RouteDef, loggedIn: boolean): 'pass' | 'login' {
  return route.login && !loggedIn ? 'login' : 'pass';
}

export function showsTabBar(route: RouteDef): boolean {
  return (TAB_BAR_ROUTES as readonly string[]).includes(route.name);
}
