import { Dec } from '@halyard/money';
import type { BalanceAdjustmentRequest } from '@halyard/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import type { OperatorIdentity } from '../../http/auth.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { createLedger, type Ledger, systemAccount, userAccount } from '../../ledger/index.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import { BALANCE_ADJUSTMENT, balanceAdjustmentHandler } from './adjustments.ts';
import { ApprovalService } from './service.ts';

const financeA: OperatorIdentity = { id: 11, email: 'a@finance.test', role: 'finance' };
const financeB: OperatorIdentity = { id: 12, email: 'b@finance.test', role: 'finance' };
const support: OperatorIdentity = { id: 13, email: 'support@ops.test', role: 'support' };
const USERS = new Set([7, 8]);

let store: Store;
let ledger: Ledger;
let approvals: ApprovalService;
const errors: unknown[] = [];

beforeAll(async () => {
  store = await openTestStore();
  const clock = new ManualClock();
  ledger = createLedger(store, clock);
  approvals = new ApprovalService({ db: store.db, ledger, clock, onError: (error) => errors.push(error) });
  approvals.register(
    BALANCE_ADJUSTMENT,
    balanceAdjustmentHandler({
      ledger,
      clock,
      requireUser: async (userId) => {
        if (!USERS.has(userId)) throw notFound('identity.accountNotFound');
      },
      knownCoins: async () => ['USDT', 'BTC'],
    }),
  );
});
afterAll(async () => {
  await store.close();
});
afterEach(async () => {
  await expectHealthyLedger(store.db);
  expect(errors).toEqual([]);
});

function adjustment(overrides: Partial<BalanceAdjustmentRequest> = {}): BalanceAdjustmentRequest {
  return {
    userId: 7,
    wallet: 'spot',
    coin: 'USDT',
    direction: 'credit',
    amount: '100.5',
    category: 'compensation',
    reason: 'outage of 3 May',
    ...overrides,
  };
}

function request(input: BalanceAdjustmentRequest, operator = financeA) {
  return approvals.request(BALANCE_ADJUSTMENT, input, operator, input.reason);
}

async function spotUsdt(userId: number): Promise<string> {
  return (await ledger.balance({ ...userAccount(userId, 'spot'), asset: 'USDT' })).available.toString();
}

async function refusal(promise: Promise<unknown>): Promise<{ key: string; params: unknown }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { key: error.key, params: error.params };
}

describe('four-eyes approvals', () => {
  it('refuses the requester approving their own request, and executes on a second operator', async () => {
    const before = await spotUsdt(7);
    const pending = await request(adjustment());
    expect(pending).toMatchObject({ status: 'pending', kind: BALANCE_ADJUSTMENT, subject: 'user:7' });
    expect((await refusal(approvals.approve(pending.id, financeA))).key).toBe('approvals.selfApproval');
    expect(await spotUsdt(7)).toBe(before);

    const { approval, failure } = await approvals.approve(pending.id, financeB);
    expect(failure).toBeNull();
    expect(approval).toMatchObject({
      status: 'executed',
      decidedBy: { id: financeB.id, email: financeB.email },
      result: { transferId: `adjustment:${pending.id}` },
    });
    expect(await spotUsdt(7)).toBe(Dec.parse(before).add(Dec.parse('100.5')).toString());
    const transfer = await ledger.transfer(`adjustment:${pending.id}`);
    expect(transfer).toMatchObject({ code: 'adjustment_compensation', reference: String(pending.id) });
    expect((await refusal(approvals.approve(pending.id, support))).key).toBe('approvals.notPending');
  });

  it('a rejected request does nothing, and cannot be approved afterwards', async () => {
    const before = await spotUsdt(7);
    const pending = await request(adjustment({ amount: '5' }));
    expect((await refusal(approvals.reject(pending.id, financeA, 'mine'))).key).toBe(
      'approvals.selfApproval',
    );
    expect((await refusal(approvals.reject(pending.id, financeB, '  '))).key).toBe(
      'approvals.reasonRequired',
    );
    const rejected = await approvals.reject(pending.id, financeB, 'no ticket for it');
    expect(rejected).toMatchObject({ status: 'rejected', decisionReason: 'no ticket for it' });
    expect((await refusal(approvals.approve(pending.id, financeB))).key).toBe('approvals.notPending');
    expect(await spotUsdt(7)).toBe(before);
    expect(await ledger.transfer(`adjustment:${pending.id}`)).toBeNull();
  });

  it('two approvals racing for one request execute it once', async () => {
    const before = await spotUsdt(8);
    const pending = await request(adjustment({ userId: 8, amount: '3' }));
    const outcomes = await Promise.allSettled([
      approvals.approve(pending.id, financeB),
      approvals.approve(pending.id, { ...financeB, id: 14, email: 'c@finance.test' }),
      approvals.approve(pending.id, financeB),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect((outcome.reason as AppError).key).toBe('approvals.notPending');
    }
    expect(await spotUsdt(8)).toBe(Dec.parse(before).add(Dec.parse('3')).toString());
  });

  it('debits through the ledger into the adjustments account', async () => {
    await approvals.approve((await request(adjustment({ userId: 8, amount: '50' }))).id, financeB);
    const before = await spotUsdt(8);
    const debit = await request(
      adjustment({ userId: 8, direction: 'debit', amount: '20', category: 'chargeback' }),
    );
    const { approval } = await approvals.approve(debit.id, financeB);
    expect(approval.status).toBe('executed');
    expect(await spotUsdt(8)).toBe(Dec.parse(before).sub(Dec.parse('20')).toString());
    const transfer = await ledger.transfer(`adjustment:${debit.id}`);
    expect(transfer?.credit).toEqual(systemAccount('operator_adjustments'));
  });

  it('refuses a debit beyond the available balance when asked, and records it failed if the balance went meanwhile', async () => {
    const before = await spotUsdt(7);
    const tooMuch = Dec.parse(before).add(Dec.ONE).toString();
    expect(await refusal(request(adjustment({ direction: 'debit', amount: tooMuch })))).toEqual({
      key: 'approvals.debitExceedsBalance',
      params: { available: before },
    });

    const all = await request(adjustment({ direction: 'debit', amount: before, category: 'correction' }));
    const firstHalf = await request(adjustment({ direction: 'debit', amount: '1', category: 'correction' }));
    await approvals.approve(firstHalf.id, financeB);
    const { approval, failure } = await approvals.approve(all.id, financeB);
    expect(failure?.key).toBe('approvals.debitExceedsBalance');
    expect(approval).toMatchObject({ status: 'failed', error: { key: 'approvals.debitExceedsBalance' } });
    expect(await spotUsdt(7)).toBe(Dec.parse(before).sub(Dec.ONE).toString());
    expect(await ledger.transfer(`adjustment:${all.id}`)).toBeNull();
  });

  it('refuses bad input with its message key and stores nothing', async () => {
    const cases: Array<[Partial<BalanceAdjustmentRequest>, string]> = [
      [{ userId: 0 }, 'approvals.userInvalid'],
      [{ userId: 99 }, 'identity.accountNotFound'],
      [{ wallet: 'fees' }, 'approvals.walletInvalid'],
      [{ wallet: '__proto__' }, 'approvals.walletInvalid'],
      [{ coin: 'usdt' }, 'approvals.coinInvalid'],
      [{ coin: 'DOGE' }, 'wallet.unknownCoin'],
      [{ direction: 'up' as 'credit' }, 'approvals.directionInvalid'],
      [{ amount: '0' }, 'approvals.amountInvalid'],
      [{ amount: '-1' }, 'approvals.amountInvalid'],
      [{ amount: '1e3' }, 'approvals.amountInvalid'],
      [{ amount: '0.0000000000000000001' }, 'rules.tooManyDecimals'],
      [{ category: 'gift' as 'promotion' }, 'approvals.categoryInvalid'],
      [{ reason: ' ' }, 'approvals.reasonRequired'],
    ];
    const before = (await approvals.list({ status: null, kind: null, limit: 500 })).length;
    for (const [overrides, key] of cases) {
      expect((await refusal(request(adjustment(overrides)))).key, JSON.stringify(overrides)).toBe(key);
    }
    expect((await approvals.list({ status: null, kind: null, limit: 500 })).length).toBe(before);
  });

  it('checks the permission to request and to approve', async () => {
    expect((await refusal(request(adjustment(), support))).key).toBe('common.forbidden');
    const pending = await request(adjustment({ amount: '1' }));
    expect((await refusal(approvals.approve(pending.id, support))).key).toBe('common.forbidden');
    expect((await refusal(approvals.reject(pending.id, support, 'no'))).key).toBe('common.forbidden');
    expect((await refusal(approvals.request('no_such_kind', {}, financeA, 'why'))).key).toBe(
      'approvals.unknownKind',
    );
    expect((await approvals.get(pending.id)).status).toBe('pending');
    expect((await approvals.list({ status: 'pending', kind: BALANCE_ADJUSTMENT, limit: 10 }))[0]?.id).toBe(
      pending.id,
    );
  });
});
