import type { IeoOrder } from '@halyard/protocol';
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
  startWalletHarness,
  type TestUser,
} from '../wallet/test-support.ts';
import { createProject, saleTerms, subscribe } from './test-support.ts';

const MINUTE = 60_000;

/**
 * On the core only: there a subscription is answered once it is durable,
 * before the projector writes it to SQL, and the user's next request waits
 * in the session guard until SQL holds it (issue 19: "after a 200, the same
 * user's next GET sees the effect"), also on the pay coins' route, which
 * serves visitors too and shows a signed-in user's balances. On SQL the
 * reply follows the commit, and there is no projector to hold back.
 */
describe('IEO reads on the core see the reader’s own subscriptions', () => {
  let h: Harness;
  let core: MoneyCore;
  let user: TestUser;

  beforeEach(async () => {
    h = await startWalletHarness(null, {}, { moneyCore: true });
    core = h.app.moneyCore!;
    user = await plainUser(h);
    await fund(h, user.id, { USDT: '100' });
  });

  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
    await h.close();
  });

  /** An open sale of `mode`, 1 USDT a token. */
  async function openSale(mode: 'fcfs' | 'commit'): Promise<number> {
    const terms = saleTerms(h, { mode, tokenDecimals: 0, payCoins: [{ paycoin: 'USDT', price: '1' }] });
    const project = await createProject(h, terms);
    h.clock.advance(MINUTE);
    await h.app.ieo.service.tick();
    return project.id;
  }

  /** The user's orders as SQL holds them. */
  const ordersInSql = () =>
    h.store.db.selectFrom('ieo_orders').select(['id', 'amount']).where('user_id', '=', user.id).execute();

  /** Subscribes, and checks that SQL's orders of the user did not change: the reply did not wait for the projection. */
  async function subscribedAhead(projectId: number, number: string): Promise<IeoOrder> {
    const before = await ordersInSql();
    const answer = await expectOk(subscribe(h, user, projectId, number));
    expect(await ordersInSql()).toEqual(before);
    return answer.data as IeoOrder;
  }

  const payCoins = () => get(h, '/ieo/findPayCoinByCoin?coin=TEST', user.token);

  it('answers a purchase before SQL holds it; the same user’s orders right after wait until it does', async () => {
    const projectId = await openSale('fcfs');
    let answered: IeoOrder | undefined;
    const [orders] = await readsRightAfterWrites(
      core,
      async () => {
        answered = await subscribedAhead(projectId, '10');
        expect(answered).toMatchObject({ tokens: '10', spent: '10', state: 'locked', locked: '10' });
      },
      // The reads start while SQL lags.
      () => Promise.all([get(h, '/ieo/getIeoOrder', user.token)]),
    );
    expect(orders.code, orders.msg).toBe(200);
    // The reply is the order as SQL then holds it.
    expect(orders.data).toEqual([answered]);
  });

  it('answers a second commitment before SQL holds it, with the order’s new total', async () => {
    const projectId = await openSale('commit');
    await expectOk(subscribe(h, user, projectId, '30'));
    let answered: IeoOrder | undefined;
    const [orders] = await readsRightAfterWrites(
      core,
      async () => {
        answered = await subscribedAhead(projectId, '20');
        expect(answered).toMatchObject({ amount: '50', state: 'committed', tranches: [] });
      },
      () => Promise.all([get(h, '/ieo/getIeoOrder', user.token)]),
    );
    expect(orders.code, orders.msg).toBe(200);
    expect(orders.data).toEqual([answered]);
  });

  it('the pay coins, which visitors read too, show a signed-in user’s balance after their purchase', async () => {
    const projectId = await openSale('fcfs');
    const [coins] = await readsRightAfterWrites(
      core,
      async () => {
        await subscribedAhead(projectId, '10');
      },
      () => Promise.all([payCoins()]),
    );
    expect(coins.code, coins.msg).toBe(200);
    expect(coins.data).toMatchObject([{ paycoin: 'USDT', balance: '90' }]);
    // A visitor is served too.
    expect((await expectOk(get(h, '/ieo/findPayCoinByCoin?coin=TEST'))).data).toMatchObject([
      { paycoin: 'USDT', balance: '0' },
    ]);
  });
});
