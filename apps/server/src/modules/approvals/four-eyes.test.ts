import type { ApprovalView, WithdrawalApproveAnswer } from '@halyard/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/index.ts';
import { sqlCaughtUp } from '../../money-core/test-support.ts';
import { MONEY_PATHS, restartApp } from '../identity/test-support.ts';
import {
  balanceOf,
  CHAIN,
  expectHealthyLedger,
  expectOk,
  FUND_PASSWORD,
  fund,
  type Harness,
  post,
  spot,
  startWalletHarness,
  type TestUser,
  verifiedUser,
} from '../wallet/test-support.ts';
import { approvalStore } from './store.ts';
import { approveAs, asOperator, type OperatorSession, ok, operatorSession } from './test-support.ts';
import { releaseDetails } from './withdrawals.ts';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** USDT's own review threshold is 10000 (coins.ts); four-eyes from 20000 up. */
const FOUR_EYES_ABOVE = '20000';

/**
 * The adjustments and the withdrawals' releases run twice: on the SQL path the
 * server runs today, and on the sequenced core (issue 19's cut-over: the
 * approval submits `adjust`, or the state's approve of the withdrawal). The
 * listings through the approvals are tested with the markets
 * (modules/markets/markets.test.ts).
 */
describe.each(MONEY_PATHS)('balance adjustments and large withdrawals over HTTP on $on', ({ moneyCore }) => {
  let h: Harness;
  let financeA: OperatorSession;
  let financeB: OperatorSession;
  let support: OperatorSession;
  beforeAll(async () => {
    h = await startWalletHarness(null, { WITHDRAWAL_FOUR_EYES_ABOVE: FOUR_EYES_ABOVE }, { moneyCore });
    financeA = await operatorSession(h.app, 'finance', h.clock);
    financeB = await operatorSession(h.app, 'finance', h.clock);
    support = await operatorSession(h.app, 'support', h.clock);
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
  });

  it('a finance operator requests, the same one is refused, a second one approves: the ledger pays', async () => {
    const user = await verifiedUser(h);
    const body = {
      userId: user.id,
      wallet: 'futures',
      coin: 'USDT',
      direction: 'credit',
      amount: '12.5',
      category: 'promotion',
      reason: 'launch campaign',
    };
    const withoutCode = await asOperator(h, financeA, 'POST', '/admin/adjustments', body);
    expect(withoutCode.code).toBe(403);
    const pending = ok(await asOperator(h, financeA, 'POST', '/admin/adjustments', body, { fresh: true }))
      .data as ApprovalView;
    expect(pending).toMatchObject({
      status: 'pending',
      kind: 'balance_adjustment',
      reason: 'launch campaign',
    });

    const self = await approveAs(h, financeA, pending.id);
    expect(self.msg).toBe('You made this request: a second operator must approve it');
    expect(await balanceOf(h, { owner: user.id, wallet: 'futures' }, 'USDT')).toMatchObject({
      available: '0',
    });

    const done = ok(await approveAs(h, financeB, pending.id));
    expect(done.msg).toBe('Approved and done');
    expect(done.data).toMatchObject({ status: 'executed', decidedBy: { id: financeB.id } });
    expect(await balanceOf(h, { owner: user.id, wallet: 'futures' }, 'USDT')).toMatchObject({
      available: '12.5',
    });
    expect((await auditLedger(h.store.db)).breaches).toEqual([]);

    const listed = ok(
      await asOperator(h, financeB, 'GET', '/admin/approvals?status=executed&kind=balance_adjustment'),
    );
    expect((listed.data as ApprovalView[]).map((row) => row.id)).toContain(pending.id);
  });

  it('refuses bad input in the operator language and a role without the permission', async () => {
    const user = await verifiedUser(h);
    const body = {
      userId: user.id,
      wallet: 'spot',
      coin: 'USDT',
      direction: 'debit',
      amount: '5',
      category: 'correction',
      reason: 'double credit',
    };
    const exceeds = await asOperator(h, financeA, 'POST', '/admin/adjustments', body, {
      fresh: true,
      lang: 'cn',
    });
    expect(exceeds.msg).toBe('扣减金额超过可用余额（0）');
    const badWallet = await asOperator(
      h,
      financeA,
      'POST',
      '/admin/adjustments',
      { ...body, wallet: 'fees' },
      { fresh: true },
    );
    expect(badWallet.code).toBe(400);
    const refused = await asOperator(h, support, 'POST', '/admin/adjustments', body, { fresh: true });
    expect(refused.code).toBe(403);
    const pending = ok(
      await asOperator(h, financeA, 'GET', '/admin/approvals?status=pending&kind=balance_adjustment'),
    );
    expect(pending.data).toEqual([]);
  });

  it('a rejection does nothing', async () => {
    const user = await verifiedUser(h);
    const request = ok(
      await asOperator(
        h,
        financeA,
        'POST',
        '/admin/adjustments',
        {
          userId: user.id,
          wallet: 'spot',
          coin: 'USDT',
          direction: 'credit',
          amount: '1',
          category: 'compensation',
          reason: 'x',
        },
        { fresh: true },
      ),
    ).data as ApprovalView;
    const rejected = ok(
      await asOperator(h, financeB, 'POST', `/admin/approvals/${request.id}/reject`, {
        reason: 'no ticket',
      }),
    );
    expect(rejected.data).toMatchObject({ status: 'rejected', decisionReason: 'no ticket' });
    expect((await approveAs(h, financeB, request.id)).msg).toBe('This request has already been decided');
    expect(await balanceOf(h, spot(user), 'USDT')).toMatchObject({ available: '0' });
  });

  it('two operators approving one request at once: it executes once, the other is told it was decided', async () => {
    const user = await verifiedUser(h);
    const body = {
      userId: user.id,
      wallet: 'spot',
      coin: 'USDT',
      direction: 'credit',
      amount: '7',
      category: 'compensation',
      reason: 'outage',
    };
    const request = ok(await asOperator(h, financeA, 'POST', '/admin/adjustments', body, { fresh: true }))
      .data as ApprovalView;
    const financeC = await operatorSession(h.app, 'finance', h.clock);
    const answers = await Promise.all([
      approveAs(h, financeB, request.id),
      approveAs(h, financeC, request.id),
    ]);
    expect(answers.map((answer) => answer.msg).sort()).toEqual([
      'Approved and done',
      'This request has already been decided',
    ]);
    expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '7', locked: '0' });
  });

  it('two debits fair alone but not together, approved at once: one pays, the other is recorded failed', async () => {
    const user = await verifiedUser(h);
    await fund(h, user.id, { USDT: '1000' });
    const body = {
      userId: user.id,
      wallet: 'spot',
      coin: 'USDT',
      direction: 'debit',
      amount: '700',
      category: 'correction',
      reason: 'double entry',
    };
    const requested: ApprovalView[] = [];
    for (let index = 0; index < 2; index++)
      requested.push(
        ok(await asOperator(h, financeA, 'POST', '/admin/adjustments', body, { fresh: true }))
          .data as ApprovalView,
      );
    // Both sent at once, by two operators (one operator's TOTP codes must arrive in order): each may pass
    // the check when approved; the ledger (SQL) or the state (core) decides.
    const financeC = await operatorSession(h.app, 'finance', h.clock);
    const answers = await Promise.all([
      approveAs(h, financeB, requested[0]!.id),
      approveAs(h, financeC, requested[1]!.id),
    ]);
    const statuses = answers.map((answer) => (answer.data as ApprovalView).status).sort();
    expect(statuses).toEqual(['executed', 'failed']);
    const failed = answers.find((answer) => (answer.data as ApprovalView).status === 'failed')!;
    // On the core the state refuses as the check does; on SQL the ledger may refuse first, as its own error.
    const refusals = moneyCore
      ? ['approvals.debitExceedsBalance']
      : ['approvals.debitExceedsBalance', 'ledger.insufficientBalance'];
    expect(refusals).toContain((failed.data as ApprovalView).error?.key);
    expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '300', locked: '0' });
  });

  /*
   * On the core only: the approval is recorded before its `adjust` is
   * submitted, so a process that stops between the two leaves the request
   * approved and unpaid (written here directly, as the approval had when it
   * stopped), which the next start submits again. On SQL nothing is left
   * between them: the execution commits with the decision.
   */
  async function requestAdjustment(
    user: TestUser,
    direction: 'credit' | 'debit',
    amount: string,
  ): Promise<number> {
    const body = {
      userId: user.id,
      wallet: 'spot',
      coin: 'USDT',
      direction,
      amount,
      category: 'correction',
      reason: 'stopped mid-approval',
    };
    const answer = ok(await asOperator(h, financeA, 'POST', '/admin/adjustments', body, { fresh: true }));
    return (answer.data as ApprovalView).id;
  }

  /** What the approval had written when the process stopped: the decision (ApprovalService.claim), no command. */
  async function approvedWithoutCommand(id: number): Promise<void> {
    const decision = { by: String(financeB.id), email: financeB.email, at: h.clock.now(), reason: null };
    expect(await approvalStore.decide(h.store.db, id, 'approved', decision)).toBe(true);
  }

  async function request(id: number): Promise<ApprovalView> {
    return ok(await asOperator(h, financeB, 'GET', `/admin/approvals/${id}`)).data as ApprovalView;
  }

  it.runIf(moneyCore)(
    'is submitted again at the next start: paid exactly once, the request executed',
    async () => {
      const user = await verifiedUser(h);
      const id = await requestAdjustment(user, 'credit', '12.5');
      await approvedWithoutCommand(id);
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '0', locked: '0' });

      await restartApp(h);
      expect(await request(id)).toMatchObject({
        status: 'executed',
        decidedBy: { id: financeB.id },
        result: { transferId: `adjustment:${id}` },
      });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '12.5', locked: '0' });
      expect((await approveAs(h, financeB, id)).msg).toBe('This request has already been decided');

      await restartApp(h);
      expect(await request(id)).toMatchObject({ status: 'executed' });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '12.5', locked: '0' });
    },
  );

  it.runIf(moneyCore)(
    'a debit the balance no longer covers is recorded failed at the next start, and nothing moves',
    async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '100' });
      const stopped = await requestAdjustment(user, 'debit', '80');
      await approvedWithoutCommand(stopped);
      const paid = await requestAdjustment(user, 'debit', '50');
      expect(ok(await approveAs(h, financeB, paid)).data).toMatchObject({ status: 'executed' });

      await restartApp(h);
      expect(await request(stopped)).toMatchObject({
        status: 'failed',
        error: { key: 'approvals.debitExceedsBalance' },
      });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '50', locked: '0' });
    },
  );

  describe('large withdrawals need a second operator', () => {
    async function withdrawal(user: TestUser, amount: string): Promise<number> {
      await expectOk(
        post(
          h,
          '/account/addAddress',
          { coin: 'USDT', chain: CHAIN, address: ADDRESS, remark: 'cold' },
          user.token,
        ),
      );
      const answer = await expectOk(
        post(
          h,
          '/account/sendCoinOrder',
          { coin: 'USDT', chain: CHAIN, address: ADDRESS, number: amount, payPassword: FUND_PASSWORD },
          user.token,
        ),
      );
      // The operators find it in SQL, which on the core holds it a moment after the user's answer.
      await sqlCaughtUp(h.app.moneyCore);
      return (answer.data as { id: number }).id;
    }

    async function state(id: number): Promise<string> {
      const rows = await h.app.wallet.service.withdrawalsInState('review', 500);
      if (rows.some((row) => row.id === id)) return 'review';
      const approved = await h.app.wallet.service.withdrawalsInState('approved', 500);
      return approved.some((row) => row.id === id) ? 'approved' : 'other';
    }

    const approveWithdrawal = (operator: OperatorSession, id: number) =>
      asOperator(h, operator, 'POST', `/admin/wallet/withdrawals/${id}/approve`, undefined, {
        fresh: true,
      });

    it('at or below the threshold one approval releases it', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '20001' });
      const id = await withdrawal(user, '20000');
      expect(await state(id)).toBe('review');
      const answer = ok(await approveWithdrawal(financeA, id));
      expect(answer.data).toEqual({ released: true, approval: null });
      expect(await state(id)).toBe('approved');
    });

    it('above it the first approval asks, the same operator is refused, a different one releases it', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '30001' });
      const id = await withdrawal(user, '30000');
      const first = ok(await approveWithdrawal(financeA, id));
      expect(first.msg).toBe('Approved: a second operator must approve it too');
      const { approval } = first.data as WithdrawalApproveAnswer;
      expect(approval).toMatchObject({
        kind: 'withdrawal_release',
        status: 'pending',
        subject: `withdrawal:${id}`,
      });
      expect(await state(id)).toBe('review');

      expect((await approveWithdrawal(financeA, id)).msg).toBe(
        'You made this request: a second operator must approve it',
      );
      expect((await approveAs(h, financeA, approval!.id)).msg).toBe(
        'You made this request: a second operator must approve it',
      );
      expect((await approveAs(h, support, approval!.id)).code).toBe(403);
      expect(await state(id)).toBe('review');

      const second = ok(await approveWithdrawal(financeB, id));
      expect(second.data).toMatchObject({
        released: true,
        approval: { status: 'executed', decidedBy: { id: financeB.id } },
      });
      expect(await state(id)).toBe('approved');
      const actions = await h.app.wallet.service.operatorActions(10);
      expect(actions.find((action) => action.withdrawalId === id)).toMatchObject({
        action: 'withdrawal.approve',
        operator: financeB.email,
        details: { fourEyes: { approvalId: approval!.id, firstApprover: financeA.email } },
      });
    });

    /*
     * On the core only: the approval is recorded, then the state's approve
     * releases the withdrawal and its event marks the request executed. A
     * process that stops once the approve is durable (written here as it
     * stood: the decision, then the approve as the release's `submit` sends
     * it, the approvals service never told) must not be resent at the next
     * start and recorded failed. On SQL the release commits with the decision.
     */
    it.runIf(moneyCore)(
      'a release whose approve was durable when the process stopped reads executed at the next start, released once',
      async () => {
        const user = await verifiedUser(h);
        await fund(h, user.id, { USDT: '25001' });
        const id = await withdrawal(user, '25000');
        const { approval } = ok(await approveWithdrawal(financeA, id)).data as WithdrawalApproveAnswer;
        const requestId = approval!.id;
        await approvedWithoutCommand(requestId);
        await h.app.wallet.service.approveReleased(id, financeB.email, releaseDetails(requestId, financeA));

        await restartApp(h);
        expect(await request(requestId)).toMatchObject({
          status: 'executed',
          decidedBy: { id: financeB.id },
          result: { withdrawalId: id },
        });
        expect(await state(id)).toBe('approved');
        const actions = await h.app.wallet.service.operatorActions(100);
        const approves = actions.filter(
          (entry) => entry.withdrawalId === id && entry.action === 'withdrawal.approve',
        );
        expect(approves).toHaveLength(1);
        expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '0', locked: '25001' });

        await restartApp(h);
        expect(await request(requestId)).toMatchObject({ status: 'executed', result: { withdrawalId: id } });
        expect(await state(id)).toBe('approved');
      },
    );

    it('a release whose withdrawal was rejected meanwhile is recorded as failed and changes nothing', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '25001' });
      const id = await withdrawal(user, '25000');
      const { approval } = ok(await approveWithdrawal(financeA, id)).data as WithdrawalApproveAnswer;
      ok(
        await asOperator(
          h,
          financeB,
          'POST',
          `/admin/wallet/withdrawals/${id}/reject`,
          { reason: 'suspicious' },
          { fresh: true },
        ),
      );
      const failed = ok(await approveAs(h, financeB, approval!.id));
      expect(failed.data).toMatchObject({
        status: 'failed',
        error: { key: 'wallet.withdrawalNotInReview' },
      });
      expect(await balanceOf(h, spot(user), 'USDT')).toMatchObject({ available: '25001', locked: '0' });
    });

    it('a release whose withdrawal was held meanwhile fails, and the funds stay held in review', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '25001' });
      const id = await withdrawal(user, '25000');
      const { approval } = ok(await approveWithdrawal(financeA, id)).data as WithdrawalApproveAnswer;
      ok(
        await asOperator(
          h,
          financeB,
          'POST',
          `/admin/wallet/withdrawals/${id}/hold`,
          { reason: 'source of funds' },
          { fresh: true },
        ),
      );
      const failed = ok(await approveAs(h, financeB, approval!.id));
      expect(failed.data).toMatchObject({ status: 'failed', error: { key: 'wallet.withdrawalHeld' } });
      expect(await state(id)).toBe('review');
      expect(await balanceOf(h, spot(user), 'USDT')).toMatchObject({ available: '0', locked: '25001' });
    });
  });
});
