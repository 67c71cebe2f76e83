import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MoneyCore } from '../../money-core/start.ts';
import { readsRightAfterWrites } from '../../money-core/test-support.ts';
import {
  expectHealthyLedger,
  expectOk,
  fund,
  get,
  type Harness,
  plainUser,
  post,
  startWalletHarness,
} from '../wallet/test-support.ts';
import type { FlashPair } from './service.ts';

/**
 * On the core only: there an exchange is answered once it is durable, before
 * the projector writes it to SQL, and the user's next request waits in the
 * session guard until SQL holds it (issue 19: "after a 200, the same user's
 * next GET sees the effect"). On SQL the reply follows the commit, and there
 * is no projector to hold back.
 */
describe('flash convert reads on the core see the reader’s own exchanges', () => {
  let h: Harness;
  let core: MoneyCore;

  beforeEach(async () => {
    h = await startWalletHarness(null, {}, { moneyCore: true });
    core = h.app.moneyCore!;
    await h.app.market.simulator.tick();
  });

  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
    await h.close();
  });

  it('answers an exchange before SQL holds it; the same user’s records and balance right after wait until it does', async () => {
    const user = await plainUser(h);
    await fund(h, user.id, { USDT: '1000' });
    const pairs = (await expectOk(get(h, '/flash/flashCoin', user.token))).data as FlashPair[];
    const quote = pairs.find((pair) => pair.from === 'USDT' && pair.to === 'BTC')!;
    const [records, balance] = await readsRightAfterWrites(
      core,
      async () => {
        const answer = await expectOk(
          post(h, '/flash/addFlash', { quoteId: quote.quoteId, number: '250' }, user.token),
        );
        expect(answer.data).toMatchObject({ from: 'USDT', to: 'BTC', consumed: '250', rate: quote.rate });
        // The reply did not wait for the projection: SQL has no row of the exchange yet.
        const rows = await h.store.db
          .selectFrom('convert_orders')
          .select('id')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toEqual([]);
      },
      // The reads start while SQL lags.
      () =>
        Promise.all([
          get(h, '/flash/flashOrder', user.token),
          get(h, '/account/balance?coin=USDT', user.token),
        ]),
    );
    expect(records.code, records.msg).toBe(200);
    expect(records.data).toMatchObject([{ from: 'USDT', to: 'BTC', consumed: '250', rate: quote.rate }]);
    expect(balance.code, balance.msg).toBe(200);
    expect(balance.data).toMatchObject({ usable: '750' });
  });
});
