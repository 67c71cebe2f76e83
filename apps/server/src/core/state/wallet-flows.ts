// Over 500 lines: a withdrawal's whole life in the state (the request's checks
// and hold, the operators' reviews, the sender's outcomes, the day's room)
// shares one open-withdrawal record, its lookup and its refusals; the deposits
// before it are the small part, which the same edge (the wallet) submits.
import { Dec } from '@halyard/money';
import { checkWithdrawal, type RuleError } from '@halyard/rules';
import {
  type CustodyWallet,
  LEDGER_ERRORS,
  systemAccount,
  type TransferInput,
  userAccount,
} from '../../ledger/index.ts';
import type { Applied } from '../sequencer/index.ts';
import type {
  DepositCreditedCommand,
  DepositReversedCommand,
  MoneyEvent,
  MoneyResult,
  OperatorAudit,
  WithdrawalMove,
  WithdrawalOutcomeCommand,
  WithdrawalRecord,
  WithdrawalRequestedCommand,
  WithdrawalReviewedCommand,
} from './commands.ts';
import { available, type MoneyState } from './money-state.ts';
import { applyLedgerBatch } from './wallet-moves.ts';

/**
 * Deposits and withdrawals (docs/core.md "Deposits, withdrawals and
 * adjustments in the state"): the transfers and checks modules/wallet
 * (chain-watcher.ts, service.ts, sender.ts) and the money state share, so
 * both write the same ids, codes and references by construction, and the
 * state's side of a withdrawal's life (its step, its hold, an operator's
 * hold on it). The chain itself (finding deposits, signing, broadcasting,
 * reading receipts) stays at the edge, which reports what it saw as commands.
 */

// ── deposits ─────────────────────────────────────────────────────────────

/** A deposit's credit in one round: custody → the user's spot (the watcher's `deposit:<id>:<round>`). */
export interface DepositCredit {
  /** `${chainId}:${txHash}:${logIndex}`: the deposit row's id. */
  depositId: string;
  /** The credit round: a log credited again after a reorg is credited under a new id. */
  round: number;
  userId: number;
  custody: CustodyWallet;
  coin: string;
  amount: string;
}

export function depositCreditTransfer(credit: DepositCredit): TransferInput {
  return {
    id: `deposit:${credit.depositId}:${credit.round}`,
    code: 'deposit',
    reference: credit.depositId,
    debit: systemAccount(credit.custody),
    credit: userAccount(credit.userId, 'spot'),
    asset: credit.coin,
    amount: Dec.parse(credit.amount),
  };
}

/** A credit taken back after a reorg removed its deposit: the user's spot → custody, named after the credit. */
export function depositReversalTransfer(credit: DepositCredit): TransferInput {
  const credited = depositCreditTransfer(credit);
  return {
    id: `${credited.id}:reverse`,
    code: 'deposit_reversal',
    reference: credit.depositId,
    debit: userAccount(credit.userId, 'spot'),
    credit: systemAccount(credit.custody),
    asset: credit.coin,
    amount: Dec.parse(credit.amount),
  };
}

// ── withdrawals ──────────────────────────────────────────────────────────

export const withdrawalHoldId = (id: number) => `withdraw:${id}:hold`;

/** The coin's withdrawal terms as its row reads (decimal text), stamped by the edge. */
export interface WithdrawalTerms {
  min: string;
  max: string;
  dailyMax: string;
  fee: string;
  /** Above it, an operator reviews the withdrawal first. */
  approvalThreshold: string;
  /** The token's decimals: a finer amount cannot be sent. */
  decimals: number;
}

/** What the request's money checks read, besides the balance. */
export interface WithdrawalChecks {
  /** As typed. */
  amount: string;
  /** As typed (the rule wants one); the saved, checksummed address is checked at the edge. */
  address: string;
  /** Whether a fund password was typed: the password itself is checked at the edge, never journaled. */
  fundPasswordGiven: boolean;
  kycVerified: boolean;
  fundPasswordSet: boolean;
  /** What the user asked to withdraw of the coin today, rejected ones excepted. */
  withdrawnToday: string;
  terms: WithdrawalTerms;
}

/**
 * Spec §5 "Withdrawal": the rules of `checkWithdrawal` (access, amount,
 * address, fund password, range, daily maximum, then the balance less the
 * fee), then the token's decimals, in the module's order.
 */
export function withdrawalRequestRefusal(checks: WithdrawalChecks, spendable: Dec): RuleError | null {
  const { terms } = checks;
  const refusal = checkWithdrawal({
    amount: checks.amount,
    address: checks.address,
    // The rule only asks whether one was typed.
    fundPassword: checks.fundPasswordGiven ? 'typed' : '',
    min: terms.min,
    max: terms.max,
    dailyMax: terms.dailyMax,
    withdrawnToday: checks.withdrawnToday,
    usable: Dec.max(Dec.ZERO, spendable.sub(Dec.parse(terms.fee))).toString(),
    kycVerified: checks.kycVerified,
    fundPasswordSet: checks.fundPasswordSet,
  });
  if (refusal) return refusal;
  if (!Dec.parse(checks.amount).hasAtMostDigits(terms.decimals))
    return { key: 'rules.tooManyDecimals', params: { digits: terms.decimals } };
  return null;
}

/** Where a new withdrawal starts: with an operator above the coin's threshold, else with the signer. */
export function firstWithdrawalStep(amount: Dec, approvalThreshold: Dec): 'review' | 'approved' {
  return amount.gt(approvalThreshold) ? 'review' : 'approved';
}

/** The hold of amount + fee on the user's spot wallet, toward the chain's custody. */
export function withdrawalHoldTransfer(
  id: number,
  w: { userId: number; custody: CustodyWallet; coin: string; amount: Dec; fee: Dec },
): TransferInput {
  return {
    id: withdrawalHoldId(id),
    type: 'pending',
    code: 'withdraw',
    reference: String(id),
    debit: userAccount(w.userId, 'spot'),
    credit: systemAccount(w.custody),
    asset: w.coin,
    amount: w.amount.add(w.fee),
  };
}

/** The hold released: rejected by an operator, failed on chain, cancelled or refunded. */
export function withdrawalVoidTransfer(id: number): TransferInput {
  return {
    id: `withdraw:${id}:void`,
    type: 'void_pending',
    code: 'withdraw',
    reference: String(id),
    pendingId: withdrawalHoldId(id),
  };
}

/** Mined: the hold posted to custody, and the fee from custody to the fee account. */
export function withdrawalSettleTransfers(
  id: number,
  w: { custody: CustodyWallet; coin: string; amount: Dec; fee: Dec },
): TransferInput[] {
  return [
    {
      id: `withdraw:${id}:post`,
      type: 'post_pending',
      code: 'withdraw',
      reference: String(id),
      pendingId: withdrawalHoldId(id),
      amount: w.amount.add(w.fee),
    },
    {
      id: `withdraw:${id}:fee`,
      code: 'withdraw_fee',
      reference: String(id),
      debit: systemAccount(w.custody),
      credit: systemAccount('fees'),
      asset: w.coin,
      amount: w.fee,
    },
  ];
}

/** The steps of a withdrawal still open (the row's states before completed or rejected). */
export type WithdrawalStep = 'review' | 'approved' | 'broadcast' | 'flagged';

/** An open withdrawal as the state keeps it (immutable: a change puts a new object in). */
export interface OpenWithdrawal {
  id: number;
  userId: number;
  /** The request's `at`: its amount counts in that UTC day's room until it is rejected. */
  createdAt: number;
  coin: string;
  custody: CustodyWallet;
  amount: Dec;
  fee: Dec;
  step: WithdrawalStep;
  /** An operator's hold while in review: its reason, or null. */
  heldReason: string | null;
}

// ── the commands ─────────────────────────────────────────────────────────

type Outcome = Applied<MoneyResult, MoneyEvent>;

/** A deposit command's fields as the edge must send them; anything else is refused, never thrown on. */
function isMalformedDeposit(command: DepositCreditedCommand | DepositReversedCommand): boolean {
  return (
    typeof command.depositId !== 'string' ||
    !Number.isSafeInteger(command.round) ||
    command.round < 1 ||
    !isCustody(command.custody) ||
    Dec.tryParse(command.amount) === null
  );
}

/**
 * `depositCredited`: the credit, idempotent by its transfer id (a repeat
 * adds no transfer and publishes nothing); the deposit row is marked
 * completed behind.
 */
export function applyDepositCredited(
  state: MoneyState,
  command: DepositCreditedCommand,
  seq: number,
  emit: boolean,
): Outcome {
  if (isMalformedDeposit(command)) return malformed('deposit');
  const applied = applyLedgerBatch(state, [depositCreditTransfer(command)], command.at, seq, emit);
  if (!applied.result.ok || applied.events.length === 0) return applied;
  const deposit = { id: command.depositId, round: command.round, at: command.at };
  return { result: applied.result, events: [...applied.events, { type: 'depositCredited', deposit }] };
}

/**
 * `depositReversed`: a reorg took back a credited deposit. The credit of
 * its round is reversed, or refused as the ledger refuses it when the user
 * has spent it (the edge then marks it unpaid, freezes the user and retries
 * later). A repeat adds nothing; the row is marked rejected behind.
 */
export function applyDepositReversed(
  state: MoneyState,
  command: DepositReversedCommand,
  seq: number,
  emit: boolean,
): Outcome {
  if (isMalformedDeposit(command)) return malformed('deposit');
  const applied = applyLedgerBatch(state, [depositReversalTransfer(command)], command.at, seq, emit);
  if (!applied.result.ok || applied.events.length === 0) return applied;
  const deposit = { id: command.depositId, at: command.at };
  return { result: applied.result, events: [...applied.events, { type: 'depositReversed', deposit }] };
}

/**
 * `withdrawalRequested`: the money checks on the state's balance, then the
 * edge's own refusal if it stamped one (the checks the module makes after
 * them: the address saved, the lock, the freeze, the password), then the
 * hold under the state's next withdrawal id.
 */
export function applyWithdrawalRequested(
  state: MoneyState,
  command: WithdrawalRequestedCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const { terms } = command;
  if (
    !Number.isSafeInteger(command.userId) ||
    !isCustody(command.custody) ||
    typeof terms !== 'object' ||
    terms === null ||
    ![terms.min, terms.max, terms.dailyMax, terms.fee, terms.approvalThreshold].every(
      (text) => Dec.tryParse(text) !== null,
    ) ||
    !Number.isSafeInteger(terms.decimals)
  )
    return malformed('withdrawal');
  const spendable = available(state, userAccount(command.userId, 'spot'), command.coin);
  const withdrawnToday = withdrawnOnDay(state, command.userId, command.coin, command.at).toString();
  const refusal =
    withdrawalRequestRefusal({ ...command, withdrawnToday }, spendable) ?? edgeRefusalOf(command.edgeRefusal);
  if (refusal) return refused(refusal);
  const id = state.withdrawals.nextId;
  const amount = Dec.parse(command.amount);
  const fee = Dec.parse(terms.fee);
  const open: OpenWithdrawal = {
    id,
    userId: command.userId,
    createdAt: command.at,
    coin: command.coin,
    custody: command.custody,
    amount,
    fee,
    step: firstWithdrawalStep(amount, Dec.parse(terms.approvalThreshold)),
    heldReason: null,
  };
  const applied = applyLedgerBatch(state, [withdrawalHoldTransfer(id, open)], command.at, seq, emit);
  if (!applied.result.ok) return applied;
  state.withdrawals.nextId += 1;
  state.withdrawals.open.set(id, open);
  countInDay(state, open, amount);
  const withdrawal: WithdrawalRecord = {
    id,
    userId: command.userId,
    coin: command.coin,
    chainId: command.chainId,
    address: command.savedAddress,
    amount: amount.toString(),
    fee: fee.toString(),
    state: open.step as 'review' | 'approved',
    at: command.at,
  };
  return {
    result: { ok: true, transfers: applied.result.transfers, withdrawalId: id },
    events: emit ? [...applied.events, { type: 'withdrawalRequested', withdrawal }] : [],
  };
}

/**
 * `withdrawalReviewed`: an operator's decision on a withdrawal in review,
 * with the module's checks in its order (a reason where one is needed, the
 * withdrawal, in review, held or not). Approving hands it to the signer;
 * rejecting releases its hold; holding and lifting a hold move no money.
 */
export function applyWithdrawalReviewed(
  state: MoneyState,
  command: WithdrawalReviewedCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const why = typeof command.reason === 'string' ? command.reason.trim() : '';
  if (command.decision !== 'approve' && !why) return refused({ key: 'identity.reasonRequired' });
  const found = openWithdrawal(state, command.withdrawalId, 'wallet.withdrawalNotInReview');
  if ('key' in found) return refused(found);
  if (found.step !== 'review') return refused({ key: 'wallet.withdrawalNotInReview' });
  const audit = (action: string, details: Record<string, unknown>): OperatorAudit => ({
    operator: command.operator,
    action,
    details,
  });
  const { open } = state.withdrawals;
  switch (command.decision) {
    case 'approve': {
      if (found.heldReason !== null)
        return refused({ key: 'wallet.withdrawalHeld', params: { reason: found.heldReason } });
      open.set(found.id, { ...found, step: 'approved' });
      return moved(command.at, emit, null, {
        id: found.id,
        from: 'review',
        patch: { state: 'approved', decided_by: command.operator },
        audit: audit('withdrawal.approve', command.details ?? {}),
      });
    }
    case 'reject': {
      const applied = applyLedgerBatch(state, [withdrawalVoidTransfer(found.id)], command.at, seq, emit);
      if (!applied.result.ok) return applied;
      open.delete(found.id);
      countInDay(state, found, found.amount.neg());
      return moved(command.at, emit, applied, {
        id: found.id,
        from: 'review',
        patch: { state: 'rejected', reason: why, decided_by: command.operator },
        audit: audit('withdrawal.reject', { reason: why }),
      });
    }
    case 'hold':
    case 'releaseHold': {
      const holding = command.decision === 'hold';
      if ((found.heldReason !== null) === holding)
        return refused({ key: holding ? 'wallet.withdrawalAlreadyHeld' : 'wallet.withdrawalNotHeld' });
      open.set(found.id, { ...found, heldReason: holding ? why : null });
      return moved(command.at, emit, null, {
        id: found.id,
        from: 'review',
        patch: {},
        hold: holding ? { reason: why, by: command.operator, at: command.at } : null,
        audit: audit(holding ? 'withdrawal.hold' : 'withdrawal.releaseHold', { reason: why }),
      });
    }
    default:
      return malformed('decision');
  }
}

/** From which steps the sender (or an operator through it) may report each outcome. */
const OUTCOME_FROM: Record<WithdrawalOutcomeCommand['outcome'], readonly WithdrawalStep[]> = {
  sent: ['approved', 'broadcast', 'flagged'],
  flagged: ['broadcast'],
  mined: ['broadcast'],
  failed: ['approved', 'broadcast', 'flagged'],
};

/**
 * `withdrawalOutcome`: what the sender saw, from the step it saw the
 * withdrawal in (another writer may have moved it first: then nothing
 * happens, as the module's conditional move). Sent and flagged move no
 * money; mined posts the hold and pays the fee; failed releases the hold.
 */
export function applyWithdrawalOutcome(
  state: MoneyState,
  command: WithdrawalOutcomeCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const allowed = Object.hasOwn(OUTCOME_FROM, command.outcome) ? OUTCOME_FROM[command.outcome] : undefined;
  if (!allowed?.includes(command.from)) return malformed('outcome');
  const { tx } = command;
  const needsTx = command.outcome === 'sent' || command.outcome === 'mined';
  if (needsTx && (typeof tx !== 'object' || tx === null || !Number.isSafeInteger(tx.nonce)))
    return malformed('tx');
  const found = openWithdrawal(state, command.withdrawalId, 'wallet.withdrawalNotResendable');
  if ('key' in found) return refused(found);
  if (found.step !== command.from) return refused({ key: 'wallet.withdrawalNotResendable' });
  const { open } = state.withdrawals;
  const audit = command.audit ?? null;
  switch (command.outcome) {
    case 'sent':
      open.set(found.id, { ...found, step: 'broadcast' });
      return moved(command.at, emit, null, {
        id: found.id,
        from: command.from,
        patch: {
          state: 'broadcast',
          reason: null,
          tx_hash: tx!.hash,
          raw_tx: tx!.raw,
          nonce: tx!.nonce,
          hot_address: tx!.hotAddress,
        },
        audit,
      });
    case 'flagged':
      open.set(found.id, { ...found, step: 'flagged' });
      return moved(command.at, emit, null, {
        id: found.id,
        from: command.from,
        patch: { state: 'flagged', reason: command.reason ?? null },
        audit,
      });
    case 'mined': {
      const batch = withdrawalSettleTransfers(found.id, found);
      const applied = applyLedgerBatch(state, batch, command.at, seq, emit);
      if (!applied.result.ok) return applied;
      open.delete(found.id);
      return moved(command.at, emit, applied, {
        id: found.id,
        from: command.from,
        patch: { state: 'completed', tx_hash: tx!.hash, raw_tx: tx!.raw },
        audit,
      });
    }
    case 'failed': {
      const applied = applyLedgerBatch(state, [withdrawalVoidTransfer(found.id)], command.at, seq, emit);
      if (!applied.result.ok) return applied;
      open.delete(found.id);
      countInDay(state, found, found.amount.neg());
      return moved(command.at, emit, applied, {
        id: found.id,
        from: command.from,
        patch: { state: 'rejected', reason: command.reason ?? null },
        audit,
      });
    }
  }
}

const DAY_MS = 86_400_000;

/** The start of the UTC day of `at`, as the module's daily room counts from it. */
export function dayOf(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** What a user asked to withdraw of a coin on the day of `at`, rejected ones excepted (the module's `withdrawnSince`). */
function withdrawnOnDay(state: MoneyState, userId: number, coin: string, at: number): Dec {
  const entry = state.withdrawals.daily.get(dailyKey(userId, coin));
  return entry && entry.day === dayOf(at) ? entry.amount : Dec.ZERO;
}

/**
 * Counts a withdrawal in its day's room (a negative amount: it was
 * rejected). A user's entry holds one day only: a request on a later day
 * starts it again, and a rejection counts only on the day it was asked.
 */
function countInDay(state: MoneyState, w: OpenWithdrawal, amount: Dec): void {
  const { daily } = state.withdrawals;
  const key = dailyKey(w.userId, w.coin);
  const day = dayOf(w.createdAt);
  const entry = daily.get(key);
  if (entry && entry.day === day) daily.set(key, { ...entry, amount: entry.amount.add(amount) });
  else if (amount.isPositive() && (!entry || entry.day < day))
    daily.set(key, { userId: w.userId, coin: w.coin, day, amount });
}

export const dailyKey = (userId: number, coin: string) => `${userId}\t${coin}`;

/** One user's and coin's withdrawal room used on one UTC day. */
export interface DailyWithdrawn {
  userId: number;
  coin: string;
  /** The day's start (ms). */
  day: number;
  amount: Dec;
}

/**
 * The open withdrawal `id`, or the refusal: one the state numbered that is
 * no longer open (completed or rejected) gets `closedKey`, as the module
 * finds its row in another state; an id never given is not found.
 */
function openWithdrawal(state: MoneyState, id: number, closedKey: string): OpenWithdrawal | RuleError {
  const { withdrawals } = state;
  if (!Number.isSafeInteger(id)) return { key: 'wallet.withdrawalNotFound' };
  const found = withdrawals.open.get(id);
  if (found) return found;
  return id >= 1 && id < withdrawals.nextId ? { key: closedKey } : { key: 'wallet.withdrawalNotFound' };
}

/** The move's answer and events: after the transfers of `applied` (the batch it made), if any. */
function moved(
  at: number,
  emit: boolean,
  applied: Outcome | null,
  move: Omit<WithdrawalMove, 'at' | 'hold'> & { hold?: WithdrawalMove['hold'] },
): Outcome {
  const full: WithdrawalMove = { ...move, at };
  const transfers = applied?.result.ok ? (applied.result.transfers ?? []) : [];
  return {
    result: { ok: true, transfers, withdrawalId: move.id },
    events: emit ? [...(applied?.events ?? []), { type: 'withdrawalMoved', move: full }] : [],
  };
}

/** The edge's stamped refusal, if it is one (a malformed stamp is no refusal of the edge's: refused as malformed). */
function edgeRefusalOf(stamp: RuleError | null | undefined): RuleError | null {
  if (stamp === null || stamp === undefined) return null;
  if (typeof stamp.key !== 'string')
    return { key: LEDGER_ERRORS.invalidTransfer, params: { field: 'edgeRefusal' } };
  return stamp.params === undefined ? { key: stamp.key } : { key: stamp.key, params: stamp.params };
}

function isCustody(wallet: unknown): wallet is CustodyWallet {
  return typeof wallet === 'string' && wallet.startsWith('custody:') && wallet.length > 'custody:'.length;
}

export function refused(error: RuleError): Outcome {
  const result: MoneyResult =
    error.params === undefined
      ? { ok: false, error: error.key }
      : { ok: false, error: error.key, params: error.params };
  return { result, events: [] };
}

function malformed(field: string): Outcome {
  return { result: { ok: false, error: LEDGER_ERRORS.invalidTransfer, params: { field } }, events: [] };
}
