import { Dec } from '@halyard/money';
import type { IeoAllocationProof, IeoOrder, IeoProject, IeoPublicCommit } from '@halyard/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ieoProjectWallet, systemAccount, userAccount } from '../../ledger/index.ts';
import { sqlCaughtUp } from '../../money-core/test-support.ts';
import { MONEY_PATHS, registerByEmail, requestCode, restartApp } from '../identity/test-support.ts';
import {
  balanceOf,
  expectHealthyLedger,
  expectOk,
  fund,
  get,
  type Harness,
  plainUser,
  post,
  spot,
  startWalletHarness,
  type TestUser,
  verifyIdentity,
} from '../wallet/test-support.ts';
import { IeoService } from './service.ts';
import { ADMIN_HEADERS, createProject, saleTerms, subscribe } from './test-support.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Every test runs twice: on the SQL path the server runs today, and on the
 * sequenced core (issue 19's cut-over: the sales, subscriptions and the IEO
 * clock submit the state's commands; the demo sales are seeded on it too).
 * Over 500 lines as one file: the two paths share one harness and its
 * helpers, and the suite reads as the module's spec, section by section.
 */
describe.each(MONEY_PATHS)('IEO on $on', ({ moneyCore }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startWalletHarness(null, {}, { moneyCore });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
  });

  /** As a visitor sees it, once SQL holds every subscription so far (on the core one is answered before). */
  async function listed(id: number, lang = 'en'): Promise<IeoProject> {
    await sqlCaughtUp(h.app.moneyCore);
    const list = (await expectOk(get(h, '/ieo/getIeoList', undefined, { lang }))).data as IeoProject[];
    const found = list.find((project) => project.id === id);
    if (!found) throw new Error(`project ${id} not listed`);
    return found;
  }

  async function funded(amounts: Record<string, string> = { USDT: '10000' }): Promise<TestUser> {
    const user = await plainUser(h);
    await fund(h, user.id, amounts);
    return user;
  }

  async function ordersOf(user: TestUser): Promise<IeoOrder[]> {
    return (await expectOk(get(h, '/ieo/getIeoOrder', user.token))).data as IeoOrder[];
  }

  describe('demo', () => {
    it('seeds an open FCFS sale, an open commit-mode sale and an ended sale with a running schedule', async () => {
      const list = (await expectOk(get(h, '/ieo/getIeoList'))).data as IeoProject[];
      const demo = list.filter((project) => ['NOVA', 'ORBT', 'LUMA'].includes(project.coin));
      expect(demo.map((project) => [project.coin, project.mode, project.state]).sort()).toEqual([
        ['LUMA', 'fcfs', 'ended'],
        ['NOVA', 'fcfs', 'open'],
        ['ORBT', 'commit', 'open'],
      ]);
      // The ended sale vests linearly, the commit-mode one in tranches: the calendar shows both kinds.
      expect(demo.find((project) => project.coin === 'LUMA')?.vesting).toEqual({
        kind: 'linear',
        cliffDays: 7,
        durationDays: 180,
      });
      const pay = (await expectOk(get(h, '/ieo/findPayCoinByCoin?coin=NOVA'))).data;
      expect(pay).toMatchObject([
        { paycoin: 'USDT', price: '0.05', balance: '0' },
        { paycoin: 'ETH', price: '0.00002', balance: '0' },
      ]);
    });
  });

  describe('FCFS sale', () => {
    it('opens and ends on the server clock, delivers locked tokens from the project treasury and refuses bad input with the spec messages', async () => {
      const project = await createProject(h, saleTerms(h, { gift: '0.1', rebate: '0.1' }));
      expect(project).toMatchObject({ state: 'not_open', total: '1000', remaining: '1000', lockDays: 1 });
      expect((await listed(project.id)).intro).toBe('<p>Hi</p>');
      expect((await listed(project.id, 'cn')).intro).toBe('<p>你好</p>');
      expect(await balanceOf(h, systemAccount(ieoProjectWallet(project.id)), 'TEST')).toMatchObject({
        available: '1100',
      });

      const user = await funded({ USDT: '120' });
      expect(await subscribe(h, user, project.id, '10')).toMatchObject({
        code: 409,
        msg: 'Subscription has not opened yet',
      });
      h.clock.advance(MINUTE);
      await h.app.ieo.service.tick();
      expect((await listed(project.id)).state).toBe('open');

      expect(await subscribe(h, user, project.id, '0.4')).toMatchObject({
        msg: 'Subscribe at least 1 tokens',
      });
      expect(await subscribe(h, user, project.id, '400')).toMatchObject({
        msg: 'At most 500 tokens per user; you can still buy 500',
      });
      expect(await subscribe(h, user, project.id, '200')).toMatchObject({ msg: 'Insufficient balance' });
      expect(await subscribe(h, user, project.id, 'abc')).toMatchObject({ code: 400 });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '120', locked: '0' });

      const answer = await expectOk(subscribe(h, user, project.id, '100.3'));
      expect(answer.msg).toBe('Subscription successful');
      expect(answer.data).toMatchObject({ tokens: '200.6', gift: '20.06', amount: '100.3', state: 'locked' });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '19.7', locked: '0' });
      expect(await balanceOf(h, userAccount(user.id, 'ieo'), 'TEST')).toEqual({
        available: '0',
        locked: '220.66',
      });
      expect((await listed(project.id)).remaining).toBe('799.4');

      // Someone else takes the rest but one unit; the spec's message for the last units.
      const whale = await funded({ USDT: '10000' });
      await expectOk(subscribe(h, whale, project.id, '249.7'));
      await expectOk(subscribe(h, await funded(), project.id, '149.5'));
      expect(await subscribe(h, await funded(), project.id, '1')).toMatchObject({
        msg: 'Remaining total insufficient',
      });

      h.clock.advance(10 * MINUTE);
      await h.app.ieo.service.tick();
      expect((await listed(project.id)).state).toBe('ended');
      expect(await subscribe(h, user, project.id, '1')).toMatchObject({ msg: 'Subscription has ended' });
      // A promotion rebate is recorded only for invited users (none here).
      expect(
        (await expectOk(get(h, `/admin/ieo/projects/${project.id}/rebates`, undefined, ADMIN_HEADERS))).data,
      ).toEqual([]);
    });

    it('never oversells under a burst of 500 parallel subscriptions for the last units', async () => {
      const project = await createProject(
        h,
        saleTerms(h, { total: '300', tokenDecimals: 0, payCoins: [{ paycoin: 'USDT', price: '1' }] }),
      );
      h.clock.advance(MINUTE);
      await h.app.ieo.service.tick();
      const users = await Promise.all(Array.from({ length: 25 }, () => funded({ USDT: '100' })));
      const answers = await Promise.all(
        Array.from({ length: 500 }, (_, index) =>
          subscribe(h, users[index % users.length] as TestUser, project.id, '1'),
        ),
      );
      const accepted = answers.filter((answer) => answer.code === 200).length;
      const refused = answers.filter((answer) => answer.msg === 'Remaining total insufficient').length;
      console.log(
        `IEO burst: 500 parallel subscriptions for 300 units: ${accepted} accepted, ${refused} refused`,
      );
      expect(accepted).toBe(300);
      expect(refused).toBe(200);
      expect((await listed(project.id)).remaining).toBe('0');
      expect(await balanceOf(h, systemAccount(ieoProjectWallet(project.id)), 'TEST')).toMatchObject({
        available: '0',
      });
      expect(await balanceOf(h, systemAccount(ieoProjectWallet(project.id)), 'USDT')).toMatchObject({
        available: '300',
      });
    });

    it('keeps a project treasury from going below zero: the ledger refuses to deliver a token it does not hold', async () => {
      const user = await plainUser(h);
      await expect(
        h.app.ledger.execute([
          {
            id: 'ieo-test:overdraw',
            code: 'ieo_deliver',
            debit: systemAccount(ieoProjectWallet(999_999)),
            credit: userAccount(user.id, 'ieo'),
            asset: 'TEST',
            amount: Dec.parse('0.01'),
          },
        ]),
      ).rejects.toMatchObject({ key: 'ledger.insufficientBalance' });
      expect(await balanceOf(h, userAccount(user.id, 'ieo'), 'TEST')).toEqual({
        available: '0',
        locked: '0',
      });
    });

    it('is idempotent by clientOid: a retry answers the first order and pays once', async () => {
      const project = await createProject(h, saleTerms(h));
      h.clock.advance(MINUTE);
      const user = await funded({ USDT: '100' });
      const first = await expectOk(subscribe(h, user, project.id, '10', { clientOid: 'retry-1' }));
      const again = await expectOk(subscribe(h, user, project.id, '10', { clientOid: 'retry-1' }));
      expect((again.data as IeoOrder).id).toBe((first.data as IeoOrder).id);
      // Parallel duplicates (a client retrying on a timeout) run once too.
      const twins = await Promise.all(
        [1, 2, 3].map(() => subscribe(h, user, project.id, '10', { clientOid: 'retry-2' })),
      );
      expect(new Set(twins.map((twin) => (twin.data as IeoOrder).id)).size).toBe(1);
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '80', locked: '0' });
    });
  });

  describe('eligibility and rebates', () => {
    it("refuses an unverified user when the project asks for identity verification, and records the inviter's rebate as owed", async () => {
      const project = await createProject(
        h,
        saleTerms(h, { kycLevel: 'identity', refusedAreaCodes: ['86'], rebate: '0.1' }),
      );
      // The screen states both before anyone tries.
      expect(await listed(project.id)).toMatchObject({ kycLevel: 'identity', refusedAreaCodes: ['86'] });
      h.clock.advance(MINUTE);
      const unverified = await funded({ USDT: '100' });
      expect(await subscribe(h, unverified, project.id, '10')).toMatchObject({
        code: 403,
        msg: 'Complete identity verification to subscribe',
      });
      expect(await balanceOf(h, spot(unverified), 'USDT')).toEqual({ available: '100', locked: '0' });

      const inviter = await plainUser(h);
      const invitationCode = (await h.app.identity.service.getUser(inviter.id)).invitationCode;
      const invited = await registerByEmail(h, 'ieo-invited@example.com', { invitationCode });
      await verifyIdentity(h, invited.member.id);
      await fund(h, invited.member.id, { USDT: '100' });
      const order = await expectOk(
        subscribe(h, { id: invited.member.id, token: invited.token }, project.id, '10'),
      );
      // Owed while the sale may still be cancelled; paid when it ends (rebates.test.ts). An operator's read
      // waits for no user's writes: SQL first.
      await sqlCaughtUp(h.app.moneyCore);
      const rebates = (
        await expectOk(get(h, `/admin/ieo/projects/${project.id}/rebates`, undefined, ADMIN_HEADERS))
      ).data;
      expect(rebates).toEqual([
        {
          orderId: (order.data as IeoOrder).id,
          inviterId: inviter.id,
          coin: 'USDT',
          amount: '1',
          state: 'owed',
          paidBy: null,
          paidAt: null,
        },
      ]);
    });
    it('refuses a user whose phone area code the project refuses', async () => {
      const project = await createProject(h, saleTerms(h, { refusedAreaCodes: ['86'] }));
      h.clock.advance(MINUTE);
      const user = await funded({ USDT: '100' });
      const code = await requestCode(h, '13812345678', 'bind');
      await expectOk(post(h, '/user/setNewTelOrEmail', { account: '13812345678', code }, user.token));
      expect(await subscribe(h, user, project.id, '10')).toMatchObject({
        code: 403,
        msg: 'This project is not available in your region',
      });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '100', locked: '0' });
    });
  });

  describe('vesting', () => {
    it('releases each tranche to spot by itself on the clock, across a restart', async () => {
      const project = await createProject(
        h,
        saleTerms(h, { vesting: { kind: 'tranches', cliffDays: 1, tranches: 3, intervalDays: 30 } }),
      );
      h.clock.advance(MINUTE);
      const user = await funded({ USDT: '100' });
      await expectOk(subscribe(h, user, project.id, '50'));
      const [order] = await ordersOf(user);
      expect(order?.tranches.map((tranche) => tranche.amount)).toEqual(['33.33', '33.33', '33.34']);
      expect(order?.nextRelease).toEqual({ releaseAt: project.endTime + DAY, until: null, amount: '33.33' });

      h.clock.set(project.endTime + DAY - 1);
      await h.app.ieo.service.tick();
      expect(await balanceOf(h, spot(user), 'TEST')).toEqual({ available: '0', locked: '0' });
      h.clock.set(project.endTime + DAY);
      await h.app.ieo.service.tick();
      expect(await balanceOf(h, spot(user), 'TEST')).toEqual({ available: '33.33', locked: '0' });
      // The released token is a coin of the user's assets like any other: listed, readable and movable.
      expect((await expectOk(get(h, '/account/balance?coin=TEST', user.token))).data).toMatchObject({
        usable: '33.33',
      });
      const assets = (await expectOk(get(h, '/account/myAccount', user.token))).data as Array<{
        coin: string;
      }>;
      expect(assets.find((row) => row.coin === 'TEST')).toMatchObject({ usable: '33.33' });
      await expectOk(
        post(
          h,
          '/account/contractTransfer',
          { coin: 'TEST', number: '0.33', from: 'spot', to: 'futures' },
          user.token,
        ),
      );
      expect(await balanceOf(h, spot(user), 'TEST')).toEqual({ available: '33', locked: '0' });

      // A restart while two tranches are due: the new app releases them as it starts.
      await restartApp(h, () => h.clock.set(project.endTime + DAY + 61 * DAY));
      expect(await balanceOf(h, spot(user), 'TEST')).toEqual({ available: '99.67', locked: '0' });
      expect(await balanceOf(h, userAccount(user.id, 'ieo'), 'TEST')).toEqual({
        available: '0',
        locked: '0',
      });
      // (The session expired in those 61 days: read the orders through the service.)
      const [done] = await h.app.ieo.service.orders(user.id, 1, 20);
      expect(done).toMatchObject({ state: 'released', locked: '0', released: '100', nextRelease: null });
      await h.app.ieo.service.tick();
      expect(await balanceOf(h, spot(user), 'TEST')).toEqual({ available: '99.67', locked: '0' });
    });
    it('releases nothing of a sale still open past its end, so a cancel then takes every token back', async () => {
      const project = await createProject(
        h,
        saleTerms(h, { vesting: { kind: 'tranches', cliffDays: 0, tranches: 2, intervalDays: 1 } }),
      );
      h.clock.advance(MINUTE);
      const user = await funded({ USDT: '100' });
      await expectOk(subscribe(h, user, project.id, '50'));
      // The first tranche is due, but the clock has not ended the sale yet (a release racing the operator's cancel).
      h.clock.set(project.endTime + MINUTE);
      if (h.app.moneyCore) await h.app.moneyCore.submit({ kind: 'ieoRelease', at: h.clock.now() });
      else await h.app.ieo.service.releaseDue();
      await sqlCaughtUp(h.app.moneyCore);
      expect(await balanceOf(h, spot(user), 'TEST')).toEqual({ available: '0', locked: '0' });
      await h.app.ieo.service.cancelProject(project.id);
      await sqlCaughtUp(h.app.moneyCore);
      expect(await balanceOf(h, userAccount(user.id, 'ieo'), 'TEST')).toEqual({
        available: '0',
        locked: '0',
      });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '100', locked: '0' });
    });
  });

  describe('linear vesting', () => {
    it('releases what has vested hour by hour after the cliff, floored to the token unit, exact across a restart', async () => {
      const project = await createProject(
        h,
        saleTerms(h, { vesting: { kind: 'linear', cliffDays: 1, durationDays: 3 }, tokenDecimals: 2 }),
      );
      expect(project.vesting).toEqual({ kind: 'linear', cliffDays: 1, durationDays: 3 });
      h.clock.advance(MINUTE);
      const user = await funded({ USDT: '100' });
      await expectOk(subscribe(h, user, project.id, '50'));
      const start = project.endTime + DAY;
      const end = start + 3 * DAY;
      const [order] = await ordersOf(user);
      expect(order?.tranches).toEqual([
        { seq: 1, releaseAt: start, until: end, amount: '100', releasedAmount: '0', released: false },
      ]);
      expect(order?.nextRelease).toEqual({ releaseAt: start, until: end, amount: '100' });

      const spotTest = async () => (await balanceOf(h, spot(user), 'TEST')).available;
      h.clock.set(start - 1);
      await h.app.ieo.service.tick();
      expect(await spotTest()).toBe('0');
      // A third of the way: 33.333… floored to 33.33; a second tick at the same time moves nothing.
      h.clock.set(start + DAY);
      await h.app.ieo.service.tick();
      await h.app.ieo.service.tick();
      expect(await spotTest()).toBe('33.33');
      expect((await ordersOf(user))[0]).toMatchObject({
        state: 'locked',
        locked: '66.67',
        released: '33.33',
        nextRelease: { releaseAt: start, until: end, amount: '66.67' },
      });
      h.clock.set(start + DAY + 1);
      await h.app.ieo.service.tick();
      expect(await spotTest()).toBe('33.33');

      // A restart two and a half days in: the new app releases up to floor(100 × 2.5 ÷ 3) as it starts.
      await restartApp(h, () => h.clock.set(start + 2.5 * DAY));
      expect(await spotTest()).toBe('83.33');
      expect(await balanceOf(h, userAccount(user.id, 'ieo'), 'TEST')).toEqual({
        available: '0',
        locked: '16.67',
      });

      // The last release takes the remainder: exactly 100 in all, nothing left locked.
      // Within the last hour: 71 of 72 hours have vested.
      h.clock.set(end - 1);
      await h.app.ieo.service.tick();
      expect(await spotTest()).toBe('98.61');
      h.clock.set(end);
      await h.app.ieo.service.tick();
      await h.app.ieo.service.tick();
      expect(await spotTest()).toBe('100');
      expect(await balanceOf(h, userAccount(user.id, 'ieo'), 'TEST')).toEqual({
        available: '0',
        locked: '0',
      });
      const [done] = await h.app.ieo.service.orders(user.id, 1, 20);
      expect(done).toMatchObject({ state: 'released', locked: '0', released: '100', nextRelease: null });
      expect(done?.tranches[0]).toMatchObject({ releasedAmount: '100', released: true });
    });

    it('refuses a linear schedule without a duration', async () => {
      const answer = await post(
        h,
        '/admin/ieo/projects',
        saleTerms(h, { vesting: { kind: 'linear', cliffDays: 1, durationDays: 0 } }),
        undefined,
        ADMIN_HEADERS,
      );
      expect(answer).toMatchObject({ code: 400 });
    });
  });

  describe('commit mode', () => {
    it('keeps a running total per project and pay coin with each commitment, equal to their sum, and lists from it', async () => {
      const project = await createProject(
        h,
        saleTerms(h, {
          mode: 'commit',
          tokenDecimals: 8,
          minNumber: '0.00000001',
          payCoins: [{ paycoin: 'USDT', price: '1' }],
        }),
      );
      h.clock.advance(MINUTE);
      const users = [await funded(), await funded(), await funded()];
      const stored = () =>
        h.store.db.selectFrom('ieo_commit_totals').selectAll().where('project_id', '=', project.id).execute();
      const amounts = ['10.5', '3', '0.00000001', '250', '7.25', '1'];
      for (const [index, amount] of amounts.entries()) {
        await expectOk(subscribe(h, users[index % 3] as TestUser, project.id, amount));
        // SQL read directly: once it holds the commitment (on the core, answered before).
        await sqlCaughtUp(h.app.moneyCore);
        const orders = await h.store.db
          .selectFrom('ieo_orders')
          .select('amount')
          .where('project_id', '=', project.id)
          .execute();
        const sum = Dec.sum(orders.map((order) => Dec.parse(order.amount)));
        const [total] = await stored();
        expect(Dec.parse(total?.committed ?? '-1').eq(sum)).toBe(true);
        expect(Number(total?.paycoin === 'USDT' ? total.participants : -1)).toBe(orders.length);
      }
      expect(await listed(project.id)).toMatchObject({ committed: '271.75000001', participants: 3 });
      // The list reads the stored total, not the orders.
      await h.store.db
        .updateTable('ieo_commit_totals')
        .set({ committed: '1' })
        .where('project_id', '=', project.id)
        .execute();
      expect((await listed(project.id)).committed).toBe('1');
      await h.store.db
        .updateTable('ieo_commit_totals')
        .set({ committed: '271.75000001' })
        .where('project_id', '=', project.id)
        .execute();
      await h.app.ieo.service.cancelProject(project.id);
    });

    it('allocates pro rata with the cap, redistributes the excess, posts what was spent and refunds the rest, with proofs', async () => {
      const project = await createProject(
        h,
        saleTerms(h, {
          mode: 'commit',
          total: '1000',
          tokenDecimals: 0,
          payCoins: [{ paycoin: 'USDT', price: '1' }],
          maxNumber: '400',
          vesting: { kind: 'tranches', cliffDays: 0, tranches: 2, intervalDays: 1 },
        }),
      );
      h.clock.advance(MINUTE);
      const [a, b, c] = [await funded(), await funded(), await funded()];
      const commit = (user: TestUser | undefined, amount: string) =>
        expectOk(subscribe(h, user as TestUser, project.id, amount));
      expect((await commit(a, '1000')).msg).toBe('Commitment received: held until allocation');
      await commit(a, '1000');
      await commit(b, '500');
      await commit(c, '500');
      // Held, not spent, until the allocation.
      expect(await balanceOf(h, spot(a as TestUser), 'USDT')).toEqual({ available: '8000', locked: '2000' });
      const live = await listed(project.id);
      expect(live).toMatchObject({ committed: '3000', participants: 3, ratio: '3', remaining: '1000' });
      expect(
        ((await expectOk(get(h, `/ieo/commits?id=${project.id}`))).data as IeoPublicCommit[]).map(
          (row) => row.tokens,
        ),
      ).toEqual([null, null, null]);

      h.clock.set(project.endTime);
      if (moneyCore) await h.app.ieo.service.tick();
      else {
        // One order per ledger transaction here (500 in the app), so the batching is exercised too (on the
        // core the state's batch is fixed: state-distribution.test.ts distributes a sale of several).
        const { db } = h.store;
        const identity = h.app.identity.service;
        await new IeoService({
          db,
          ledger: h.app.ledger,
          clock: h.clock,
          identity,
          distributeBatch: 1,
        }).tick();
      }
      expect((await listed(project.id)).state).toBe('ended');
      // a: share 666 > cap 400 → 400 in round 1; b and c share the other 600 → 300 each.
      const tokens = async (user: TestUser | undefined) => (await ordersOf(user as TestUser))[0];
      expect(await tokens(a)).toMatchObject({ tokens: '400', spent: '400', refund: '1600', amount: '2000' });
      expect(await tokens(b)).toMatchObject({ tokens: '300', spent: '300', refund: '200' });
      expect(await balanceOf(h, spot(a as TestUser), 'USDT')).toEqual({ available: '9600', locked: '0' });
      expect(await balanceOf(h, spot(b as TestUser), 'USDT')).toEqual({ available: '9700', locked: '0' });
      // Tranche 1 vests at the end (cliff 0): released by the same tick.
      expect(await balanceOf(h, spot(b as TestUser), 'TEST')).toEqual({ available: '150', locked: '0' });
      expect(await balanceOf(h, userAccount((b as TestUser).id, 'ieo'), 'TEST')).toEqual({
        available: '0',
        locked: '150',
      });

      const proof = (await expectOk(get(h, `/ieo/allocationProof?id=${project.id}`, (a as TestUser).token)))
        .data as IeoAllocationProof;
      expect(proof).toMatchObject({
        oversubscribed: true,
        totalCommitted: '3000',
        need: '400',
        servedInRound: 1,
        rounds: [{ round: 1, pool: '1000', served: 1, servedTokens: '400' }],
        finalPool: '600',
        tokens: '400',
        refund: '1600',
      });
      const commits = (await expectOk(get(h, `/ieo/commits?id=${project.id}`))).data as IeoPublicCommit[];
      expect(commits.map((row) => row.tokens).sort()).toEqual(['300', '300', '400']);
      expect(new Set(commits.map((row) => row.anonId)).size).toBe(3);
      // The unsold remainder stays in the project's treasury.
      expect(await balanceOf(h, systemAccount(ieoProjectWallet(project.id)), 'USDT')).toMatchObject({
        available: '1000',
      });
    });
  });

  describe('terms', () => {
    it('cancelling a commit-mode sale voids every commitment', async () => {
      const project = await createProject(
        h,
        saleTerms(h, { mode: 'commit', tokenDecimals: 0, payCoins: [{ paycoin: 'USDT', price: '1' }] }),
      );
      h.clock.advance(MINUTE);
      const user = await funded({ USDT: '100' });
      await expectOk(subscribe(h, user, project.id, '30'));
      await expectOk(subscribe(h, user, project.id, '20'));
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '50', locked: '50' });
      await expectOk(post(h, `/admin/ieo/projects/${project.id}/cancel`, {}, undefined, ADMIN_HEADERS));
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '100', locked: '0' });
      expect((await ordersOf(user))[0]).toMatchObject({ state: 'refunded', refund: '50' });
      h.clock.set(project.endTime);
      await h.app.ieo.service.tick();
      expect((await listed(project.id)).state).toBe('cancelled');
    });

    it('edits sent at once leave the project with the terms its treasury is funded for', async () => {
      const project = await createProject(h, saleTerms(h));
      const totals = ['1100', '1200', '1300', '1400', '1500', '1600'];
      const answers = await Promise.all(
        totals.map((total) =>
          post(h, `/admin/ieo/projects/${project.id}`, saleTerms(h, { total }), undefined, ADMIN_HEADERS),
        ),
      );
      for (const answer of answers) expect(answer).toMatchObject({ code: 200, data: { state: 'not_open' } });
      const { total } = await listed(project.id);
      expect(totals).toContain(total);
      expect(await balanceOf(h, systemAccount(ieoProjectWallet(project.id)), 'TEST')).toMatchObject({
        available: total,
      });
    });

    it('edits freely before the window opens; an edit after it opens cancels the project and refunds everyone', async () => {
      const project = await createProject(h, saleTerms(h, { gift: '0.1' }));
      const edited = await expectOk(
        post(
          h,
          `/admin/ieo/projects/${project.id}`,
          saleTerms(h, { total: '2000' }),
          undefined,
          ADMIN_HEADERS,
        ),
      );
      expect(edited).toMatchObject({ msg: 'Project saved', data: { total: '2000', state: 'not_open' } });
      expect(await balanceOf(h, systemAccount(ieoProjectWallet(project.id)), 'TEST')).toMatchObject({
        available: '2000',
      });

      h.clock.advance(MINUTE);
      const buyer = await funded({ USDT: '100' });
      const committer = await funded({ USDT: '100' });
      await expectOk(subscribe(h, buyer, project.id, '20'));
      const cancel = await post(
        h,
        `/admin/ieo/projects/${project.id}`,
        saleTerms(h, { total: '5' }),
        undefined,
        ADMIN_HEADERS,
      );
      expect(cancel).toMatchObject({ code: 200, data: { state: 'cancelled' } });
      expect(cancel.msg).toContain('cancelled');
      expect(await balanceOf(h, spot(buyer), 'USDT')).toEqual({ available: '100', locked: '0' });
      expect(await balanceOf(h, userAccount(buyer.id, 'ieo'), 'TEST')).toEqual({
        available: '0',
        locked: '0',
      });
      expect(await balanceOf(h, systemAccount(ieoProjectWallet(project.id)), 'TEST')).toMatchObject({
        available: '0',
      });
      expect(await subscribe(h, committer, project.id, '10')).toMatchObject({
        msg: 'This project was cancelled',
      });
      expect(
        await post(h, `/admin/ieo/projects/${project.id}`, saleTerms(h), undefined, ADMIN_HEADERS),
      ).toMatchObject({
        code: 409,
        msg: 'The terms of this project can no longer be changed',
      });
      expect((await ordersOf(buyer))[0]).toMatchObject({ state: 'refunded', refund: '20' });
    });

    it('refuses operator routes without the admin token and bad terms with a message', async () => {
      expect((await post(h, '/admin/ieo/projects', saleTerms(h))).code).toBe(403);
      expect(
        await post(
          h,
          '/admin/ieo/projects',
          saleTerms(h, { endTime: h.clock.now() }),
          undefined,
          ADMIN_HEADERS,
        ),
      ).toMatchObject({
        code: 400,
        msg: 'The end time must be after the start time',
      });
      expect(
        await post(
          h,
          '/admin/ieo/projects',
          saleTerms(h, {
            mode: 'commit',
            payCoins: [
              { paycoin: 'USDT', price: '1' },
              { paycoin: 'ETH', price: '0.001' },
            ],
          }),
          undefined,
          ADMIN_HEADERS,
        ),
      ).toMatchObject({ code: 400, msg: 'A commit-mode project takes exactly one pay coin' });
    });
  });
});
