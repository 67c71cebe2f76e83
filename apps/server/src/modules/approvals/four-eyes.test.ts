import type {
  ApprovalView,
  MarketSettingsList,
  SpotPairSettings,
  WithdrawalApproveAnswer,
} from '@halyard/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/index.ts';
import { MONEY_PATHS } from '../identity/test-support.ts';
import {
  balanceOf,
  CHAIN,
  expectHealthyLedger,
  expectOk,
  FUND_PASSWORD,
  fund,
  get,
  type Harness,
  post,
  spot,
  startWalletHarness,
  type TestUser,
  verifiedUser,
} from '../wallet/test-support.ts';
import { type Answer, asOperator, type OperatorSession, operatorSession } from './test-support.ts';

const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/** USDT's own review threshold is 10000 (coins.ts); four-eyes from 20000 up. */
const FOUR_EYES_ABOVE = '20000';

let h: Harness;
let financeA: OperatorSession;
let adminA: OperatorSession;
let adminB: OperatorSession;

beforeAll(async () => {
  h = await startWalletHarness(null);
  financeA = await operatorSession(h.app, 'finance', h.clock);
  adminA = await operatorSession(h.app, 'administrator', h.clock);
  adminB = await operatorSession(h.app, 'administrator', h.clock);
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await expectHealthyLedger(h.store.db);
});

function ok(answer: Answer): Answer {
  expect(answer, answer.msg).toMatchObject({ code: 200 });
  return answer;
}

const approve = (operator: OperatorSession, id: number) =>
  asOperator(h, operator, 'POST', `/admin/approvals/${id}/approve`, undefined, { fresh: true });

/**
 * The adjustments and the withdrawals' releases run twice: on the SQL path the
 * server runs today, and on the sequenced core (issue 19's cut-over: the
 * approval submits `adjust`, or the state's approve of the withdrawal). The
 * markets below stay on SQL: a listing is written in the markets' own
 * transaction, which has not moved to the core.
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

  const approve = (operator: OperatorSession, id: number) =>
    asOperator(h, operator, 'POST', `/admin/approvals/${id}/approve`, undefined, { fresh: true });

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

    const self = await approve(financeA, pending.id);
    expect(self.msg).toBe('You made this request: a second operator must approve it');
    expect(await balanceOf(h, { owner: user.id, wallet: 'futures' }, 'USDT')).toMatchObject({
      available: '0',
    });

    const done = ok(await approve(financeB, pending.id));
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
    expect((await approve(financeB, request.id)).msg).toBe('This request has already been decided');
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
    const answers = await Promise.all([approve(financeB, request.id), approve(financeC, request.id)]);
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
      approve(financeB, requested[0]!.id),
      approve(financeC, requested[1]!.id),
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
      expect((await approve(financeA, approval!.id)).msg).toBe(
        'You made this request: a second operator must approve it',
      );
      expect((await approve(support, approval!.id)).code).toBe(403);
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
      const failed = ok(await approve(financeB, approval!.id));
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
      const failed = ok(await approve(financeB, approval!.id));
      expect(failed.data).toMatchObject({ status: 'failed', error: { key: 'wallet.withdrawalHeld' } });
      expect(await state(id)).toBe('review');
      expect(await balanceOf(h, spot(user), 'USDT')).toMatchObject({ available: '0', locked: '25001' });
    });
  });
});

describe('markets', () => {
  async function markets(): Promise<MarketSettingsList> {
    return ok(await asOperator(h, adminA, 'GET', '/admin/markets')).data as MarketSettingsList;
  }

  it('a spot edit is live for the next order and audited with before and after', async () => {
    const { spot: pairs } = await markets();
    const pair = pairs.find((row) => row.tradcoin === 'BTC')!;
    const { id, tradcoin, maincoin, ...settings } = pair;
    const changed: SpotPairSettings = { ...settings, minNumber: '0.5', takerFee: '0.002' };
    const answer = ok(
      await asOperator(h, adminA, 'PUT', `/admin/markets/spot/${id}`, changed, { fresh: true }),
    );
    expect(answer.data).toEqual({ before: settings, after: changed });

    const trader = await verifiedUser(h);
    await fund(h, trader.id, { USDT: '100000' });
    const order = await post(
      h,
      '/trad/buyLimit',
      { tradcoin, maincoin, price: '1000', number: '0.1' },
      trader.token,
    );
    expect(order.msg).toContain('0.5');

    const closed = ok(
      await asOperator(
        h,
        adminA,
        'PUT',
        `/admin/markets/spot/${id}`,
        { ...changed, enabled: false },
        { fresh: true },
      ),
    );
    expect(closed.data).toMatchObject({ after: { enabled: false } });
    const refused = await post(
      h,
      '/trad/buyLimit',
      { tradcoin, maincoin, price: '1000', number: '1' },
      trader.token,
    );
    expect(refused.code).not.toBe(200);
    ok(await asOperator(h, adminA, 'PUT', `/admin/markets/spot/${id}`, settings, { fresh: true }));

    const audit = ok(
      await asOperator(h, adminA, 'GET', `/admin/audit?action=markets.edit&subject=spot:${id}`),
    );
    const entries = (audit.data as { items: Array<{ details: string }> }).items;
    expect(entries.some((entry) => JSON.parse(entry.details).after?.minNumber === '0.5')).toBe(true);
  });

  it('refuses bad settings with the field, a precision change under resting orders, and a role without markets.edit', async () => {
    const { spot: pairs, futures, cycle } = await markets();
    const { id, tradcoin: _t, maincoin: _m, ...settings } = pairs[0]!;
    const bad = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/spot/${id}`,
      { ...settings, maxNumber: '0.000001' },
      { fresh: true, lang: 'ru' },
    );
    expect(bad.msg).toBe('Максимум должен быть больше минимума');
    const fee = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/spot/${id}`,
      { ...settings, makerFee: '0.5' },
      { fresh: true },
    );
    expect(fee.msg).toBe('A fee must be from 0 to 0.1');
    const { id: contractId, name: _n, unit: _u, tradcoin: _ft, maincoin: _fm, ...contract } = futures[0]!;
    const margin = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/futures/${contractId}`,
      { ...contract, maxLever: 200 },
      { fresh: true },
    );
    expect(margin.code).toBe(400);
    const mmr = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/futures/${contractId}`,
      { ...contract, maintenanceMarginRate: '0.5' },
      { fresh: true },
    );
    expect(mmr.msg).toBe('The maintenance margin rate must be above 0 and below 1 / maximum leverage');
    const { id: cycleId, tradcoin: _ct, maincoin: _cm, ...cyclePair } = cycle[0]!;
    const duplicate = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/cycle/${cycleId}`,
      { ...cyclePair, options: [cyclePair.options[0], cyclePair.options[0]] },
      { fresh: true },
    );
    expect(duplicate.msg).toBe('Invalid value: seconds');
    expect(
      (await asOperator(h, financeA, 'PUT', `/admin/markets/spot/${id}`, settings, { fresh: true })).code,
    ).toBe(403);
    expect(await markets()).toEqual({ spot: pairs, futures, cycle });

    const trader = await verifiedUser(h);
    await fund(h, trader.id, { USDT: '1000' });
    const { tradcoin, maincoin } = pairs[0]!;
    const order = { tradcoin, maincoin, price: '0.1', number: settings.minNumber };
    await expectOk(post(h, '/trad/buyLimit', order, trader.token));
    const finer = { ...settings, priceAccuracy: settings.priceAccuracy + 1 };
    const resting = await asOperator(h, adminA, 'PUT', `/admin/markets/spot/${id}`, finer, { fresh: true });
    expect(resting.msg).toBe('The price precision cannot change while orders rest in the book');
  });

  it('a futures edit and a cycle edit take effect', async () => {
    const { futures, cycle } = await markets();
    const { id, name: _n, unit: _u, tradcoin: _t, maincoin: _m, ...contract } = futures[0]!;
    const lowered = { ...contract, maxLever: 10, maintenanceMarginRate: '0.05' };
    ok(await asOperator(h, adminA, 'PUT', `/admin/markets/futures/${id}`, lowered, { fresh: true }));
    expect(h.app.futures.service.engine.market(id).levers).toEqual([1, 2, 3, 5, 10]);

    const { id: cycleId, tradcoin, maincoin, ...pair } = cycle[0]!;
    const shorter = { ...pair, options: pair.options.slice(1) };
    ok(await asOperator(h, adminA, 'PUT', `/admin/markets/cycle/${cycleId}`, shorter, { fresh: true }));
    const now = await markets();
    expect(now.cycle[0]).toEqual({ id: cycleId, tradcoin, maincoin, ...shorter });
    expect(now.futures[0]).toMatchObject({ maxLever: 10, maintenanceMarginRate: '0.05' });
  });

  it('a new listing needs a second administrator and opens once approved', async () => {
    const listing = {
      kind: 'spot',
      tradcoin: 'NEWC',
      maincoin: 'USDT',
      priceAccuracy: 4,
      amountAccuracy: 2,
      minNumber: '1',
      maxNumber: '100000',
      makerFee: '0.001',
      takerFee: '0.001',
      enabled: true,
      sort: 99,
      reason: 'board decision 12',
    };
    const requested = ok(
      await asOperator(h, adminA, 'POST', '/admin/markets/listings', listing, { fresh: true }),
    );
    const approval = requested.data as ApprovalView;
    expect(approval).toMatchObject({ kind: 'market_listing', subject: 'spot:NEWC/USDT', status: 'pending' });
    expect((await approve(adminA, approval.id)).msg).toBe(
      'You made this request: a second operator must approve it',
    );
    expect((await markets()).spot.some((pair) => pair.tradcoin === 'NEWC')).toBe(false);

    ok(await approve(adminB, approval.id));
    expect((await markets()).spot.find((pair) => pair.tradcoin === 'NEWC')).toMatchObject({
      minNumber: '1',
      enabled: true,
    });
    const spotPairs = (await expectOk(get(h, '/trad/symbols'))).data as Array<{ tradcoin: string }>;
    expect(spotPairs.some((row) => row.tradcoin === 'NEWC')).toBe(true);
    const again = await asOperator(h, adminA, 'POST', '/admin/markets/listings', listing, { fresh: true });
    expect(again.msg).toBe('This market is already listed');
    const incomplete = await asOperator(
      h,
      adminA,
      'POST',
      '/admin/markets/listings',
      { kind: 'futures', tradcoin: 'NEWC', maincoin: 'USDT', reason: 'x' },
      { fresh: true },
    );
    expect(incomplete.msg).toBe('Invalid value: name');
  });

  it('lists a futures contract and a cycle pair once a second administrator approves', async () => {
    const futures = {
      kind: 'futures',
      tradcoin: 'BTC',
      maincoin: 'USDC',
      name: 'BTC-USDC perpetual',
      unit: '0.001',
      priceAccuracy: 2,
      minNumber: '1',
      maxNumber: '5000',
      maxLever: 20,
      fee: '0.0005',
      maintenanceMarginRate: '0.01',
      enabled: true,
      sort: 9,
      reason: 'USDC margin',
    };
    const cycle = {
      kind: 'cycle',
      tradcoin: 'BNB',
      maincoin: 'USDT',
      priceAccuracy: 2,
      payCoins: ['USDT'],
      options: [
        { seconds: 60, minNumber: '10', maxNumber: '1000', profitRate: '0.85', lossRate: '1', fee: '0.02' },
      ],
      sort: 9,
      reason: 'more cycle pairs',
    };
    for (const listing of [futures, cycle]) {
      const { id } = ok(
        await asOperator(h, adminA, 'POST', '/admin/markets/listings', listing, { fresh: true }),
      ).data as ApprovalView;
      expect(ok(await approve(adminB, id)).data).toMatchObject({ status: 'executed' });
    }
    const now = await markets();
    const contract = now.futures.find((row) => row.maincoin === 'USDC');
    expect(contract).toMatchObject({ name: 'BTC-USDC perpetual', unit: '0.001', maxLever: 20 });
    expect(h.app.futures.service.engine.market(contract!.id).levers).toEqual([1, 2, 3, 5, 10, 20]);
    expect(now.cycle.find((row) => row.tradcoin === 'BNB')).toMatchObject({ payCoins: ['USDT'], sort: 9 });
    // The users' lists carry the new markets at once.
    const contracts = (await expectOk(get(h, '/contract/symbols'))).data as Array<{ maincoin: string }>;
    expect(contracts.some((row) => row.maincoin === 'USDC')).toBe(true);
    const cyclePairs = (await expectOk(get(h, '/cycle/symbols'))).data as Array<{ tradcoin: string }>;
    expect(cyclePairs.some((row) => row.tradcoin === 'BNB')).toBe(true);
  });
});
