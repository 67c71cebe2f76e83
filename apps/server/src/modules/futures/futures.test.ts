import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MONEY_PATHS } from '../identity/test-support.ts';
import type { PositionView } from './service.ts';
import {
  balanceOf,
  expectAuditClean,
  expectOk,
  FEES,
  futuresOf,
  futuresUser,
  get,
  type Harness,
  mark,
  order,
  POOL,
  placed,
  positionsOf,
  post,
  startHarness,
} from './test-support.ts';

describe.each(MONEY_PATHS)('futures on $on', ({ moneyCore }) => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness({ moneyCore });
    await mark(h, '100000');
  });

  afterEach(async () => {
    await expectAuditClean(h);
    await h.close();
  });

  describe('contracts', () => {
    it('lists the four demo perpetuals with the spec §3 futures pair fields', async () => {
      const symbols = (await expectOk(get(h, '/contract/symbols'))).data as Array<Record<string, unknown>>;
      expect(symbols.map((row) => row.symbol)).toEqual(['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'BNB/USDT']);
      expect(symbols[0]).toMatchObject({
        tradcoin: 'BTC',
        maincoin: 'USDT',
        unit: '0.001',
        minnumber: '1',
        maxnumber: '10000',
        max_lever: 100,
        gas: '0.0005',
        chinaname: 'BTC永续',
        price_accuracy: 2,
      });
      const levers = (await expectOk(get(h, '/contract/lever?tradcoin=BTC&maincoin=USDT'))).data;
      expect(levers).toEqual([1, 2, 3, 5, 10, 20, 25, 50, 75, 100].map((lever) => ({ lever })));
      const info = (await expectOk(get(h, '/contract/contract?tradcoin=btc&maincoin=usdt'))).data as {
        info: Record<string, unknown>;
        buy: unknown[];
        sell: unknown[];
      };
      expect(info.info).toMatchObject({
        mark_price: '100000',
        maintenance_margin_rate: '0.005',
        initial_margin_rate: '0.01',
      });
      expect(info.buy).toEqual([]);
    });
  });

  describe('order → position → partial close → full close', () => {
    it('holds margin and fee, opens at the fill, realises PnL and fees exactly through the ledger', async () => {
      const long = await futuresUser(h);
      const short = await futuresUser(h);
      const bidder = await futuresUser(h);

      // The short rests 10 lots at 100000: notional 1000, margin 100, fee 0.5 held.
      const resting = await placed(order(h, short, 'sell', 'limit', '10', { price: '100000' }));
      expect(resting).toMatchObject({
        state: 'unfilled',
        entrust_price: '100000',
        unfilled: '10',
        tdMode: 'cross',
        lever: 10,
      });
      expect(await balanceOf(h, futuresOf(short))).toEqual({ available: '9899.5', locked: '100.5' });

      // The long buys at market: holds at 100000 × 1.05, fills at 100000, the rest of the hold is released.
      const bought = await placed(order(h, long, 'buy', 'market', '10'));
      expect(bought).toMatchObject({ state: 'all', deal_price: '100000', margin: '100', fee: '0.5' });
      expect(await balanceOf(h, futuresOf(long))).toEqual({ available: '9899.5', locked: '0' });
      expect(await balanceOf(h, futuresOf(short))).toEqual({ available: '9899.5', locked: '0' });
      expect(await balanceOf(h, POOL)).toEqual({ available: '200', locked: '0' });

      await mark(h, '101000');
      const [position] = await positionsOf(h, long);
      expect(position).toMatchObject({
        type: 'buy',
        tdMode: 'cross',
        lever: 10,
        price: '100000',
        number: '10',
        position: '100',
        profit: '10',
        profit_rate: '10.00',
        fess: '0.5',
        value: '1010',
        mark_price: '101000',
      });

      // Partial close of 4 lots into a bid at 101000: margin 40 released, cost 400, PnL +4, fee 0.202.
      await placed(order(h, bidder, 'buy', 'limit', '4', { price: '101000' }));
      const partial = (
        await expectOk(
          post(h, '/contract/closePosition', { autoid: position!.autoid, number: '4' }, long.token),
        )
      ).data as PositionView;
      expect(partial).toMatchObject({
        number: '6',
        position: '60',
        realised: '4',
        fess: '0.702',
        close_price: '101000',
      });
      expect(await balanceOf(h, futuresOf(long))).toEqual({ available: '9943.298', locked: '0' });

      // The rest at 99000: margin 60, cost 600, PnL −6, fee 0.297.
      await placed(order(h, bidder, 'buy', 'limit', '6', { price: '99000' }));
      const closed = (
        await expectOk(
          post(h, '/contract/closePosition', { autoid: position!.autoid, number: '6' }, long.token),
        )
      ).data as PositionView;
      expect(closed).toMatchObject({ state: 'closed', number: '0', realised: '-2', fess: '0.999' });
      // 10000 − 0.5 − 0.202 − 0.297 + 4 − 6
      expect(await balanceOf(h, futuresOf(long))).toEqual({ available: '9997.001', locked: '0' });
      expect(await positionsOf(h, long)).toEqual([]);
      const history = (await expectOk(get(h, '/contract/tradHistory', long.token))).data as {
        list: PositionView[];
        count: number;
      };
      expect(history.count).toBe(1);
      // Poster order: average entry 100000, income = −2 / margin 100 × 100.
      expect(history.list[0]).toMatchObject({
        autoid: position!.autoid,
        last_profit: '-2',
        state: 'closed',
        price: '100000',
        income: '-2.00',
      });
      expect(history.list[0]!.closedate).toBe(h.clock.now());
      // Fees: 0.5 + 0.5 on opening, 0.202 + 0.297 on closing, and the bidder's opening fees 0.202 + 0.297.
      expect(await balanceOf(h, FEES)).toEqual({ available: '1.998', locked: '0' });
    });

    it('isolated and cross: the isolated liquidation price uses the margin alone, cross draws on the free balance', async () => {
      const isolated = await futuresUser(h, '1000');
      const cross = await futuresUser(h, '1000');
      const short = await futuresUser(h);
      await placed(order(h, short, 'sell', 'limit', '20', { price: '100000', lever: 20 }));
      await placed(order(h, isolated, 'buy', 'market', '10', { lever: 20, tdMode: 'lsolate' }));
      await placed(order(h, cross, 'buy', 'market', '10', { lever: 20, tdMode: 'cross' }));
      const [isolatedPosition] = await positionsOf(h, isolated);
      const [crossPosition] = await positionsOf(h, cross);
      // (50 − 1000) / (0.01 × 0.005 − 0.01) = 95477.38…
      expect(isolatedPosition).toMatchObject({
        tdMode: 'lsolate',
        position: '50',
        liquidation_price: '95477.38',
      });
      // e = free 949.5 + margin 50: (999.5 − 1000) / (0.01 × 0.005 − 0.01) = 50.25…
      expect(crossPosition).toMatchObject({ tdMode: 'cross', position: '50', liquidation_price: '50.25' });
    });

    it('cancels a resting order and releases its whole hold', async () => {
      const user = await futuresUser(h);
      const resting = await placed(order(h, user, 'buy', 'limit', '5', { price: '90000', lever: 5 }));
      expect(await balanceOf(h, futuresOf(user))).toEqual({ available: '9909.775', locked: '90.225' });
      const account = (
        await expectOk(get(h, '/contract/contractAccount?tradcoin=BTC&maincoin=USDT', user.token))
      ).data as {
        balance: { usable: string };
        entrust_order: unknown[];
      };
      expect(account.balance.usable).toBe('9909.775');
      expect(account.entrust_order).toHaveLength(1);
      const cancelled = (
        await expectOk(post(h, '/contract/closeEntrust', { id: resting.autoid }, user.token))
      ).data;
      expect(cancelled).toMatchObject([{ state: 'cancel' }]);
      expect(await balanceOf(h, futuresOf(user))).toEqual({ available: '10000', locked: '0' });
      const finished = (await expectOk(get(h, '/contract/tradOrder', user.token))).data as { count: number };
      expect(finished.count).toBe(1);
    });
  });

  describe('close by side and by coin', () => {
    it('closes a hedged user’s long by side, then the rest of the coin; reads list positions and entrusts', async () => {
      const hedger = await futuresUser(h);
      const maker = await futuresUser(h);
      await placed(order(h, maker, 'sell', 'limit', '5', { price: '100000' }));
      await placed(order(h, maker, 'buy', 'limit', '5', { price: '99000' }));
      await placed(order(h, hedger, 'buy', 'market', '2'));
      await placed(order(h, hedger, 'sell', 'market', '2'));
      const byCoin = (
        await expectOk(get(h, '/contract/positionByCoin?tradcoin=BTC&maincoin=USDT', hedger.token))
      ).data as PositionView[];
      expect(byCoin.map((row) => row.type).sort()).toEqual(['buy', 'sell']);
      const open = (await expectOk(get(h, '/contract/tradEntrust', maker.token))).data as { count: number };
      expect(open.count).toBe(2);

      const bySide = await expectOk(
        post(h, '/contract/closeAllPosition', { coin: 'BTC', type: 'buy' }, hedger.token),
      );
      expect(bySide.msg).toBe('1 positions closed');
      expect((await positionsOf(h, hedger)).map((row) => row.type)).toEqual(['sell']);
      const byContract = await expectOk(
        post(h, '/contract/closeCoinPosition', { tradcoin: 'BTC', maincoin: 'USDT' }, hedger.token),
      );
      expect(byContract.data).toMatchObject([{ type: 'sell', state: 'closed' }]);
      expect(await positionsOf(h, hedger)).toEqual([]);
    });
  });

  describe('take-profit and stop-loss', () => {
    it('a TP attached to the order becomes a trigger on the position and fires on a mark move', async () => {
      const long = await futuresUser(h);
      const short = await futuresUser(h);
      const bidder = await futuresUser(h);
      await placed(order(h, short, 'sell', 'limit', '10', { price: '100000' }));
      await placed(order(h, long, 'buy', 'market', '10', { profitPrice: '102000', lossPrice: '95000' }));
      const [position] = await positionsOf(h, long);
      expect(position).toMatchObject({ profitOrder: 1, tp_price: '102000', sl_price: '95000' });
      await placed(order(h, bidder, 'buy', 'limit', '10', { price: '102000' }));

      await mark(h, '101999');
      expect(await positionsOf(h, long)).toHaveLength(1);
      await mark(h, '102000');
      expect(await positionsOf(h, long)).toEqual([]);
      // 10000 − 100.5 + margin 100 + PnL 20 − fee 0.51
      expect(await balanceOf(h, futuresOf(long))).toEqual({ available: '10018.99', locked: '0' });
      const orders = (
        await expectOk(get(h, `/contract/profitLossOrder?autoid=${position!.autoid}`, long.token))
      ).data;
      expect(orders).toEqual([]);
    });

    it('sets, edits and cancels a position TP/SL with the long rules', async () => {
      const long = await futuresUser(h);
      const short = await futuresUser(h);
      await placed(order(h, short, 'sell', 'limit', '10', { price: '100000' }));
      await placed(order(h, long, 'buy', 'market', '10'));
      const [position] = await positionsOf(h, long);
      const set = (
        await expectOk(
          post(h, '/contract/profitLoss', { autoid: position!.autoid, lossPrice: '99000' }, long.token),
        )
      ).data as { id: number };
      const edited = await expectOk(
        post(
          h,
          '/contract/editProfitLoss',
          { id: set.id, profitPrice: '105000', lossPrice: '98000', number: '5' },
          long.token,
        ),
      );
      expect(edited.data).toMatchObject({ profitPrice: '105000', lossPrice: '98000', number: '5' });
      expect((await positionsOf(h, long))[0]).toMatchObject({ profitOrder: 1 });
      await expectOk(post(h, '/contract/closeProfitLoss', { id: set.id }, long.token));
      expect((await positionsOf(h, long))[0]).toMatchObject({ profitOrder: 0 });
    });
  });

  describe('many orders at once', () => {
    // On the core each reply takes its rows from its own command's events: an answer read from another command
    // (the latest batch's, the user's newest order) would show another price.
    it('answers each of 30 orders in flight with its own entrust', async () => {
      const user = await futuresUser(h, '100000');
      const prices = Array.from({ length: 30 }, (_, index) => String(90_000 + index * 10));
      const answers = await Promise.all(
        prices.map((price) => placed(order(h, user, 'buy', 'limit', '1', { price }))),
      );
      expect(answers.map((answer) => answer.entrust_price)).toEqual(prices);
      expect(new Set(answers.map((answer) => answer.autoid)).size).toBe(prices.length);
    });
  });
});
