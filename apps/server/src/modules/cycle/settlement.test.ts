import { Dec } from '@halyard/money';
import type { CyclePosition } from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import { decideResult, settle, VOID_SETTLEMENT } from '../../core/state/cycle-rules.ts';
import { MONEY_PATHS, restartApp } from '../identity/test-support.ts';
import { closeToleranceMs, ratesOf, SettlementEngine, stakeTransferId } from './settlement.ts';
import { insertOrder, selectOpenOrders, selectSettledPage } from './store.ts';
import {
  BTC,
  eachTestWithHarness,
  expectOk,
  FEES,
  fundedUser,
  get,
  type Harness,
  HOUSE,
  order,
  placed,
  positionById,
  STAKES,
  snapshot,
  spotOf,
  tickAfter,
  usdtOf,
} from './test-support.ts';

const d = (text: string) => Dec.parse(text);

let h: Harness;
const use = (harness: Harness) => {
  h = harness;
};

/** Ticks once a second until just past `seconds`. */
async function runUntilDue(seconds: number) {
  for (let second = 0; second <= seconds; second += 1) await tickAfter(h, 1000);
}

/** Ticks once a second until just past `seconds`, then settles what is due. */
async function runFor(seconds: number) {
  await runUntilDue(seconds);
  return h.app.cycle.settleDue();
}

describe.each(MONEY_PATHS)('cycle settlement on $on', ({ moneyCore }) => {
  eachTestWithHarness(moneyCore, use);

  it('settles an up and a down contract opened together: one wins, one loses, from the recorded prices', async () => {
    const upper = await fundedUser(h);
    const downer = await fundedUser(h);
    const houseBefore = d((await usdtOf(h, HOUSE)).available);
    const up = await placed(order(h, upper, 'buy'));
    const down = await placed(order(h, downer, 'sell'));
    // The stake is paid in when the contract opens: nothing stays locked.
    expect(await usdtOf(h, spotOf(upper))).toEqual({ available: '900', locked: '0' });
    expect(await usdtOf(h, STAKES)).toEqual({ available: '200', locked: '0' });
    expect(up).toMatchObject({
      state: 'open',
      type: 'buy',
      number: '100',
      lever: 30,
      profit_gas: '0.8',
      loss_gas: '1',
      gas: '0.02',
    });
    // A win of 100 pays 80 less a 2 % fee: 78.4, known before confirming.
    expect(up.income).toBe('78.4');
    expect(up.open_source).toBe('halyard-simulator');

    const settled = await runFor(30);
    expect(settled).toHaveLength(2);
    const upAfter = await positionById(h, upper, up.orderid);
    const downAfter = await positionById(h, downer, down.orderid);
    const rose = d(upAfter.close_price ?? '0').gt(d(upAfter.open_price));
    expect(upAfter.close_price).not.toBe(upAfter.open_price);
    const [winner, loser] = rose ? [upper, downer] : [downer, upper];
    const [won, lost] = rose ? [upAfter, downAfter] : [downAfter, upAfter];
    expect(won).toMatchObject({ state: 'settled', result: 'win', last_profit: '78.4', fee: '1.6' });
    expect(lost).toMatchObject({ state: 'settled', result: 'loss', last_profit: '-100', fee: '0' });
    expect(await usdtOf(h, spotOf(winner))).toEqual({ available: '1078.4', locked: '0' });
    expect(await usdtOf(h, spotOf(loser))).toEqual({ available: '900', locked: '0' });

    // The closing price is the recorded tick at or just before the expiry instant.
    const recorded = await h.app.market.index.priceAt('BTC', won.expires_at);
    expect(won.close_price).toBe(recorded?.price.toString());
    expect(won.close_ts).toBe(recorded?.ts);
    expect(won.close_ts).toBeLessThanOrEqual(won.expires_at);
    expect(won.close_source).toBe('halyard-simulator');

    // The winner's record: the stake paid in, then the stake and the payout less its fee paid back in one transfer.
    const record = await h.app.ledger.transfers({ ...spotOf(winner), asset: 'USDT' }, { limit: 2 });
    expect(record.items.map(({ code, type, amount }) => [code, type, amount.toString()])).toEqual([
      ['cycle_payout', 'posted', '178.4'],
      ['cycle_stake', 'posted', '100'],
    ]);
    expect(await usdtOf(h, STAKES)).toEqual({ available: '0', locked: '0' });
    // Fee accounting: the house paid 80 and took 100; the fee account got 1.6.
    expect(await usdtOf(h, FEES)).toEqual({ available: '1.6', locked: '0' });
    expect(
      d((await usdtOf(h, HOUSE)).available)
        .sub(houseBefore)
        .toString(),
    ).toBe('20');
  });

  it('voids a contract with no tick near its expiry, returning the stake exactly (no tick after the open)', async () => {
    const user = await fundedUser(h, '250.5');
    const position = await placed(order(h, user, 'buy', { number: '123.45678901' }));
    h.clock.advance(31_000);
    const [settled] = await h.app.cycle.settleDue();
    expect(settled?.settlement.result).toBe('void');
    const after = await positionById(h, user, position.orderid);
    // The only tick at or before expiry is the opening one, 30 s before it: shown as the evidence.
    expect(after).toMatchObject({
      result: 'void',
      last_profit: '0',
      fee: '0',
      close_price: after.open_price,
      close_ts: after.open_ts,
      void_reason: { code: 'no_index_price_at_expiry', tolerance_ms: 2000 },
    });
    expect(await usdtOf(h, spotOf(user))).toEqual({ available: '250.5', locked: '0' });
    expect(await usdtOf(h, FEES)).toEqual({ available: '0', locked: '0' });
  });

  it('settles from a tick up to the tolerance (2 ticks, 2 s) before expiry, and voids past it', async () => {
    const user = await fundedUser(h);
    const near = await placed(order(h, user, 'buy', { number: '10' }));
    h.clock.advance(1);
    const far = await placed(order(h, user, 'sell', { number: '10' }));
    // The last tick before both expiries: 2000 ms before `near`'s, 2001 ms before `far`'s.
    await tickAfter(h, 28_000 - 1);
    h.clock.advance(5_000);
    expect(await h.app.cycle.settleDue()).toHaveLength(2);
    const nearAfter = await positionById(h, user, near.orderid);
    const farAfter = await positionById(h, user, far.orderid);
    expect(nearAfter.expires_at - (nearAfter.close_ts ?? 0)).toBe(2000);
    expect(nearAfter.result).toBe(
      decideResult('buy', d(nearAfter.open_price), d(nearAfter.close_price ?? '0')),
    );
    expect(nearAfter.void_reason).toBeNull();
    expect(farAfter).toMatchObject({ result: 'void', last_profit: '0', close_ts: nearAfter.close_ts });
  });

  it('waits for the expiry: an order is not settled a millisecond early, and never twice', async () => {
    const user = await fundedUser(h);
    const position = await placed(order(h, user, 'sell'));
    h.clock.advance(29_999);
    expect(await h.app.cycle.settleDue()).toHaveLength(0);
    expect((await positionById(h, user, position.orderid)).state).toBe('open');
    h.clock.advance(1);
    expect(await h.app.cycle.settleDue()).toHaveLength(1);
    const before = await snapshot(h, [user]);
    const again = await Promise.all([h.app.cycle.settleDue(), h.app.cycle.settleDue(h.clock.now() + 60_000)]);
    expect(again.flat()).toHaveLength(0);
    expect(await snapshot(h, [user])).toEqual(before);
  });

  it('voids on restart an order whose expiry passed while the server was down, returning its stake once', async () => {
    const user = await fundedUser(h);
    const houseBefore = await usdtOf(h, HOUSE);
    // Issue 13 item 8: a 30 s contract whose last recorded tick came 25 s before its expiry.
    const position = await placed(order(h, user, 'buy', { lever: 30, number: '50' }));
    await tickAfter(h, 5000);
    const lastBeforeDown = await h.app.market.index.priceAt('BTC', h.clock.now());
    await restartApp(h, () => h.clock.advance(10 * 60_000));
    const after = await positionById(h, user, position.orderid);
    // Nothing was recorded while the server was down: no price at the expiry instant, so no outcome.
    expect(after).toMatchObject({
      state: 'settled',
      result: 'void',
      last_profit: '0',
      fee: '0',
      close_ts: lastBeforeDown?.ts,
      close_price: lastBeforeDown?.price.toString(),
      void_reason: { code: 'no_index_price_at_expiry', tolerance_ms: 2000 },
    });
    expect(after.expires_at - (after.close_ts ?? 0)).toBe(25_000);
    // The stake came back in full through the ledger; the stakes account and the house are where they were.
    expect(await usdtOf(h, spotOf(user))).toEqual({ available: '1000', locked: '0' });
    expect(await usdtOf(h, STAKES)).toEqual({ available: '0', locked: '0' });
    expect(await usdtOf(h, HOUSE)).toEqual(houseBefore);
    const record = await h.app.ledger.transfers({ ...spotOf(user), asset: 'USDT' }, { limit: 2 });
    expect(record.items.map(({ code, amount }) => [code, amount.toString()])).toEqual([
      ['cycle_refund', '50'],
      ['cycle_stake', '50'],
    ]);
    // The history answer says why.
    const history = (await expectOk(get(h, '/cycle/tradHistory?page=1&limit=10', user.token))).data as {
      list: CyclePosition[];
    };
    expect(history.list[0]).toMatchObject({
      orderid: position.orderid,
      result: 'void',
      void_reason: after.void_reason,
    });
    const settledOnce = await snapshot(h, [user]);
    expect(settledOnce).toMatchObject({ orders: 1, open: 0, settlements: 1 });

    await restartApp(h);
    expect(await snapshot(h, [user])).toEqual(settledOnce);
    expect(await positionById(h, user, position.orderid)).toEqual(after);
  });

  it('replaying the recorded prices reproduces every stored outcome', async () => {
    const users = [await fundedUser(h, '5000'), await fundedUser(h, '5000')];
    for (let round = 0; round < 12; round += 1) {
      const user = users[round % 2]!;
      await placed(
        order(h, user, round % 3 === 0 ? 'sell' : 'buy', {
          lever: round % 4 === 0 ? 60 : 30,
          number: String(20 + round),
        }),
      );
      await tickAfter(h, 1000 + round * 7);
    }
    // Void ones among them: opened and expired with no tick in between, and those of the rounds
    // whose expiry falls in the 30 s without ticks.
    await placed(order(h, users[0]!, 'buy'));
    h.clock.advance(30_000);
    await h.app.cycle.settleDue();
    await runFor(61);

    const stored = await selectSettledPage(h.store.db, 0, 100);
    expect(stored).toHaveLength(13);
    for (const { order: row, settlement } of stored) {
      const close = await h.app.market.index.priceAt(row.tradcoin, row.expires_at);
      expect(close, `a recorded price at ${row.expires_at}`).not.toBeNull();
      const tooOld = row.expires_at - close!.ts > closeToleranceMs(h.config.priceTickMs);
      const replayed = tooOld
        ? VOID_SETTLEMENT
        : settle(row.type, d(row.number), ratesOf(row), d(row.open_price), close!.price);
      expect(settlement).toMatchObject({
        result: replayed.result,
        close_ts: close!.ts,
        close_source: close!.source,
      });
      expect(d(settlement!.close_price).eq(close!.price)).toBe(true);
      expect(d(settlement!.last_profit).eq(replayed.lastProfit)).toBe(true);
      expect(d(settlement!.fee).eq(replayed.fee)).toBe(true);
    }
    const results = new Set(stored.map(({ settlement }) => settlement!.result));
    expect(results).toContain('void');
    expect(results.size).toBeGreaterThan(1);
  });

  it('pages the history 15 at a time with the total count, newest first', async () => {
    const user = await fundedUser(h, '1000');
    for (let index = 0; index < 20; index += 1) {
      await placed(order(h, user, 'buy', { number: '10' }));
      h.clock.advance(100);
    }
    const open = await expectOk(get(h, '/cycle/positionByCoin?tradcoin=BTC&maincoin=USDT', user.token));
    expect(open.data as CyclePosition[]).toHaveLength(20);
    await runFor(31);
    const first = await expectOk(
      get(h, '/cycle/tradHistoryByCoin?tradcoin=BTC&maincoin=USDT&page=1', user.token),
    );
    const second = await expectOk(
      get(h, '/cycle/tradHistoryByCoin?tradcoin=BTC&maincoin=USDT&page=2&limit=15', user.token),
    );
    const one = first.data as { list: CyclePosition[]; count: number };
    const two = second.data as { list: CyclePosition[]; count: number };
    expect(one.count).toBe(20);
    expect(one.list).toHaveLength(15);
    expect(two.list).toHaveLength(5);
    const ids = [...one.list, ...two.list].map((row) => row.autoid);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(20);
    const all = await expectOk(get(h, '/cycle/tradHistory?page=1&limit=100', user.token));
    expect((all.data as { count: number }).count).toBe(20);
    const emptyNow = await expectOk(
      get(h, `/cycle/positionByCoin?tradcoin=${BTC.tradcoin}&maincoin=${BTC.maincoin}`, user.token),
    );
    expect(emptyNow.data).toEqual([]);
  });
});

/**
 * The SQL engine's own guarantees: its chunks in ledger transactions, a chunk
 * refused by the store, its reload, and stakes held before migration 012.
 * SQL only: they drive a SettlementEngine (or write a hold) in a module
 * transaction, which the core refuses; on the core the state settles each
 * command whole, and refuses to start while any stake is still held.
 */
describe('the SQL settlement engine', () => {
  eachTestWithHarness(false, use);

  it('settles a tick in chunks of bounded size, each paying its wins’ fees in one transfer', async () => {
    const users = [await fundedUser(h), await fundedUser(h)];
    for (let index = 0; index < 5; index += 1) {
      await placed(order(h, users[index % 2]!, index % 2 === 0 ? 'buy' : 'sell', { number: '10' }));
    }
    await runUntilDue(30);
    const engine = new SettlementEngine({
      db: h.store.db,
      ledger: h.app.ledger,
      clock: h.clock,
      index: h.app.market.index,
      referral: h.app.referral.service.fees,
      chunkMax: 2,
    });
    await engine.load();
    const settled = await engine.settleDue(h.clock.now(), 'BTC');
    expect(settled).toHaveLength(5);
    // The app's engine (as another process would) still holds them as open: the store refuses a second
    // settlement, and the engine starts its next call from the record.
    await expect(h.app.cycle.settleDue()).rejects.toThrow();
    expect(await h.app.cycle.settleDue()).toHaveLength(0);
    const chunks = [settled.slice(0, 2), settled.slice(2, 4), settled.slice(4)];
    const withWins = chunks.filter((chunk) => chunk.some(({ settlement }) => settlement.result === 'win'));
    const fees = await h.app.ledger.transfers({ ...FEES, asset: 'USDT' }, { codes: ['cycle_fee'] });
    expect(fees.items).toHaveLength(withWins.length);
    expect(fees.items.map(({ amount }) => amount.toString())).toEqual(
      withWins.reverse().map((chunk) => Dec.sum(chunk.map(({ settlement }) => d(settlement.fee))).toString()),
    );
    expect(
      fees.items.every(({ debit }) => debit.owner === HOUSE.owner && debit.wallet === HOUSE.wallet),
    ).toBe(true);
  });

  it('after a chunk refused in the middle of a tick, settles what is left once, from the record', async () => {
    const user = await fundedUser(h);
    for (const count of [2, 2, 1]) {
      for (let index = 0; index < count; index += 1) await placed(order(h, user, 'buy', { number: '10' }));
      h.clock.advance(1000);
    }
    await runUntilDue(30);
    const engine = (chunkMax: number) =>
      new SettlementEngine({
        db: h.store.db,
        ledger: h.app.ledger,
        clock: h.clock,
        index: h.app.market.index,
        referral: h.app.referral.service.fees,
        chunkMax,
      });
    const open = await selectOpenOrders(h.store.db);
    const [first, second, third] = [open.slice(0, 2), open.slice(2, 4), open.slice(4)];
    const settler = engine(2);
    await settler.load();
    // Another settler settles the middle two first: the second of three chunks is refused.
    const other = engine(2);
    for (const each of second) other.opened(each);
    expect(await other.settleDue(h.clock.now())).toHaveLength(2);

    await expect(settler.settleDue(h.clock.now())).rejects.toThrow();
    const retried = await settler.settleDue(h.clock.now());
    expect(retried.map(({ order }) => order.orderid)).toEqual(third.map((each) => each.orderid));
    const settled = await selectSettledPage(h.store.db, 0, 10);
    expect(settled.map(({ order }) => order.orderid)).toEqual(
      [...first, ...second, ...third].map((each) => each.orderid),
    );
    expect((await snapshot(h, [user])).open).toBe(0);
    expect(await usdtOf(h, STAKES)).toEqual({ available: '0', locked: '0' });
  });

  it('keeps, once each, the orders accepted while the engine reloads its open orders', async () => {
    const user = await fundedUser(h);
    await placed(order(h, user, 'buy'));
    const [stored] = await selectOpenOrders(h.store.db);
    // One whose acceptance committed before the engine's read, one (standing in) after it.
    const later = { ...stored!, orderid: stored!.orderid + 1000 };
    const engine = new SettlementEngine({
      db: h.store.db,
      ledger: h.app.ledger,
      clock: h.clock,
      index: h.app.market.index,
      referral: h.app.referral.service.fees,
    });
    const loading = engine.load();
    engine.opened(stored!);
    engine.opened(later);
    await loading;
    expect(engine.openOf(user.id, null).map(({ orderid }) => orderid)).toEqual([
      later.orderid,
      stored!.orderid,
    ]);
  });

  it('pays in at start a stake still held from before stakes were paid at acceptance (migration 012)', async () => {
    const user = await fundedUser(h);
    const tick = h.app.market.index.current('BTC')!;
    const now = h.clock.now();
    // An order as accepted before: its stake a hold on the user's spot account, the order listed as holding one.
    const legacy = await h.app.ledger.transaction(async (trx) => {
      const row = await insertOrder(trx, {
        user_id: user.id,
        pair_id: h.app.cycle.service.info(BTC).autoid,
        ...BTC,
        paycoin: 'USDT',
        type: 'buy',
        number: '100',
        seconds: 30,
        profit_gas: '0.8',
        loss_gas: '1',
        gas: '0.02',
        open_price: tick.price.toString(),
        open_ts: tick.ts,
        open_source: tick.source,
        wdate: now,
        expires_at: now + 30_000,
      });
      await h.app.ledger.execute(
        [
          {
            id: stakeTransferId(row.orderid),
            type: 'pending',
            debit: spotOf(user),
            credit: HOUSE,
            asset: 'USDT',
            amount: d('100'),
            code: 'cycle_stake',
          },
        ],
        trx,
      );
      await trx.insertInto('cycle_held_stakes').values({ orderid: row.orderid }).execute();
      return row;
    });
    expect(await usdtOf(h, spotOf(user))).toEqual({ available: '900', locked: '100' });

    await restartApp(h);
    expect(await usdtOf(h, spotOf(user))).toEqual({ available: '900', locked: '0' });
    expect(await usdtOf(h, STAKES)).toEqual({ available: '100', locked: '0' });
    expect(await h.store.db.selectFrom('cycle_held_stakes').selectAll().execute()).toEqual([]);
    expect((await positionById(h, user, String(legacy.orderid))).state).toBe('open');

    const [settled] = await runFor(30);
    expect(settled?.order.orderid).toBe(legacy.orderid);
    const paidBack = d('100').add(d(settled!.settlement.last_profit));
    expect(await usdtOf(h, spotOf(user))).toEqual({
      available: d('900').add(paidBack).toString(),
      locked: '0',
    });
    expect(await usdtOf(h, STAKES)).toEqual({ available: '0', locked: '0' });
  });
});
