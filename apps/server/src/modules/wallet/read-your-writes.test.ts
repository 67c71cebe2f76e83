import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MoneyCore } from '../../money-core/start.ts';
import { readsRightAfterWrites } from '../../money-core/test-support.ts';
import {
  CHAIN,
  expectHealthyLedger,
  expectOk,
  FUND_PASSWORD,
  fund,
  get,
  type Harness,
  plainUser,
  post,
  startWalletHarness,
  type TestUser,
  verifiedUser,
} from './test-support.ts';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/**
 * On the core only: there a move between a user's wallets, a demo faucet
 * grant and a withdrawal request are answered once durable, before the
 * projector writes them to SQL, and the user's next request waits in the
 * session guard until SQL holds them (issue 19: "after a 200, the same
 * user's next GET sees the effect"). On SQL the reply follows the commit,
 * and there is no projector to hold back.
 */
describe('wallet reads on the core see the reader’s own moves, grants and withdrawals', () => {
  let h: Harness;
  let core: MoneyCore;

  beforeEach(async () => {
    h = await startWalletHarness(null, {}, { moneyCore: true });
    core = h.app.moneyCore!;
  });

  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
    await h.close();
  });

  /** The ledger's transfers in SQL: no new one while the projector is held. */
  const transfersInSql = async () =>
    (await h.store.db.selectFrom('ledger_transfers').select('id').execute()).length;

  const balance = (user: TestUser, route: string) =>
    get(h, `/account/${route}?coin=USDT`, user.token).then((answer) => {
      expect(answer.code, answer.msg).toBe(200);
      return answer.data;
    });

  it('answers a move before SQL holds it; the same user’s balances right after wait until it does', async () => {
    const user = await plainUser(h);
    await fund(h, user.id, { USDT: '100' });
    const before = await transfersInSql();
    const [spot, futures] = await readsRightAfterWrites(
      core,
      async () => {
        await expectOk(
          post(
            h,
            '/account/contractTransfer',
            { coin: 'USDT', number: '30', from: 'spot', to: 'futures' },
            user.token,
          ),
        );
        // The reply did not wait for the projection: SQL has no row of the move yet.
        expect(await transfersInSql()).toBe(before);
      },
      // The reads start while SQL lags.
      () => Promise.all([balance(user, 'balance'), balance(user, 'contractBalance')]),
    );
    expect(spot).toMatchObject({ usable: '70' });
    expect(futures).toMatchObject({ usable: '30' });
  });

  it('answers a faucet grant before SQL holds it; the same user’s balance right after waits until it does', async () => {
    const user = await plainUser(h);
    const before = await transfersInSql();
    const [spot] = await readsRightAfterWrites(
      core,
      async () => {
        await expectOk(post(h, '/account/demoFaucet', {}, user.token));
        expect(await transfersInSql()).toBe(before);
      },
      () => Promise.all([balance(user, 'balance')]),
    );
    expect(spot).toMatchObject({ usable: '10000' });
  });

  it('answers a withdrawal request before SQL holds it; the same user’s records right after wait until it does', async () => {
    const user = await verifiedUser(h);
    await fund(h, user.id, { USDT: '1000' });
    await expectOk(
      post(
        h,
        '/account/addAddress',
        { coin: 'USDT', chain: CHAIN, address: ADDRESS, remark: 'cold' },
        user.token,
      ),
    );
    const [records, spot] = await readsRightAfterWrites(
      core,
      async () => {
        const answer = await expectOk(
          post(
            h,
            '/account/sendCoinOrder',
            { coin: 'USDT', chain: CHAIN, address: ADDRESS, number: '100', payPassword: FUND_PASSWORD },
            user.token,
          ),
        );
        expect(answer.data).toMatchObject({ amount: '100', state: 'waiting', txHash: null });
        const rows = await h.store.db
          .selectFrom('wallet_withdrawals')
          .select('id')
          .where('user_id', '=', user.id)
          .execute();
        expect(rows).toEqual([]);
      },
      () =>
        Promise.all([
          get(h, '/account/withdrawRecord', user.token).then((answer) => answer.data),
          balance(user, 'balance'),
        ]),
    );
    expect(records).toMatchObject([{ amount: '100', address: ADDRESS, state: 'waiting' }]);
    // The amount and its fee held from the 1,000, in SQL's balances.
    expect(spot).toMatchObject({ usable: '899', disable: '101' });
  });
});
