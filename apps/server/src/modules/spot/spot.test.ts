import { Dec } from '@halyard/money';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MONEY_PATHS, restartApp } from '../identity/test-support.ts';
import {
  BTC,
  balanceOf,
  bookOf,
  expectAuditClean,
  expectOk,
  expectRefused,
  FEES,
  fundedUser,
  get,
  type Harness,
  limit,
  market,
  placed,
  post,
  spotOf,
  startHarness,
  type TestUser,
  userWithoutEmail,
} from './test-support.ts';

/** Every test runs twice: on the SQL path the server runs today, and on the sequenced core (issue 19's cut-over). */
describe.each(MONEY_PATHS)('spot on $on', ({ moneyCore }) => {
  let h: Harness;

  async function settledAndAudited() {
    await h.app.spot.service.idle();
    await expectAuditClean(h);
  }

  /** A fresh app for each test of the describe that calls it. */
  function appPerTest() {
    beforeEach(async () => {
      h = await startHarness({ moneyCore });
    });
    afterEach(async () => {
      await settledAndAudited();
      await h.close();
    });
  }

  async function balances(user: TestUser) {
    return {
      USDT: await balanceOf(h, spotOf(user), 'USDT'),
      BTC: await balanceOf(h, spotOf(user), 'BTC'),
    };
  }

  async function openOrderCount(user: TestUser): Promise<number> {
    const answer = await expectOk(get(h, '/trad/entrustOrder', user.token));
    return (answer.data as { count: number }).count;
  }

  describe('spec §5 refusals change nothing', () => {
    // A refusal changes nothing, and each test has users of its own: the group shares one app, audited after each.
    beforeAll(async () => {
      h = await startHarness({ moneyCore });
    });
    afterEach(settledAndAudited);
    afterAll(() => h.close());

    const cases: { name: string; path: string; body: Record<string, string>; msg: string }[] = [
      { name: 'price required', path: '/trad/buyLimit', body: { number: '1' }, msg: 'Please enter a price' },
      {
        name: 'price numeric',
        path: '/trad/buyLimit',
        body: { price: 'abc', number: '1' },
        msg: 'Please enter a valid price',
      },
      {
        name: 'price above 0',
        path: '/trad/buyLimit',
        body: { price: '0', number: '1' },
        msg: 'The price must be greater than 0',
      },
      {
        name: 'amount required',
        path: '/trad/buyLimit',
        body: { price: '100' },
        msg: 'Please enter an amount',
      },
      {
        name: 'amount numeric',
        path: '/trad/sellLimit',
        body: { price: '100', number: '1x' },
        msg: 'Please enter a valid amount',
      },
      {
        name: 'amount above 0',
        path: '/trad/sellLimit',
        body: { price: '100', number: '0' },
        msg: 'The amount must be greater than 0',
      },
      {
        name: 'minimum buy',
        path: '/trad/buyLimit',
        body: { price: '100', number: '0.00005' },
        msg: 'Minimum buy 0.0001',
      },
      {
        name: 'minimum sell',
        path: '/trad/sellLimit',
        body: { price: '100', number: '0.00009' },
        msg: 'Minimum sell 0.0001',
      },
      {
        name: 'maximum buy',
        path: '/trad/buyLimit',
        body: { price: '1', number: '100.5' },
        msg: 'Maximum buy 100',
      },
      { name: 'maximum sell', path: '/trad/sellMarket', body: { number: '101' }, msg: 'Maximum sell 100' },
      {
        name: 'buy cost above usable',
        path: '/trad/buyLimit',
        body: { price: '100', number: '10.1' },
        msg: 'Insufficient balance',
      },
      {
        name: 'sell above usable',
        path: '/trad/sellLimit',
        body: { price: '100', number: '2.5' },
        msg: 'Insufficient balance',
      },
      {
        name: 'market sell above usable',
        path: '/trad/sellMarket',
        body: { number: '3' },
        msg: 'Insufficient balance',
      },
      {
        name: 'price finer than the pair',
        path: '/trad/buyLimit',
        body: { price: '100.001', number: '1' },
        msg: 'At most 2 decimal places are allowed',
      },
      {
        name: 'price with more than 13 integer digits',
        path: '/trad/sellLimit',
        body: { price: '10000000000000', number: '1' },
        msg: 'At most 13 digits are allowed before the decimal point',
      },
      {
        name: 'market buy without a price',
        path: '/trad/buyMarket',
        body: { number: '1' },
        msg: 'There is no market price yet, please place a limit order',
      },
    ];
    for (const { name, path, body, msg } of cases) {
      it(`refuses: ${name}`, async () => {
        const user = await fundedUser(h, { USDT: '1000', BTC: '2' });
        const before = await balances(user);
        expectRefused(await post(h, path, { ...BTC, ...body }, user.token), msg);
        expect(await balances(user)).toEqual(before);
        expect(await openOrderCount(user)).toBe(0);
      });
    }

    it('refuses a user without a bound email with the bind-email message', async () => {
      const user = await userWithoutEmail(h, { USDT: '1000' });
      expectRefused(await limit('buy', user, '100', '1', h), 'Please bind an email address first');
      expect((await balances(user)).USDT).toEqual({ available: '1000', locked: '0' });
    });

    it('checks the bound email before anything else', async () => {
      const user = await userWithoutEmail(h);
      expectRefused(
        await post(h, '/trad/buyLimit', { ...BTC }, user.token),
        'Please bind an email address first',
      );
    });

    it('refuses a frozen user', async () => {
      const user = await fundedUser(h, { USDT: '1000' });
      await h.app.identity.service.freeze({
        userId: user.id,
        reason: 'review',
        setBy: 'test',
        endsAt: h.clock.now() + 3_600_000,
      });
      const answer = await limit('buy', user, '100', '1', h);
      expect(answer.code).toBe(403);
      expect(answer.msg).toContain('review');
      expect((await balances(user)).USDT).toEqual({ available: '1000', locked: '0' });
    });

    it('refuses an unknown pair, a wrong plate and a visitor', async () => {
      const user = await fundedUser(h, { USDT: '1000' });
      expectRefused(
        await post(
          h,
          '/trad/buyLimit',
          { tradcoin: 'NOPE', maincoin: 'USDT', price: '1', number: '1' },
          user.token,
        ),
        'No such trading pair',
      );
      expectRefused(
        await post(h, '/trad/buyLimit', { ...BTC, price: '1', number: '1', plate: 7 }, user.token),
        'Invalid parameter: plate',
      );
      expect((await post(h, '/trad/buyLimit', { ...BTC, price: '1', number: '1' })).code).toBe(401);
    });
  });

  describe('many orders at once', () => {
    appPerTest();

    it('answers each order with its own row, as its own command left it', async () => {
      const buyer = await fundedUser(h, { USDT: '100000' });
      const seller = await fundedUser(h, { BTC: '100' });
      const sizes = Array.from({ length: 120 }, (_, index) => `0.${String(index + 1).padStart(3, '0')}`);
      const answers = await Promise.all(
        sizes.map((size, index) =>
          placed(limit(index % 2 === 0 ? 'sell' : 'buy', index % 2 === 0 ? seller : buyer, '100', size, h)),
        ),
      );
      expect(new Set(answers.map((order) => order.autoid)).size).toBe(sizes.length);
      answers.forEach((order, index) => {
        expect(order.number).toBe(Dec.parse(sizes[index]!).toString());
        expect(order.type).toBe(index % 2 === 0 ? 'sell' : 'buy');
        // As its own command left it, whatever came after: its fills and its state agree.
        const filled = Dec.parse(order.deal_amount);
        expect(filled.add(Dec.parse(order.unfilled)).toString()).toBe(order.number);
        expect(order.state).toBe(
          filled.isZero() ? 'unfilled' : filled.toString() === order.number ? 'filled' : 'partial',
        );
      });
      // Buys and sells at one price: what was answered traded, so some answered filled or partial.
      expect(answers.some((order) => order.state !== 'unfilled')).toBe(true);
    });
  });

  describe('limit orders', () => {
    appPerTest();

    it('holds exactly price × amount for a resting buy and shows it in the book', async () => {
      const buyer = await fundedUser(h, { USDT: '1000' });
      const order = await placed(limit('buy', buyer, '123.45', '2.5', h));
      expect(order).toMatchObject({ state: 'unfilled', unfilled: '2.5', price: '123.45' });
      expect((await balances(buyer)).USDT).toEqual({ available: '691.375', locked: '308.625' });
      const book = await bookOf(h);
      expect(book.buy).toEqual([{ price: '123.45', amount: '2.5', width: '100.00' }]);
      expect(book.sell).toEqual([]);
    });

    it('fills a resting buy with a crossing sell: both users, fee account and states', async () => {
      const buyer = await fundedUser(h, { USDT: '1000' });
      const seller = await fundedUser(h, { BTC: '1' });
      const bid = await placed(limit('buy', buyer, '100', '1', h));
      const ask = await placed(limit('sell', seller, '100', '1', h));
      expect(ask).toMatchObject({ state: 'filled', unfilled: '0', deal_amount: '1', fee: '0.1' });
      // Fees come out of what each side receives: the buyer's in BTC, the seller's in USDT.
      expect(await balances(buyer)).toEqual({
        USDT: { available: '900', locked: '0' },
        BTC: { available: '0.999', locked: '0' },
      });
      expect(await balances(seller)).toEqual({
        USDT: { available: '99.9', locked: '0' },
        BTC: { available: '0', locked: '0' },
      });
      expect(await balanceOf(h, FEES, 'USDT')).toEqual({ available: '0.1', locked: '0' });
      expect(await balanceOf(h, FEES, 'BTC')).toEqual({ available: '0.001', locked: '0' });
      const history = await expectOk(get(h, '/trad/entrustHistory', buyer.token));
      expect(history.data).toMatchObject({
        count: 1,
        list: [{ autoid: bid.autoid, state: 'filled', fee: '0.001' }],
      });
      const trad = (await expectOk(get(h, '/trad/trad?tradcoin=BTC&maincoin=USDT'))).data as {
        top: unknown[];
        info: { price: string };
      };
      expect(trad.top).toEqual([{ price: '100', amount: '1', type: 'sell', wdate: h.clock.now() }]);
      expect(trad.info.price).toBe('100.00');
    });

    it('releases the dust of a buy filled below its limit', async () => {
      const buyer = await fundedUser(h, { USDT: '1000' });
      const seller = await fundedUser(h, { BTC: '1' });
      await placed(limit('sell', seller, '95.5', '1', h));
      const bid = await placed(limit('buy', buyer, '100', '1', h));
      expect(bid).toMatchObject({ state: 'filled', price: '100', deal_amount: '1' });
      expect((await balances(buyer)).USDT).toEqual({ available: '904.5', locked: '0' });
    });

    it('partly fills, then a cancel leaves it partially cancelled with the hold released exactly', async () => {
      const buyer = await fundedUser(h, { USDT: '1000' });
      const seller = await fundedUser(h, { BTC: '1' });
      const bid = await placed(limit('buy', buyer, '200', '3', h));
      await placed(limit('sell', seller, '200', '0.75', h));
      expect((await balances(buyer)).USDT).toEqual({ available: '400', locked: '450' });
      const open = await expectOk(get(h, '/trad/entrustOrder', buyer.token));
      expect(open.data).toMatchObject({
        count: 1,
        list: [{ autoid: bid.autoid, state: 'partial', unfilled: '2.25' }],
      });
      const cancelled = await expectOk(post(h, '/trad/closeEntrust', { id: bid.autoid }, buyer.token));
      expect(cancelled.msg).toBe('Order cancelled');
      expect(cancelled.data).toMatchObject({
        state: 'partially_cancelled',
        unfilled: '2.25',
        deal_amount: '0.75',
      });
      expect((await balances(buyer)).USDT).toEqual({ available: '850', locked: '0' });
      expect(await openOrderCount(buyer)).toBe(0);
      expectRefused(
        await post(h, '/trad/closeEntrust', { id: bid.autoid }, buyer.token),
        'This order is no longer open',
      );
    });

    it('cancels an unfilled order as fully cancelled', async () => {
      const seller = await fundedUser(h, { BTC: '1' });
      const ask = await placed(limit('sell', seller, '300', '0.4', h));
      const answer = await expectOk(post(h, '/trad/closeEntrust', { id: ask.autoid }, seller.token));
      expect(answer.data).toMatchObject({ state: 'cancelled' });
      expect((await balances(seller)).BTC).toEqual({ available: '1', locked: '0' });
    });

    it('does not let another user cancel an order', async () => {
      const owner = await fundedUser(h, { USDT: '1000' });
      const other = await fundedUser(h);
      const bid = await placed(limit('buy', owner, '100', '1', h));
      expectRefused(await post(h, '/trad/closeEntrust', { id: bid.autoid }, other.token), 'Order not found');
      expect(await openOrderCount(owner)).toBe(1);
      expect((await balances(owner)).USDT.locked).toBe('100');
    });

    it('cancels its own rest instead of trading with its owner (self-trade prevention)', async () => {
      const user = await fundedUser(h, { USDT: '1000', BTC: '1' });
      await placed(limit('sell', user, '100', '1', h));
      const bid = await placed(limit('buy', user, '100', '1', h));
      expect(bid).toMatchObject({ state: 'cancelled', deal_amount: '0' });
      expect(await balances(user)).toEqual({
        USDT: { available: '1000', locked: '0' },
        BTC: { available: '0', locked: '1' },
      });
    });

    it('cancels all, per pair or everywhere, and releases every hold', async () => {
      const user = await fundedUser(h, { USDT: '1000', BTC: '1', ETH: '5' });
      await placed(limit('buy', user, '100', '1', h));
      await placed(limit('buy', user, '101', '1', h));
      await placed(limit('sell', user, '500', '0.5', h));
      await placed(
        post(
          h,
          '/trad/sellLimit',
          { tradcoin: 'ETH', maincoin: 'USDT', price: '4000', number: '1' },
          user.token,
        ),
      );
      const btcOnly = await expectOk(post(h, '/trad/closeAllEntrust', BTC, user.token));
      expect(btcOnly.msg).toBe('3 orders cancelled');
      expect(await openOrderCount(user)).toBe(1);
      const rest = await expectOk(post(h, '/trad/closeAllEntrust', {}, user.token));
      expect(rest.data).toMatchObject([{ state: 'cancelled', tradcoin: 'ETH' }]);
      expect(await balances(user)).toEqual({
        USDT: { available: '1000', locked: '0' },
        BTC: { available: '1', locked: '0' },
      });
      expect(await balanceOf(h, spotOf(user), 'ETH')).toEqual({ available: '5', locked: '0' });
    });
  });

  describe('market orders', () => {
    appPerTest();

    it('never spends more than the hold of a market buy, and cancels the rest', async () => {
      const buyer = await fundedUser(h, { USDT: '1000' });
      const seller = await fundedUser(h, { BTC: '3' });
      const other = await fundedUser(h, { USDT: '100' });
      // A first trade sets the latest price: 100.
      await placed(limit('sell', seller, '100', '0.6', h));
      await placed(limit('buy', other, '100', '0.1', h));
      await placed(limit('sell', seller, '200', '1', h));
      // Hold: 100 × 1 × 1.05 = 105. It buys 0.5 at 100 (50), then 0.275 at 200 (55): exactly the hold.
      const order = await placed(market('buy', buyer, '1', h));
      expect(order).toMatchObject({ state: 'partially_cancelled', deal_amount: '0.775', price: '135.48' });
      expect((await balances(buyer)).USDT).toEqual({ available: '895', locked: '0' });
      expect((await balances(buyer)).BTC.available).toBe('0.774225');
    });

    it('fills a market sell against the bids and cancels what finds no buyer', async () => {
      const buyer = await fundedUser(h, { USDT: '1000' });
      const seller = await fundedUser(h, { BTC: '2' });
      await placed(limit('buy', buyer, '150', '0.5', h));
      await placed(limit('buy', buyer, '140', '0.5', h));
      const order = await placed(market('sell', seller, '1.5', h));
      expect(order).toMatchObject({ state: 'partially_cancelled', deal_amount: '1', unfilled: '0.5' });
      // 75 + 70 = 145 quote, less the 0.1 % fee.
      expect(await balances(seller)).toEqual({
        USDT: { available: '144.855', locked: '0' },
        BTC: { available: '1', locked: '0' },
      });
    });
  });

  describe('reads', () => {
    appPerTest();

    it('answers tradAccount, entrustOrder and the pair lists in the spec shapes', async () => {
      const user = await fundedUser(h, { USDT: '1000', BTC: '1' });
      const bid = await placed(limit('buy', user, '100', '2', h));
      const account = await expectOk(get(h, '/trad/tradAccount?tradcoin=BTC&maincoin=USDT', user.token));
      expect(account.data).toEqual({
        balance: { mainusable: '800', tradusable: '1' },
        entrust_order: [
          {
            autoid: bid.autoid,
            id: String(bid.autoid),
            type: 'buy',
            style: 'limit',
            price: '100',
            number: '2',
            unfilled: '2',
            deal_amount: '0',
            deal_money: '0',
            fee: '0',
            feeCoin: 'BTC',
            feeHal: '0',
            wdate: h.clock.now(),
            state: 'unfilled',
            tradcoin: 'BTC',
            maincoin: 'USDT',
          },
        ],
      });
      const open = await expectOk(
        get(h, '/trad/entrustOrder?page=1&limit=5&tradcoin=BTC&maincoin=USDT', user.token),
      );
      expect(open.data).toMatchObject({ count: 1, page: 1, limit: 5 });
      const ethOnly = await expectOk(get(h, '/trad/entrustOrder?tradcoin=ETH&maincoin=USDT', user.token));
      expect(ethOnly.data).toMatchObject({ count: 0, list: [] });
      const symbols = (await expectOk(get(h, '/trad/symbols'))).data as Record<string, unknown>[];
      expect(symbols.map((row) => row.tradcoin)).toEqual([
        'BTC',
        'ETH',
        'SOL',
        'BNB',
        'XRP',
        'DOGE',
        'TRX',
        'LTC',
        'HAL',
      ]);
      expect(symbols[0]).toMatchObject({
        maincoin: 'USDT',
        buyprice: '100',
        sellprice: '0',
        price_accuracy: 2,
        amount_accuracy: 5,
        minnumber: '0.0001',
        isOptional: false,
      });
      const overview = (await expectOk(get(h, '/trad/overview'))).data as unknown[];
      expect(overview).toHaveLength(9);
    });

    it('serves the introduction in the request language and the depth widths of spec §9', async () => {
      const cn = await expectOk(
        get(h, '/trad/currencyIntroduction?tradcoin=BTC&maincoin=USDT', undefined, { lang: 'cn' }),
      );
      expect((cn.data as { content: string }).content).toBe(
        'Bitcoin（BTC）于 2009 年推出。它是一种总量固定的去中心化数字货币，用于价值储存和支付。',
      );
      const seller = await fundedUser(h, { BTC: '2' });
      await placed(limit('sell', seller, '101', '0.1', h));
      await placed(limit('sell', seller, '102', '1.9', h));
      const book = await bookOf(h);
      // Width = amount × 800 / total shown (2), capped at 100; the lowest ask first.
      expect(book.sell).toEqual([
        { price: '101', amount: '0.1', width: '40.00' },
        { price: '102', amount: '1.9', width: '100.00' },
      ]);
    });
  });

  describe('live data', () => {
    appPerTest();

    it('pushes depth and latest trades on the spec keys after the commit, and both pair lists', async () => {
      const buyer = await fundedUser(h, { USDT: '1000' });
      const seller = await fundedUser(h, { BTC: '1' });
      const publish = vi.spyOn(h.app.realtime, 'publish');
      await placed(limit('buy', buyer, '100', '1', h));
      await placed(limit('sell', seller, '100', '0.4', h));
      const pushes = publish.mock.calls.map(([push]) => push);
      expect(pushes).toContainEqual({
        type: 'buy',
        key: 'USDT_BTC_trad',
        data: [{ price: '100', amount: '0.6', width: '100.00' }],
      });
      expect(pushes).toContainEqual({ type: 'sell', key: 'USDT_BTC_trad', data: [] });
      expect(pushes).toContainEqual({
        type: 'top',
        key: 'USDT_BTC_trad',
        data: [{ price: '100', amount: '0.4', type: 'sell', wdate: h.clock.now() }],
      });
      // The trade reaches the K-line: the 1-minute bar holds it once flushed.
      await h.app.market.data.flush();
      const kline = await expectOk(get(h, '/trad/kline?pairname=BTC/USDT&mine=1&count=1'));
      expect((kline.data as { series: string[] }).series[0]).toMatch(/\|100\|100\|100\|100\|0\.4$/);
      publish.mockClear();
      h.app.spot.service.publishLists();
      expect(publish.mock.calls.map(([push]) => push.type)).toEqual(['overview', 'symbols']);
    });
  });

  describe('durability across a restart', () => {
    appPerTest();

    it('rebuilds the same book from the store', async () => {
      const buyer = await fundedUser(h, { USDT: '10000' });
      const seller = await fundedUser(h, { BTC: '5' });
      await placed(limit('buy', buyer, '100', '1', h));
      await placed(limit('buy', buyer, '99', '2', h));
      await placed(limit('sell', seller, '105', '1.5', h));
      await placed(limit('sell', seller, '99', '1.5', h));
      const before = await bookOf(h);
      await restartApp(h);
      const after = await bookOf(h);
      expect(after.buy).toEqual(before.buy);
      expect(after.sell).toEqual(before.sell);
      expect(before.buy).toEqual([{ price: '99', amount: '1.5', width: '100.00' }]);
    });
  });

  describe('demo faucet', () => {
    appPerTest();

    it('credits play USDT and BTC through the ledger', async () => {
      const user = await fundedUser(h);
      const answer = await expectOk(post(h, '/account/demoFaucet', {}, user.token));
      expect(answer.msg).toContain('10000 USDT, 1 BTC');
      expect(await balances(user)).toEqual({
        USDT: { available: '10000', locked: '0' },
        BTC: { available: '1', locked: '0' },
      });
    });
  });
});
