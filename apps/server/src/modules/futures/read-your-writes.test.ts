import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MoneyCore } from '../../money-core/start.ts';
import { readsRightAfterWrites } from '../../money-core/test-support.ts';
import {
  expectAuditClean,
  expectOk,
  futuresUser,
  get,
  type Harness,
  mark,
  order,
  placed,
  post,
  startHarness,
} from './test-support.ts';

/**
 * On the core only: there a user's futures command is answered once it is
 * durable, before the projector writes it to SQL, and the user's next
 * request waits in the session guard until SQL holds it (issue 19: "after a
 * 200, the same user's next GET sees the effect"). On SQL the reply follows
 * the commit, and there is no projector to hold back.
 */
describe('futures reads on the core see the reader’s own orders and positions', () => {
  let h: Harness;
  let core: MoneyCore;

  beforeEach(async () => {
    h = await startHarness({ moneyCore: true });
    core = h.app.moneyCore!;
    await mark(h, '100000');
  });

  afterEach(async () => {
    await expectAuditClean(h);
    await h.close();
  });

  it('answers orders and a close before SQL holds them; the same user’s reads right after wait until it does', async () => {
    const maker = await futuresUser(h);
    const user = await futuresUser(h);
    await placed(order(h, maker, 'sell', 'limit', '10', { price: '100000' }));
    await placed(order(h, maker, 'buy', 'limit', '2', { price: '99500' }));
    const [open, account, positions] = await readsRightAfterWrites(
      core,
      async () => {
        // Orders and closes read only the state: none of them waits for SQL to hold the one before.
        expect(await placed(order(h, user, 'buy', 'limit', '10', { price: '99000' }))).toMatchObject({
          state: 'unfilled',
        });
        await placed(order(h, user, 'buy', 'market', '4'));
        const position = positionsFromState(user.id)[0]!;
        await expectOk(post(h, '/contract/closePosition', { autoid: position, number: '1' }, user.token));
        // The replies did not wait for the projection: SQL has no row of the user's yet.
        const rows = await h.store.db
          .selectFrom('futures_orders')
          .select('autoid')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toEqual([]);
      },
      // The reads start while SQL lags.
      () =>
        Promise.all([
          get(h, '/contract/tradEntrust?page=1&limit=10', user.token),
          get(h, '/contract/contractAccount?tradcoin=BTC&maincoin=USDT', user.token),
          get(h, '/contract/position', user.token),
        ]),
    );
    expect(open.code, open.msg).toBe(200);
    expect(open.data).toMatchObject({ count: 1, list: [{ entrust_price: '99000', unfilled: '10' }] });
    expect(account.code, account.msg).toBe(200);
    // SQL's balance, 10000 less: the resting bid's margin and fee (99 + 0.495), the 3 open lots' margin (30), the
    // taker fee of the 4 bought (0.2), the close's loss and fee on 1 lot sold at 99500 (0.5 + 0.04975).
    expect(account.data).toMatchObject({ balance: { usable: '9869.75525' } });
    expect(positions.code, positions.msg).toBe(200);
    expect(positions.data).toMatchObject([{ number: '3', realised: '-0.5', close_price: '99500' }]);
  });

  it('answers a cancel and TP/SL orders from the state, none waiting for SQL; the reads right after wait until it holds them', async () => {
    const maker = await futuresUser(h);
    const user = await futuresUser(h);
    await placed(order(h, maker, 'sell', 'limit', '10', { price: '100000' }));
    await placed(order(h, user, 'buy', 'market', '2'));
    const position = positionsFromState(user.id)[0]!;
    let cancelled = 0;
    const [finished, account] = await readsRightAfterWrites(
      core,
      async () => {
        // A cancel and the TP/SL routes read only the state: each would wait for the held projection otherwise.
        const resting = await placed(order(h, user, 'buy', 'limit', '1', { price: '90000' }));
        cancelled = resting.autoid;
        await expectOk(post(h, '/contract/closeEntrust', { id: cancelled }, user.token));
        const set = await expectOk(
          post(h, '/contract/profitLoss', { autoid: position, lossPrice: '99000' }, user.token),
        );
        const { id } = set.data as { id: number };
        await expectOk(post(h, '/contract/editProfitLoss', { id, lossPrice: '98000' }, user.token));
        await expectOk(post(h, '/contract/closeProfitLoss', { id }, user.token));
        const rows = await h.store.db
          .selectFrom('futures_orders')
          .select('autoid')
          .where('autoid', '=', cancelled)
          .execute();
        expect(rows).toEqual([]);
      },
      // The reads start while SQL lags: the finished entrusts are SQL's.
      () =>
        Promise.all([
          get(h, '/contract/tradOrder?page=1&limit=10', user.token),
          get(h, '/contract/contractAccount?tradcoin=BTC&maincoin=USDT', user.token),
        ]),
    );
    expect(finished.code, finished.msg).toBe(200);
    expect(finished.data).toMatchObject({
      count: 2,
      list: [{ autoid: cancelled, unfilled: '1' }, { unfilled: '0' }],
    });
    // SQL's balance, 10000 less the 2 lots' margin (20) and taker fee (0.1): the cancelled order holds nothing.
    expect(account.data).toMatchObject({ balance: { usable: '9979.9', locked: '0' } });
  });

  /** The user's open position ids in the state (what the user's client holds from the order's push). */
  function positionsFromState(userId: number): number[] {
    return [...h.app.futures.service.engine.positions.values()]
      .filter((row) => row.owner === String(userId))
      .map((row) => row.autoid);
  }
});
