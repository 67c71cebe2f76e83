import { Dec } from '@halyard/money';
import {
  type AccountKey,
  type AccountRef,
  accountMapKey,
  accountMapKeyOf,
  invalidAccountField,
  isValidAsset,
  mayGoNegative,
} from './accounts.ts';
import { LEDGER_ERRORS, LedgerError } from './errors.ts';
import {
  BATCH_MAX,
  type HoldState,
  type MoveInput,
  type PostInput,
  type Transfer,
  type TransferInput,
  type VoidInput,
} from './transfers.ts';

/**
 * Deciding a batch, apart from reading and writing it: given what the database
 * holds for the accounts, transfers and holds a batch touches, work out every
 * transfer's effect in memory, or refuse. Nothing here does I/O, so a refusal
 * has changed nothing, and the rules can be read in one place.
 */

export interface AccountState {
  key: AccountKey;
  /** `accountMapKey(key)`, kept so the hot path does not build it again. */
  mapKey: string;
  /** null for an account this batch creates. */
  id: number | null;
  mayGoNegative: boolean;
  debitsPosted: Dec;
  creditsPosted: Dec;
  debitsPending: Dec;
  creditsPending: Dec;
  createdAt: number;
}

export interface HoldBalance {
  remaining: Dec;
  state: HoldState;
}

/** A hold as a batch sees it: its balance, and the accounts and asset of its pending transfer. */
export interface HoldEntry extends HoldBalance {
  debit: AccountRef;
  credit: AccountRef;
  asset: string;
}

/** A transfer this batch adds; its `seq` is given when it is written. */
export type PlannedTransfer = Omit<Transfer, 'seq'>;

/** A transfer a plan adds, with the map keys of its two accounts (the writer needs their ids). */
export interface NewTransfer extends PlannedTransfer {
  debitKey: string;
  creditKey: string;
}

/**
 * What the batches of one step see: what the database held, plus what the
 * batches planned before this one added. `mergePlan` folds a plan in.
 */
export interface LedgerState {
  /** Transfers by id: those of the batches' ids that exist (retries), and earlier plans'. */
  transfers: Map<string, PlannedTransfer>;
  /** Holds by pending transfer id: those the batches post or void, and earlier plans'. */
  holds: Map<string, HoldEntry>;
  /** Accounts by `accountMapKey`. */
  accounts: Map<string, AccountState>;
}

export interface Plan {
  /** One id per input, in order: the batch answers these transfers. */
  results: string[];
  newTransfers: NewTransfer[];
  /** Accounts whose totals changed, new ones included. */
  accounts: AccountState[];
  /** Holds created or changed, by pending transfer id. */
  holds: Map<string, HoldEntry>;
}

export function mergePlan(state: LedgerState, plan: Plan): void {
  for (const account of plan.accounts) state.accounts.set(account.mapKey, account);
  for (const [id, hold] of plan.holds) state.holds.set(id, hold);
  for (const transfer of plan.newTransfers) state.transfers.set(transfer.id, transfer);
}

const ID_LENGTH_MAX = 128;
const CODE_LENGTH_MAX = 32;
/** Far above any real amount, and well inside NUMERIC(48,18)'s 30 whole digits even when summed. */
export const AMOUNT_MAX = Dec.parse('1000000000000000000000000');

function isText(value: unknown, lengthMax: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= lengthMax;
}

function isAmount(value: unknown): value is Dec {
  return value instanceof Dec && value.isPositive() && value.lte(AMOUNT_MAX);
}

/** The first wrong field of an input, or null. Runs before anything is read. */
export function invalidInputField(input: TransferInput): string | null {
  if (!isText(input.id, ID_LENGTH_MAX)) return 'id';
  if (!isText(input.code, CODE_LENGTH_MAX)) return 'code';
  if (input.reference != null && !isText(input.reference, ID_LENGTH_MAX)) return 'reference';
  if (input.type === 'post_pending' || input.type === 'void_pending') {
    if (!isText(input.pendingId, ID_LENGTH_MAX)) return 'pendingId';
    return input.type === 'post_pending' && !isAmount(input.amount) ? 'amount' : null;
  }
  if (input.type !== undefined && input.type !== 'posted' && input.type !== 'pending') return 'type';
  if (!isValidAsset(input.asset)) return 'asset';
  if (!isAmount(input.amount)) return 'amount';
  const debitField = invalidAccountField(input.debit);
  if (debitField) return `debit.${debitField}`;
  const creditField = invalidAccountField(input.credit);
  if (creditField) return `credit.${creditField}`;
  return sameRef(input.debit, input.credit) ? 'credit' : null;
}

/** Refuses a batch whose shape is wrong (or longer than `lengthMax`), before the database is touched. */
export function assertBatchShape(batch: readonly TransferInput[], lengthMax = BATCH_MAX): void {
  if (batch.length === 0 || batch.length > lengthMax) {
    throw new LedgerError(LEDGER_ERRORS.invalidTransfer, null, { field: 'batch' });
  }
  const ids = new Set<string>();
  for (const input of batch) {
    const field = invalidInputField(input) ?? (ids.has(input.id) ? 'id' : null);
    if (field) throw new LedgerError(LEDGER_ERRORS.invalidTransfer, input.id ?? null, { field });
    ids.add(input.id);
  }
}

function sameRef(a: AccountRef, b: AccountRef): boolean {
  return a.owner === b.owner && a.wallet === b.wallet;
}

/** A retry must ask for exactly what the first request asked for. */
export function isSameRequest(input: TransferInput, stored: PlannedTransfer): boolean {
  const type = input.type ?? 'posted';
  if (type !== stored.type || input.code !== stored.code || (input.reference ?? null) !== stored.reference) {
    return false;
  }
  if (input.type === 'void_pending') return input.pendingId === stored.pendingId;
  if (input.type === 'post_pending')
    return input.pendingId === stored.pendingId && input.amount.eq(stored.amount);
  return (
    sameRef(input.debit, stored.debit) &&
    sameRef(input.credit, stored.credit) &&
    input.asset === stored.asset &&
    input.amount.eq(stored.amount)
  );
}

function keyOf(ref: AccountRef, asset: string): AccountKey {
  return { ...ref, asset } as AccountKey;
}

/**
 * Plans one batch, whose shape `assertBatchShape` has accepted, against the
 * state; throws a LedgerError to refuse it. The state is not changed.
 */
export function planBatch(snapshot: LedgerState, batch: readonly TransferInput[], now: number): Plan {
  const accounts = new Map<string, AccountState>();
  const holds = new Map<string, HoldEntry>();
  const plan: Plan = { results: [], newTransfers: [], accounts: [], holds };

  /** The account each reference object last named: a bulk names the same few references thousands of times. */
  const byRef = new Map<AccountRef, AccountState>();

  function account(ref: AccountRef, asset: string): AccountState {
    const named = byRef.get(ref);
    if (named?.key.asset === asset) return named;
    const mapKey = accountMapKeyOf(ref, asset);
    let state = accounts.get(mapKey);
    if (!state) {
      const stored = snapshot.accounts.get(mapKey);
      state = stored ? { ...stored } : newAccount(keyOf(ref, asset), now);
      accounts.set(mapKey, state);
    }
    byRef.set(ref, state);
    return state;
  }

  /** Only a pending transfer has a hold: any other id is not found. */
  function holdOf(input: PostInput | VoidInput): HoldEntry {
    const hold = holds.get(input.pendingId) ?? snapshot.holds.get(input.pendingId);
    if (!hold) throw new LedgerError(LEDGER_ERRORS.holdNotFound, input.id);
    if (hold.state !== 'open') throw new LedgerError(LEDGER_ERRORS.holdClosed, input.id);
    return hold;
  }

  function move(input: MoveInput): NewTransfer {
    const type = input.type ?? 'posted';
    const debit = account(input.debit, input.asset);
    const credit = account(input.credit, input.asset);
    if (type === 'pending') {
      debit.debitsPending = debit.debitsPending.add(input.amount);
      credit.creditsPending = credit.creditsPending.add(input.amount);
      holds.set(input.id, {
        remaining: input.amount,
        state: 'open',
        debit: input.debit,
        credit: input.credit,
        asset: input.asset,
      });
    } else {
      debit.debitsPosted = debit.debitsPosted.add(input.amount);
      credit.creditsPosted = credit.creditsPosted.add(input.amount);
    }
    assertNotOverdrawn(debit, input.id);
    return transferOf(input, type, input.debit, input.credit, input.asset, input.amount, null, now, [
      debit,
      credit,
    ]);
  }

  function settle(input: PostInput | VoidInput): NewTransfer {
    const hold = holdOf(input);
    const amount = input.type === 'post_pending' ? input.amount : hold.remaining;
    if (amount.gt(hold.remaining)) throw new LedgerError(LEDGER_ERRORS.exceedsHold, input.id);
    const debit = account(hold.debit, hold.asset);
    const credit = account(hold.credit, hold.asset);
    debit.debitsPending = debit.debitsPending.sub(amount);
    credit.creditsPending = credit.creditsPending.sub(amount);
    const remaining = hold.remaining.sub(amount);
    if (input.type === 'post_pending') {
      debit.debitsPosted = debit.debitsPosted.add(amount);
      credit.creditsPosted = credit.creditsPosted.add(amount);
      holds.set(input.pendingId, { ...hold, remaining, state: remaining.isZero() ? 'posted' : 'open' });
    } else {
      holds.set(input.pendingId, { ...hold, remaining, state: 'voided' });
    }
    return transferOf(input, input.type, hold.debit, hold.credit, hold.asset, amount, input.pendingId, now, [
      debit,
      credit,
    ]);
  }

  for (const input of batch) {
    const existing = snapshot.transfers.get(input.id);
    if (existing) {
      if (!isSameRequest(input, existing)) throw new LedgerError(LEDGER_ERRORS.idConflict, input.id);
      plan.results.push(existing.id);
      continue;
    }
    const planned =
      input.type === 'post_pending' || input.type === 'void_pending' ? settle(input) : move(input);
    plan.newTransfers.push(planned);
    plan.results.push(planned.id);
  }
  plan.accounts = [...accounts.values()];
  return plan;
}

function newAccount(key: AccountKey, now: number): AccountState {
  return {
    key,
    mapKey: accountMapKey(key),
    id: null,
    mayGoNegative: mayGoNegative(key),
    debitsPosted: Dec.ZERO,
    creditsPosted: Dec.ZERO,
    debitsPending: Dec.ZERO,
    creditsPending: Dec.ZERO,
    createdAt: now,
  };
}

/** The overdraft rule: debits, posted and reserved, never exceed posted credits. */
export function isOverdrawn(
  account: Pick<AccountState, 'debitsPosted' | 'debitsPending' | 'creditsPosted'>,
): boolean {
  return account.debitsPosted.add(account.debitsPending).gt(account.creditsPosted);
}

function assertNotOverdrawn(account: AccountState, transferId: string): void {
  if (!account.mayGoNegative && isOverdrawn(account)) {
    throw new LedgerError(LEDGER_ERRORS.insufficientBalance, transferId);
  }
}

function transferOf(
  input: TransferInput,
  type: Transfer['type'],
  debit: AccountRef,
  credit: AccountRef,
  asset: string,
  amount: Dec,
  pendingId: string | null,
  now: number,
  [debitAccount, creditAccount]: [AccountState, AccountState],
): NewTransfer {
  return {
    id: input.id,
    type,
    debit,
    credit,
    asset,
    amount,
    code: input.code,
    reference: input.reference ?? null,
    pendingId,
    timestamp: now,
    debitKey: debitAccount.mapKey,
    creditKey: creditAccount.mapKey,
  };
}
