import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prng } from '../../core/state/command-stream.ts';
import type { BalanceAdjustment, MoneyResult } from '../../core/state/index.ts';
import type { OperatorIdentity } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { systemAccount, type TransferInput, type UserWallet, userAccount } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { expectLedgerEquivalent, ledgerSoFar, ProjectedState } from '../../projection/equivalence-support.ts';
import { openTestStore } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import { type Harness, registerByEmail, startHarness } from '../identity/test-support.ts';
import { BALANCE_ADJUSTMENT } from './adjustments.ts';
import { approvalsProjection } from './projection.ts';
import { approvalStore as sql } from './store.ts';

/**
 * The proof that the money state's `adjust` can replace the execution of an
 * operator's balance adjustment after its second signature: one seeded
 * stream of adjustment requests (credits and debits of each wallet, fair,
 * beyond the balance, or fair when asked and beyond it by the approval) and
 * approvals runs
 *
 *   (a) through ApprovalService on a test app (request, then a second
 *       operator's approve, which validates again and executes);
 *   (b) at the edge, the request and the decision written as the framework
 *       writes them, then `adjust` submitted to the money state (twice: a
 *       repeat pays nothing), the ledger's and the approvals' writers
 *       writing behind, and a refusal recorded as the framework records it.
 *
 * Every answer (the transfer, or the refusal with its parameters), every
 * request row, every transfer and every account's totals must be equal.
 */

const SEED = Number(process.env.APPROVALS_EQUIVALENCE_SEED ?? 19_2028);
const STEPS = Number(process.env.APPROVALS_EQUIVALENCE_STEPS ?? 200);
const TIME_ZERO = Date.UTC(2026, 10, 26, 2);
const REQUESTER: OperatorIdentity = { id: 11, email: 'first@example.com', role: 'bootstrap' };
const APPROVER: OperatorIdentity = { id: 12, email: 'second@example.com', role: 'bootstrap' };
const WALLETS: readonly UserWallet[] = ['spot', 'futures', 'fiat'];
const CATEGORIES = ['compensation', 'correction', 'promotion', 'chargeback'] as const;

type Answer = { ok: true; transferId: string } | { ok: false; error: string; params?: unknown };

let h: Harness;
let side: ProjectedState;
let users: number[];

beforeEach(async () => {
  h = await startHarness();
  h.clock.set(TIME_ZERO);
  users = [];
  for (let index = 0; index < 3; index++)
    users.push((await registerByEmail(h, `adjusted${index}@example.com`)).member.id);
  side = new ProjectedState(await openTestStore(), [ledgerProjection, approvalsProjection]);
  // What the demo seeded in the ledger is the state's start too.
  for (const command of await ledgerSoFar(h.store.db)) expect(side.apply(command).ok).toBe(true);
});

afterEach(async () => {
  await h.close();
  await side.store.close();
});

/** A request's payload: mostly fair; a debit now and then beyond the wallet, or large enough to be beyond it by the approval. */
function payloadOf(random: (below: number) => number): BalanceAdjustment {
  const direction = random(100) < 55 ? 'debit' : 'credit';
  const roll = random(100);
  const amount =
    roll < 10 ? '1000000' : roll < 55 ? (300 + random(400)).toString() : (1 + random(150)).toString();
  return {
    userId: users[random(users.length)]!,
    wallet: WALLETS[random(WALLETS.length)]!,
    coin: random(4) === 0 ? 'BTC' : 'USDT',
    direction,
    amount,
    category: CATEGORIES[random(CATEGORIES.length)]!,
    reason: `ticket ${random(1000)}`,
  };
}

function refusalOf(error: unknown): Answer {
  if (!(error instanceof AppError)) throw error;
  return Object.keys(error.params).length === 0
    ? { ok: false, error: error.key }
    : { ok: false, error: error.key, params: error.params };
}

function answerOf(result: MoneyResult): Answer {
  if (!result.ok) return result.params === undefined ? { ok: false, error: result.error } : { ...result };
  return { ok: true, transferId: result.transfers![0]! };
}

/** The request, on both sides: the module stores it; the edge writes the same row to the projected database. */
async function request(payload: BalanceAdjustment): Promise<number | null> {
  try {
    const view = await h.app.approvals.service.request(
      BALANCE_ADJUSTMENT,
      payload,
      REQUESTER,
      payload.reason,
    );
    const row = await sql.byId(h.store.db, view.id);
    const copy = await sql.insert(side.store.db, {
      kind: row!.kind,
      subject: row!.subject,
      payload: row!.payload,
      summary: row!.summary,
      reason: row!.reason,
      requestedBy: row!.requested_by,
      requestedByEmail: row!.requested_by_email,
      requestedAt: Number(row!.requested_at),
    });
    expect(Number(copy.id)).toBe(view.id);
    return view.id;
  } catch (error) {
    // Refused when asked (a debit beyond the wallet now): nothing stored, nothing to approve.
    refusalOf(error);
    return null;
  }
}

/** The approval: the module validates again and executes; the edge decides, submits `adjust` twice, records a refusal. */
async function approve(id: number): Promise<Answer> {
  const { approval, failure } = await h.app.approvals.service.approve(id, APPROVER);
  const fromModule: Answer = failure
    ? refusalOf(failure)
    : { ok: true, transferId: (approval.result as { transferId: string }).transferId };

  const at = h.clock.now();
  const decision = { by: String(APPROVER.id), email: APPROVER.email, at, reason: null };
  expect(await sql.decide(side.store.db, id, 'approved', decision)).toBe(true);
  const row = await sql.byId(side.store.db, id);
  const command = {
    kind: 'adjust' as const,
    at,
    requestId: id,
    adjustment: JSON.parse(row!.payload) as BalanceAdjustment,
  };
  const first = side.apply(command);
  const transfers = side.state.ledger.transfers.size;
  // A repeat (the edge retrying after a lost answer) pays nothing and answers alike.
  expect(side.apply(command)).toEqual(first);
  expect(side.state.ledger.transfers.size).toBe(transfers);
  if (!first.ok) {
    await side.write();
    const error = JSON.stringify({ key: first.error, params: first.params ?? {} });
    await sql.finish(side.store.db, id, { status: 'failed', error });
  }
  expect(answerOf(first), JSON.stringify(command)).toEqual(fromModule);
  return fromModule;
}

async function fund(userId: number, wallet: UserWallet, asset: string, amount: string): Promise<void> {
  const batch: TransferInput[] = [
    {
      id: `equivalence:fund:${userId}:${wallet}:${asset}`,
      debit: systemAccount('treasury'),
      credit: userAccount(userId, wallet),
      asset,
      amount: Dec.parse(amount),
      code: 'test_funding',
    },
  ];
  await h.app.ledger.execute(batch);
  expect(side.apply({ kind: 'transfer', at: h.clock.now(), batch }).ok).toBe(true);
}

function requestRows(db: Executor) {
  return db.selectFrom('approval_requests').selectAll().orderBy('id').execute();
}

describe('the money state in place of the adjustments module', () => {
  it(`writes the transfers, balances and request rows the module writes (${STEPS} steps, seed ${SEED})`, async () => {
    const random = prng(SEED);
    const writeEvery = prng(SEED + 1);
    for (const userId of users)
      for (const wallet of WALLETS) {
        await fund(userId, wallet, 'USDT', '1000');
        await fund(userId, wallet, 'BTC', '200');
      }
    // Two debits each fair when asked, together beyond the wallet: the second is refused at its approval.
    const twice: BalanceAdjustment = {
      userId: users[0]!,
      wallet: 'spot',
      coin: 'USDT',
      direction: 'debit',
      amount: '700',
      category: 'correction',
      reason: 'double entry',
    };
    const [first, second] = [await request(twice), await request(twice)];
    expect(await approve(first!)).toMatchObject({ ok: true });
    expect(await approve(second!)).toEqual({
      ok: false,
      error: 'approvals.debitExceedsBalance',
      params: { available: '300' },
    });
    const pending: number[] = [];
    const counts = new Map<string, number>();
    const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
    for (let index = 0; index < STEPS; index++) {
      h.clock.set(h.clock.now() + 1 + random(60_000));
      // Requests pile up and are approved later, so a debit fair when asked may be beyond the wallet by then.
      if (pending.length === 0 || random(100) < 60) {
        const id = await request(payloadOf(random));
        if (id === null) count('refused when asked');
        else pending.push(id);
      } else {
        const [id] = pending.splice(random(pending.length), 1);
        const answer = await approve(id!);
        count(answer.ok ? 'executed' : answer.error);
        // Approving again is the framework's refusal at the edge: no command.
        await expect(h.app.approvals.service.approve(id!, APPROVER)).rejects.toMatchObject({
          key: 'approvals.notPending',
        });
      }
      if (writeEvery(4) === 0) await side.write();
    }
    await side.write();

    const [a, b] = [h.store.db, side.store.db];
    await expectLedgerEquivalent(a, b, side.state, { accountTimes: false });
    expect(await requestRows(b)).toEqual(await requestRows(a));
    const report = JSON.stringify(Object.fromEntries(counts));
    for (const key of ['executed', 'refused when asked'])
      expect(counts.get(key) ?? 0, `${key} in ${report}`).toBeGreaterThan(0);
    await expectHealthyLedger(a);
    await expectHealthyLedger(b);
  }, 120_000);
});
