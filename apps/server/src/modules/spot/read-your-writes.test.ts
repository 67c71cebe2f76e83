import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MoneyCore } from '../../money-core/start.ts';
import { readsRightAfterWrites } from '../../money-core/test-support.ts';
import {
  expectAuditClean,
  fundedUser,
  get,
  type Harness,
  limit,
  placed,
  startHarness,
} from './test-support.ts';

/**
 * On the core only: there an order is answered once it is durable, before
 * the projector writes it to SQL, and the user's next request waits in the
 * session guard until SQL holds it (issue 19: "after a 200, the same user's
 * next GET sees the effect"). On SQL the reply follows the commit, and there
 * is no projector to hold back.
 */
describe('spot reads on the core see the reader’s own orders', () => {
  let h: Harness;
  let core: MoneyCore;

  beforeEach(async () => {
    h = await startHarness({ moneyCore: true });
    core = h.app.moneyCore!;
  });

  afterEach(async () => {
    await h.app.spot.service.idle();
    await expectAuditClean(h);
    await h.close();
  });

  it('answers orders before SQL holds them; the same user’s reads right after wait until it does', async () => {
    const user = await fundedUser(h, { USDT: '1000' });
    const [open, account] = await readsRightAfterWrites(
      core,
      async () => {
        const order = await placed(limit('buy', user, '100', '2', h));
        expect(order).toMatchObject({ state: 'unfilled', unfilled: '2' });
        // An order reads only the state: the user's next one does not wait for SQL either.
        expect(await placed(limit('buy', user, '99', '1', h))).toMatchObject({ state: 'unfilled' });
        // The replies did not wait for the projection: SQL has no row of the orders yet.
        const rows = await h.store.db
          .selectFrom('spot_orders')
          .select('autoid')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toEqual([]);
      },
      // The reads start while SQL lags.
      () =>
        Promise.all([
          get(h, '/trad/entrustOrder', user.token),
          get(h, '/trad/tradAccount?tradcoin=BTC&maincoin=USDT', user.token),
        ]),
    );
    expect(open.code, open.msg).toBe(200);
    expect(open.data).toMatchObject({
      count: 2,
      list: [
        { type: 'buy', price: '99', unfilled: '1' },
        { type: 'buy', price: '100', unfilled: '2' },
      ],
    });
    // 2 × 100 + 1 × 99 held from the 1,000, in SQL's balances.
    expect(account.code, account.msg).toBe(200);
    expect(account.data).toMatchObject({ balance: { mainusable: '701' } });
  });
});
