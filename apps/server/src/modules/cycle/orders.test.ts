import type { CycleInfo, CyclePosition, CycleTopRow } from '@halyard/protocol';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { sqlCaughtUp } from '../../money-core/test-support.ts';
import { MONEY_PATHS } from '../identity/test-support.ts';
import { registerCycleRoutes } from './routes.ts';
import { CYCLE_TABLES } from './store.ts';
import {
  BTC,
  type Envelope,
  eachTestWithHarness,
  expectOk,
  expectRefused,
  fundedUser,
  get,
  type Harness,
  order,
  phoneUser,
  placed,
  positionById,
  post,
  STAKES,
  snapshot,
  spotOf,
  tickAfter,
  usdtOf,
} from './test-support.ts';

let h: Harness;

describe.each(MONEY_PATHS)('cycle on $on', ({ moneyCore }) => {
  eachTestWithHarness(moneyCore, (harness) => {
    h = harness;
  });

  describe('cycle pairs', () => {
    it('lists BTC, ETH and SOL against USDT with pay coins, durations, rates and the last tick time', async () => {
      const symbols = (await expectOk(get(h, '/cycle/symbols'))).data as CycleInfo[];
      expect(symbols.map((row) => row.tradcoin)).toEqual(['BTC', 'ETH', 'SOL']);
      const info = (await expectOk(get(h, '/cycle/info?tradcoin=btc&maincoin=usdt'))).data as CycleInfo;
      expect(info).toMatchObject({
        tradcoin: 'BTC',
        maincoin: 'USDT',
        price_accuracy: 2,
        limit: [{ paycoin: 'USDT' }],
      });
      expect(info.new_date).toBe(h.clock.now());
      expect(info.price).toBe(h.app.market.index.current('BTC')?.price.toFixed(2));
      expect(info.lever.map((option) => option.lever)).toEqual([30, 60, 120, 300]);
      expect(info.lever[0]).toEqual({
        lever: 30,
        minnumber: '10',
        maxnumber: '5000',
        profitGas: '0.8',
        lossGas: '1',
        gas: '0.02',
      });
      expectRefused(await get(h, '/cycle/info?tradcoin=DOGE&maincoin=USDT'), 'This cycle pair is not listed');
    });

    it('pushes cycleinfo with new_date on each tick and cycletop after a settlement', async () => {
      const publish = vi.spyOn(h.app.realtime, 'publish');
      h.app.cycle.start();
      const user = await fundedUser(h);
      await placed(order(h, user, 'buy'));
      await tickAfter(h, 1000);
      const info = publish.mock.calls
        .map(([push]) => push)
        .find(
          (push) => push.type === 'cycleinfo' && push.key === 'USDT_BTC_cycle' && 'new_date' in push.data,
        );
      expect(info?.data).toMatchObject({ new_date: h.clock.now(), tradcoin: 'BTC' });
      // A tick each second, as the index records them: an expiry with no tick near it would be void.
      for (let second = 0; second < 30; second += 1) await tickAfter(h, 1000);
      await h.app.cycle.service.settlement.idle();
      await vi.waitFor(() => {
        const top = publish.mock.calls.map(([push]) => push).find((push) => push.type === 'cycletop');
        expect(top?.key).toBe('USDT_BTC_cycle');
        expect((top?.data as CycleTopRow[] | undefined)?.[0]?.type).toBe('buy');
      });
      const rows = (await expectOk(get(h, '/cycle/topOrders?tradcoin=BTC&maincoin=USDT')))
        .data as CycleTopRow[];
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ type: 'buy', income: '78.4' });
    });
  });

  describe('cycle orders', () => {
    it('pays the stake from the spot wallet into the stakes account and records the opening index price, time and source', async () => {
      const user = await fundedUser(h);
      const answer = await expectOk(order(h, user, 'sell', { number: 250, lever: 60 }));
      expect(answer.msg).toBe('Order placed');
      const position = answer.data as CyclePosition;
      const tick = h.app.market.index.current('BTC');
      expect(position).toMatchObject({
        type: 'sell',
        number: '250',
        lever: 60,
        wdate: h.clock.now(),
        expires_at: h.clock.now() + 60_000,
        price: tick?.price.toString(),
        open_price: tick?.price.toString(),
        open_ts: tick?.ts,
        open_source: 'halyard-simulator',
        state: 'open',
        result: null,
        last_profit: '0',
        close_price: null,
      });
      expect(await usdtOf(h, spotOf(user))).toEqual({ available: '750', locked: '0' });
      expect(await usdtOf(h, STAKES)).toEqual({ available: '250', locked: '0' });
      const open = await expectOk(get(h, '/cycle/positionByCoin?tradcoin=BTC&maincoin=USDT', user.token));
      expect(open.data).toEqual([position]);
    });

    it('refuses each bad order with its message and changes nothing', async () => {
      const user = await fundedUser(h, '300');
      const noEmail = await phoneUser(h, '86');
      const refusedRegion = await phoneUser(h, '44');
      const rich = await fundedUser(h, '9000');
      const before = await snapshot(h, [user, noEmail, refusedRegion]);
      const cases: [Promise<Envelope>, string][] = [
        [post(h, '/cycle/buyMarket', { ...BTC, paycoin: 'USDT', number: '100', lever: 30 }), 'Please log in'],
        [order(h, noEmail, 'buy'), 'Please bind an email address first'],
        [order(h, refusedRegion, 'buy'), 'Cycle contracts are not available in your region'],
        [order(h, user, 'buy', { number: '' }), 'Please enter a quantity'],
        [order(h, user, 'buy', { number: 'ten' }), 'Please enter a valid quantity'],
        [order(h, user, 'buy', { number: '-5' }), 'The quantity must be greater than 0'],
        [order(h, user, 'buy', { number: '9.99' }), 'The minimum is 10'],
        [order(h, user, 'sell', { number: '301' }), 'Insufficient balance'],
        [order(h, user, 'buy', { number: '10.123456789' }), 'At most 8 decimal places are allowed'],
        [order(h, user, 'buy', { paycoin: 'BTC' }), 'BTC cannot be used to pay for this contract'],
        [order(h, user, 'buy', { lever: 45 }), 'A 45-second contract is not offered on this pair'],
        [order(h, user, 'buy', { tradcoin: 'DOGE' }), 'This cycle pair is not listed'],
      ];
      for (const [pending, msg] of cases) expectRefused(await pending, msg);
      expectRefused(await order(h, rich, 'buy', { number: '5000.01' }), 'The maximum is 5000');
      expect(await snapshot(h, [user, noEmail, refusedRegion])).toEqual(before);
      expect(await usdtOf(h, spotOf(rich))).toEqual({ available: '9000', locked: '0' });
    });

    it('refuses a frozen account and a stale index price, changing nothing', async () => {
      const user = await fundedUser(h);
      const before = await snapshot(h, [user]);
      h.clock.advance(5001);
      expectRefused(
        await order(h, user, 'buy'),
        'The index price is not available right now, please try again shortly',
      );
      await tickAfter(h, 0);
      await h.app.identity.service.freeze({
        userId: user.id,
        reason: 'chargeback review',
        setBy: 'rule:test',
        endsAt: h.clock.now() + 60_000,
      });
      const frozen = await order(h, user, 'buy');
      expect(frozen.code).toBe(403);
      expect(frozen.msg).toContain('chargeback review');
      expect(await snapshot(h, [user])).toEqual(before);
    });

    it('answers each of many orders in flight at once with its own order', async () => {
      const users = [await fundedUser(h, '5000'), await fundedUser(h, '5000'), await fundedUser(h, '5000')];
      const sent = Array.from({ length: 30 }, (_, n) => ({
        user: users[n % 3]!,
        side: n % 2 === 0 ? ('buy' as const) : ('sell' as const),
        number: String(10 + n),
      }));
      const answers = await Promise.all(
        sent.map(({ user, side, number }) => placed(order(h, user, side, { number }))),
      );
      expect(answers.map(({ type, number }) => [type, number])).toEqual(
        sent.map(({ side, number }) => [side, number]),
      );
      expect(new Set(answers.map(({ orderid }) => orderid)).size).toBe(30);
      for (const [n, answer] of answers.entries())
        expect(await positionById(h, sent[n]!.user, answer.orderid)).toEqual(answer);
    });

    it('answers another user’s order id as not found', async () => {
      const owner = await fundedUser(h);
      const other = await fundedUser(h);
      const position = await placed(order(h, owner, 'buy'));
      expectRefused(
        await get(h, `/cycle/positionById?orderId=${position.orderid}`, other.token),
        'Order not found',
      );
    });
  });

  describe('no route can change an outcome (AMENDMENTS A3)', () => {
    it('registers no write route but the two order routes', async () => {
      const probe = Fastify();
      const routes: string[] = [];
      probe.addHook('onRoute', (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods) routes.push(`${method} ${route.url}`);
      });
      registerCycleRoutes(probe, { cycle: h.app.cycle.service, requireUser: h.app.identity.requireUser });
      await probe.ready();
      const writes = routes.filter((route) => !route.startsWith('GET ') && !route.startsWith('HEAD '));
      expect(writes.sort()).toEqual(['POST /cycle/buyMarket', 'POST /cycle/sellMarket']);
      await probe.close();
      // No other module registers a /cycle write route either (and no admin route names cycle).
      const all = h.app.http.printRoutes({ commonPrefix: false });
      expect(all).not.toMatch(/admin.*cycle/i);
    });

    it('leaves every cycle table untouched when every read route is called', async () => {
      const user = await fundedUser(h);
      const position = await placed(order(h, user, 'buy'));
      const rowsOf = async () => {
        // The order's rows first: on the core it was answered before SQL held them.
        await sqlCaughtUp(h.app.moneyCore);
        return Promise.all(CYCLE_TABLES.map((table) => h.store.db.selectFrom(table).selectAll().execute()));
      };
      const before = await rowsOf();
      const reads = [
        '/cycle/symbols',
        '/cycle/info?tradcoin=BTC&maincoin=USDT',
        '/cycle/topOrders?tradcoin=BTC&maincoin=USDT',
        '/cycle/positionByCoin?tradcoin=BTC&maincoin=USDT',
        `/cycle/positionById?orderId=${position.orderid}`,
        '/cycle/tradHistory',
        '/cycle/tradHistoryByCoin?tradcoin=BTC&maincoin=USDT',
        '/cycle/kline?pairname=BTC/USDT&mine=1',
      ];
      for (const url of reads) await expectOk(get(h, url, user.token));
      expect(await rowsOf()).toEqual(before);
    });
  });
});
