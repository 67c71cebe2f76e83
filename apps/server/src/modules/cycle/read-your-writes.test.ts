import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MoneyCore } from '../../money-core/start.ts';
import { readsRightAfterWrites } from '../../money-core/test-support.ts';
import {
  expectAuditClean,
  fundedUser,
  get,
  type Harness,
  order,
  placed,
  startHarness,
} from './test-support.ts';

/**
 * On the core only: there a contract is answered once it is durable, before
 * the projector writes it to SQL, and the user's next request waits in the
 * session guard until SQL holds it (issue 19: "after a 200, the same user's
 * next GET sees the effect"). On SQL the reply follows the commit, and there
 * is no projector to hold back.
 */
describe('cycle reads on the core see the reader’s own contracts', () => {
  let h: Harness;
  let core: MoneyCore;

  beforeEach(async () => {
    h = await startHarness({ moneyCore: true });
    core = h.app.moneyCore!;
  });

  afterEach(async () => {
    await h.app.cycle.service.settlement.idle();
    await expectAuditClean(h);
    await h.close();
  });

  it('answers a contract before SQL holds it; the same user’s reads right after wait until it does', async () => {
    const user = await fundedUser(h);
    let orderid = '';
    const [position, balance] = await readsRightAfterWrites(
      core,
      async () => {
        const opened = await placed(order(h, user, 'buy'));
        expect(opened).toMatchObject({ type: 'buy', number: '100', state: 'open' });
        orderid = opened.orderid;
        // The reply did not wait for the projection: SQL has no row of the contract yet.
        const rows = await h.store.db
          .selectFrom('cycle_orders')
          .select('orderid')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toEqual([]);
      },
      // The reads start while SQL lags: the position by id is read from SQL.
      () =>
        Promise.all([
          get(h, `/cycle/positionById?orderId=${orderid}`, user.token),
          get(h, '/account/balance?coin=USDT', user.token),
        ]),
    );
    expect(position.code, position.msg).toBe(200);
    expect(position.data).toMatchObject([{ orderid, type: 'buy', number: '100', state: 'open' }]);
    // The stake paid from the 1,000, in SQL's balances.
    expect(balance.code, balance.msg).toBe(200);
    expect(balance.data).toMatchObject({ usable: '900' });
  });
});
