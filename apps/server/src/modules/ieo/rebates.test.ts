import type {
  IeoOrder,
  IeoProjectInput,
  MyTeam,
  ReferralCommissionPage,
  ReferralSummary,
} from '@halyard/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ieoProjectWallet, systemAccount } from '../../ledger/index.ts';
import { MONEY_PATHS, registerByEmail, restartApp } from '../identity/test-support.ts';
import {
  balanceOf,
  expectHealthyLedger,
  expectOk,
  fund,
  get,
  type Harness,
  plainUser,
  spot,
  startWalletHarness,
  type TestUser,
} from '../wallet/test-support.ts';
import { ADMIN_HEADERS, createProject, saleTerms, subscribe } from './test-support.ts';

/**
 * IEO promotion rebates paid through the ledger (issue 17): from the
 * project's proceeds to the inviter's spot wallet, once, when the sale can no
 * longer be cancelled (an FCFS sale at its end, a commit-mode sale at
 * distribution), shown in the inviter's commission records as product `ieo`.
 *
 * On SQL and on the sequenced core (issue 19's cut-over), where the state
 * learns the subscriber's inviter from the referral profile the edge sends
 * before the subscription (ReferralOnCore.beforeFee). The state's rebates are
 * proved equal to the module's by state-equivalence.test.ts.
 */

const MINUTE = 60_000;

let h: Harness;

let registered = 0;

/** A sale that pays a 10 % rebate on every order of an invited user. */
function terms(overrides: Partial<IeoProjectInput> = {}): IeoProjectInput {
  return saleTerms(h, {
    coin: 'RBT',
    name: 'Rebate token',
    rebate: '0.1',
    intro: { en: '<p>Rebates</p>' },
    ...overrides,
  });
}

/** An inviter and a friend it invited, the friend funded with USDT. */
async function invitedPair(): Promise<{ inviter: TestUser; friend: TestUser }> {
  const inviter = await plainUser(h);
  const invitationCode = (await h.app.identity.service.getUser(inviter.id)).invitationCode;
  const invited = await registerByEmail(h, `ieo-rebate-${++registered}@example.com`, { invitationCode });
  const friend = { id: invited.member.id, token: invited.token };
  await fund(h, friend.id, { USDT: '1000' });
  return { inviter, friend };
}

async function buy(user: TestUser, projectId: number, number: string): Promise<IeoOrder> {
  return (await expectOk(subscribe(h, user, projectId, number))).data as IeoOrder;
}

async function rebatesOf(projectId: number) {
  const answer = await expectOk(get(h, `/admin/ieo/projects/${projectId}/rebates`, undefined, ADMIN_HEADERS));
  return answer.data as {
    orderId: number;
    inviterId: number;
    state: string;
    amount: string;
    paidBy: string | null;
  }[];
}

const usdt = async (user: TestUser) => (await balanceOf(h, spot(user), 'USDT')).available;
const proceeds = async (projectId: number) =>
  (await balanceOf(h, systemAccount(ieoProjectWallet(projectId)), 'USDT')).available;

describe.each(MONEY_PATHS)('IEO rebates on $on', ({ moneyCore }) => {
  beforeAll(async () => {
    h = await startWalletHarness(null, {}, { moneyCore });
  });
  afterAll(() => h.close());
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
  });

  describe('FCFS sale', () => {
    it('owes the rebate while the sale may be cancelled, pays it once from the proceeds when it ends, across a restart, and shows it in the commission records', async () => {
      const project = await createProject(h, terms());
      h.clock.advance(MINUTE);
      const { inviter, friend } = await invitedPair();
      const loner = await plainUser(h);
      await fund(h, loner.id, { USDT: '100' });
      // 10 USDT paid for 20 tokens at 0.5, 10 % of it owed to the inviter; the loner has no inviter and owes nothing.
      const order = await buy(friend, project.id, '10');
      await buy(loner, project.id, '10');
      await h.app.ieo.service.tick();
      expect(await rebatesOf(project.id)).toEqual([
        {
          orderId: order.id,
          inviterId: inviter.id,
          coin: 'USDT',
          amount: '1',
          state: 'owed',
          paidBy: null,
          paidAt: null,
        },
      ]);
      expect(await usdt(inviter)).toBe('0');

      // The window closes and the process stops before the rebates are paid: the next one pays them.
      h.clock.set(project.endTime);
      await h.app.ieo.service.advance(project.id);
      await restartApp(h);
      await h.app.ieo.service.tick();
      await h.app.ieo.service.tick();
      const paidBy = `ieo:order:${order.id}:rebate`;
      expect(await rebatesOf(project.id)).toEqual([
        {
          orderId: order.id,
          inviterId: inviter.id,
          coin: 'USDT',
          amount: '1',
          state: 'paid',
          paidBy,
          paidAt: project.endTime,
        },
      ]);
      expect(await usdt(inviter)).toBe('1');
      expect(await proceeds(project.id)).toBe('19');
      expect((await h.app.ledger.transfer(paidBy))?.amount.toString()).toBe('1');

      // The inviter's records: a level-1 row of product ieo whose base is what the friend paid.
      const page = (await expectOk(get(h, '/referral/commissions?product=ieo', inviter.token)))
        .data as ReferralCommissionPage;
      expect(page.count).toBe(1);
      expect(page.list[0]).toMatchObject({
        level: 1,
        product: 'ieo',
        tradeId: `ieo:order:${order.id}`,
        fee: '10',
        feeCoin: 'USDT',
        tier: null,
        rate: '0.1',
        amount: '1',
        kickback: '0',
        excluded: null,
      });
      // Paid at once from the proceeds, not by the payout sweep: credited when it was written.
      expect(page.list[0]!.paidAt).toBe(page.list[0]!.time);
      const csv = await h.app.http.inject({
        method: 'GET',
        url: '/referral/commissions.csv?product=ieo',
        headers: { token: inviter.token },
      });
      expect(csv.body.split('\n')[1]).toMatch(
        new RegExp(`,1,ieo,ieo:order:${order.id},10,USDT,,0.1,1,0,,\\d{4}-[^,]+Z$`),
      );
      const summary = (await expectOk(get(h, '/referral/summary', inviter.token))).data as ReferralSummary;
      expect(summary.byCoin).toEqual([{ coin: 'USDT', total: '1', last24h: '1' }]);
      const team = (await expectOk(get(h, '/user/getMyTeam?page=1&limit=20', inviter.token))).data as MyTeam;
      expect(team.list[0]?.profit).toEqual({ USDT: '1' });
    });

    it('pays nothing for a rebate of 0, and cancels what a cancelled sale owed', async () => {
      const free = await createProject(h, terms({ rebate: '0' }));
      const cancelled = await createProject(h, terms());
      h.clock.advance(MINUTE);
      const { inviter, friend } = await invitedPair();
      await buy(friend, free.id, '10');
      await buy(friend, cancelled.id, '10');
      await h.app.ieo.service.cancelProject(cancelled.id);
      h.clock.set(free.endTime);
      await h.app.ieo.service.tick();
      expect(await rebatesOf(free.id)).toEqual([]);
      expect(await rebatesOf(cancelled.id)).toMatchObject([{ state: 'cancelled', paidBy: null }]);
      expect(await usdt(inviter)).toBe('0');
      // 10 USDT went to the sale without a rebate; the cancelled sale gave back all it was paid.
      expect(await usdt(friend)).toBe('990');
    });
  });

  describe('commit-mode sale', () => {
    it('pays the rebate on what was spent in the transaction that distributes the tokens', async () => {
      const project = await createProject(
        h,
        terms({
          mode: 'commit',
          total: '100',
          tokenDecimals: 0,
          payCoins: [{ paycoin: 'USDT', price: '1' }],
        }),
      );
      h.clock.advance(MINUTE);
      const { inviter, friend } = await invitedPair();
      // 300 committed for 100 tokens: 100 spent, 200 refunded; the rebate is 10 % of the 100 spent.
      const order = await buy(friend, project.id, '300');
      h.clock.set(project.endTime);
      await h.app.ieo.service.tick();
      expect(await rebatesOf(project.id)).toMatchObject([
        { orderId: order.id, amount: '10', state: 'paid', paidBy: `ieo:order:${order.id}:rebate` },
      ]);
      expect(await usdt(inviter)).toBe('10');
      expect(await usdt(friend)).toBe('900');
      expect(await proceeds(project.id)).toBe('90');
      await h.app.ieo.service.tick();
      expect(await usdt(inviter)).toBe('10');
      const page = (await expectOk(get(h, '/referral/commissions?product=ieo', inviter.token)))
        .data as ReferralCommissionPage;
      expect(page.list.map((row) => [row.fee, row.rate, row.amount])).toEqual([['100', '0.1', '10']]);
    });
  });
});
