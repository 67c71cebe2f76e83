import { Dec } from '@halyard/money';
import {
  type AccountKey,
  type AccountRef,
  accountKey,
  accountMapKey,
  accountMapKeyOf,
  invalidAccountField,
  isValidAsset,
  mayGoNegative,
} from './accounts.ts';
import { LEDGER_ERRORS, LedgerError, type LedgerErrorKey } from './errors.ts';
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
 * holds for the accounts, transfers and holds a batch touches (or the whole
 * money state, in core/state), apply every transfer's effect in memory, or
 * refuse. Nothing here does I/O, and a refusal leaves the state as it was, so
 * the rules can be read in one place.
 *
 * This is the sequenced core's hot path (a replay runs it a million times), so
 * it changes the state in place with an undo list instead of copying what it
 * touches, and answers a refusal as a value: a LedgerError, with its stack
 * trace, is built only where the SQL ledger throws to its callers.
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
 * A map whose values `applyBatch` changes in place. It is told first, by
 * `beforeChange`, when it has one: the money state's TrackedMap then keeps a
 * copy of the value for the snapshot being read.
 */
export interface InPlaceMap<V> extends Map<string, V> {
  beforeChange?(key: string): void;
}

/**
 * The ledger's accounts by map key. `find`, when the map has one, answers
 * what `get(accountMapKeyOf(ref, asset))` would without building the key
 * (the money state's LedgerAccounts).
 */
export interface AccountsMap extends InPlaceMap<AccountState> {
  find?(ref: AccountRef, asset: string): AccountState | undefined;
}

/** The account of `ref` in `asset`, or undefined. `mapKey`: its key, when the caller built it already. */
export function findAccount(
  accounts: AccountsMap,
  ref: AccountRef,
  asset: string,
  mapKey?: string,
): AccountState | undefined {
  return accounts.find ? accounts.find(ref, asset) : accounts.get(mapKey ?? accountMapKeyOf(ref, asset));
}

/**
 * What the batches of one step see: what the database held, plus what the
 * batches applied before this one did.
 */
export interface LedgerState {
  /** Transfers by id: those of the batches' ids that exist (retries), and earlier batches'. */
  transfers: Map<string, PlannedTransfer>;
  /** Holds by pending transfer id: those the batches post or void, and earlier batches'. Replaced, never changed. */
  holds: Map<string, HoldEntry>;
  /** Accounts by `accountMapKey`; their totals are changed in place. */
  accounts: AccountsMap;
}

/** What an accepted batch did; the state holds it already. */
export interface Plan {
  /** One id per input, in order: the batch answers these transfers. */
  results: string[];
  newTransfers: NewTransfer[];
  /** The new transfers whose ids are not `derived`: those a retry may name, which the state remembers. */
  remembered: NewTransfer[];
  /** Accounts whose totals changed, new ones included (the objects in the state). */
  accounts: AccountState[];
  /** The pending transfer ids of the holds created or changed (their entries are in the state). */
  holds: string[];
}

/** A refusal as a value; `ledgerErrorOf` makes the LedgerError the SQL ledger throws. */
export interface LedgerRefusal {
  refused: LedgerErrorKey;
  /** The transfer refused; null when the batch as a whole is. */
  transferId: string | null;
  params?: Record<string, string>;
}

export function isLedgerRefusal<T extends object>(outcome: T | LedgerRefusal): outcome is LedgerRefusal {
  return 'refused' in outcome;
}

export function ledgerErrorOf(refusal: LedgerRefusal): LedgerError {
  return new LedgerError(refusal.refused, refusal.transferId, refusal.params);
}

function refusal(refused: LedgerErrorKey, transferId: string | null): LedgerRefusal {
  return { refused, transferId };
}

/** An account as it was, for a copy-on-write snapshot (TrackedMap's `copy`). */
export function copyAccount(account: AccountState): AccountState {
  return { ...account };
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
  if (input.derived !== undefined && input.derived !== true) return 'derived';
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

/** Why a batch's shape is wrong (or it is longer than `lengthMax`), or null; before the database is touched. */
export function batchShapeRefusal(
  batch: readonly TransferInput[],
  lengthMax = BATCH_MAX,
): LedgerRefusal | null {
  if (batch.length === 0 || batch.length > lengthMax) {
    return { refused: LEDGER_ERRORS.invalidTransfer, transferId: null, params: { field: 'batch' } };
  }
  // A lone input (most batches) needs no set to be distinct.
  const ids = batch.length > 1 ? new Set<string>() : null;
  for (const input of batch) {
    const field = invalidInputField(input) ?? (ids?.has(input.id) ? 'id' : null);
    if (field)
      return { refused: LEDGER_ERRORS.invalidTransfer, transferId: input.id ?? null, params: { field } };
    ids?.add(input.id);
  }
  return null;
}

/** `batchShapeRefusal`, thrown as its LedgerError. */
export function assertBatchShape(batch: readonly TransferInput[], lengthMax = BATCH_MAX): void {
  const refused = batchShapeRefusal(batch, lengthMax);
  if (refused) throw ledgerErrorOf(refused);
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

/**
 * Applies one batch, whose shape `batchShapeRefusal` has accepted, to the
 * state in place, all or nothing: it answers what the batch did, or its
 * refusal with the state as it was before.
 */
export function applyBatch(
  state: LedgerState,
  batch: readonly TransferInput[],
  now: number,
): Plan | LedgerRefusal {
  const changes = new BatchChanges(state, now);
  const results: string[] = [];
  for (const input of batch) {
    const existing = input.derived ? undefined : state.transfers.get(input.id);
    if (existing) {
      if (!isSameRequest(input, existing)) return changes.undo(refusal(LEDGER_ERRORS.idConflict, input.id));
      results.push(existing.id);
      continue;
    }
    const applied =
      input.type === 'post_pending' || input.type === 'void_pending'
        ? settle(changes, input)
        : move(changes, input);
    if (isLedgerRefusal(applied)) return changes.undo(applied);
    changes.addTransfer(applied, input.derived !== true);
    results.push(applied.id);
  }
  return {
    results,
    newTransfers: changes.transfers,
    remembered: changes.remembered,
    accounts: changes.accounts,
    holds: changes.holdIds,
  };
}

/** `applyBatch`, its refusal thrown as a LedgerError. */
export function applyBatchOrThrow(state: LedgerState, batch: readonly TransferInput[], now: number): Plan {
  const applied = applyBatch(state, batch, now);
  if (isLedgerRefusal(applied)) throw ledgerErrorOf(applied);
  return applied;
}

/** Moves `amount` now (posted) or reserves it (pending, a hold). */
function move(changes: BatchChanges, input: MoveInput): NewTransfer | LedgerRefusal {
  const type = input.type ?? 'posted';
  const debit = changes.account(input.debit, input.asset, DEBIT);
  const credit = changes.account(input.credit, input.asset, CREDIT);
  if (type === 'pending') {
    debit.debitsPending = debit.debitsPending.add(input.amount);
    credit.creditsPending = credit.creditsPending.add(input.amount);
    changes.setHold(input.id, {
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
  if (!debit.mayGoNegative && isOverdrawn(debit)) return refusal(LEDGER_ERRORS.insufficientBalance, input.id);
  return transferOf(
    input,
    type,
    input.debit,
    input.credit,
    input.asset,
    input.amount,
    null,
    changes.now,
    debit,
    credit,
  );
}

/** Posts part of a hold, or voids what it still reserves. Only a pending transfer has a hold. */
function settle(changes: BatchChanges, input: PostInput | VoidInput): NewTransfer | LedgerRefusal {
  const hold = changes.state.holds.get(input.pendingId);
  if (!hold) return refusal(LEDGER_ERRORS.holdNotFound, input.id);
  if (hold.state !== 'open') return refusal(LEDGER_ERRORS.holdClosed, input.id);
  const amount = input.type === 'post_pending' ? input.amount : hold.remaining;
  if (amount.gt(hold.remaining)) return refusal(LEDGER_ERRORS.exceedsHold, input.id);
  const debit = changes.account(hold.debit, hold.asset, DEBIT);
  const credit = changes.account(hold.credit, hold.asset, CREDIT);
  debit.debitsPending = debit.debitsPending.sub(amount);
  credit.creditsPending = credit.creditsPending.sub(amount);
  const remaining = hold.remaining.sub(amount);
  if (input.type === 'post_pending') {
    debit.debitsPosted = debit.debitsPosted.add(amount);
    credit.creditsPosted = credit.creditsPosted.add(amount);
    changes.setHold(input.pendingId, holdAfter(hold, remaining, remaining.isZero() ? 'posted' : 'open'));
  } else {
    changes.setHold(input.pendingId, holdAfter(hold, remaining, 'voided'));
  }
  return transferOf(
    input,
    input.type,
    hold.debit,
    hold.credit,
    hold.asset,
    amount,
    input.pendingId,
    changes.now,
    debit,
    credit,
  );
}

/**
 * The hold with what it still reserves and its state changed, field by field
 * like the orders' fills (`{ ...hold, remaining, state }` was a third of
 * `settle`'s own time in the replay; docs/core.md "Stop 38").
 */
function holdAfter(hold: HoldEntry, remaining: Dec, state: HoldEntry['state']): HoldEntry {
  return { remaining, state, debit: hold.debit, credit: hold.credit, asset: hold.asset };
}

const DEBIT = 0;
const CREDIT = 1;
/** Past this many accounts a batch looks up the ones it touched by key, not by scanning them. */
const SCAN_MAX = 16;

/**
 * What one batch changed, to undo it on a refusal: each account it touched
 * with its totals before (it changes them in place), each hold with the entry
 * it replaced, each transfer it added (into `state.transfers` at once:
 * the batches after it see them).
 */
class BatchChanges {
  readonly accounts: AccountState[] = [];
  /** Per account in `accounts`, four totals as they were; null in place of the first for an account it created. */
  private readonly totalsBefore: (Dec | null)[] = [];
  /** `accounts` by map key, once there are more than SCAN_MAX. */
  private byKey: Map<string, AccountState> | null = null;
  readonly transfers: NewTransfer[] = [];
  /** Those of `transfers` put in `state.transfers` too (all but the derived ones). */
  readonly remembered: NewTransfer[] = [];
  readonly holdIds: string[] = [];
  /** Per id in `holdIds`, the entry it replaced (undefined: none). */
  private readonly holdsBefore: (HoldEntry | undefined)[] = [];
  /** The account each side's reference object last named: a bulk names the same few references thousands of times. */
  private debitRef: AccountRef | null = null;
  private debitAccount: AccountState | null = null;
  private creditRef: AccountRef | null = null;
  private creditAccount: AccountState | null = null;

  constructor(
    readonly state: LedgerState,
    readonly now: number,
  ) {}

  /** The account of `ref` in `asset`, ready to be changed in place (created if need be). */
  account(ref: AccountRef, asset: string, side: typeof DEBIT | typeof CREDIT): AccountState {
    const debit = side === DEBIT;
    const last = debit ? this.debitAccount : this.creditAccount;
    if (last !== null && (debit ? this.debitRef : this.creditRef) === ref && last.key.asset === asset)
      return last;
    const account = this.byKey === null ? this.touchedFew(ref, asset) : this.touchedMany(ref, asset);
    if (debit) {
      this.debitRef = ref;
      this.debitAccount = account;
    } else {
      this.creditRef = ref;
      this.creditAccount = account;
    }
    return account;
  }

  /**
   * While the batch touched few accounts: one of them, found by comparing
   * fields, which is cheaper than finding it among a million; else the
   * state's.
   */
  private touchedFew(ref: AccountRef, asset: string): AccountState {
    for (const account of this.accounts) {
      const key = account.key;
      if (key.asset === asset && key.owner === ref.owner && key.wallet === ref.wallet) return account;
    }
    return this.touchFirst(ref, asset);
  }

  /** Past SCAN_MAX accounts: by its key, built once for the batch's map and the state's. */
  private touchedMany(ref: AccountRef, asset: string): AccountState {
    const mapKey = accountMapKeyOf(ref, asset);
    return this.byKey!.get(mapKey) ?? this.touchFirst(ref, asset, mapKey);
  }

  /** The account in the state (created if need be), its totals noted before the batch changes them. */
  private touchFirst(ref: AccountRef, asset: string, mapKey?: string): AccountState {
    const accounts = this.state.accounts;
    let account = findAccount(accounts, ref, asset, mapKey);
    if (account === undefined) {
      account = newAccount(accountKey(ref, asset), this.now);
      accounts.set(account.mapKey, account);
      this.totalsBefore.push(null, null, null, null);
    } else {
      accounts.beforeChange?.(account.mapKey);
      this.totalsBefore.push(
        account.debitsPosted,
        account.creditsPosted,
        account.debitsPending,
        account.creditsPending,
      );
    }
    this.accounts.push(account);
    if (this.byKey !== null) this.byKey.set(account.mapKey, account);
    else if (this.accounts.length > SCAN_MAX)
      this.byKey = new Map(this.accounts.map((touched) => [touched.mapKey, touched]));
    return account;
  }

  addTransfer(transfer: NewTransfer, remember: boolean): void {
    this.transfers.push(transfer);
    if (!remember) return;
    this.remembered.push(transfer);
    this.state.transfers.set(transfer.id, transfer);
  }

  setHold(id: string, entry: HoldEntry): void {
    this.holdIds.push(id);
    this.holdsBefore.push(this.state.holds.get(id));
    this.state.holds.set(id, entry);
  }

  /** Puts everything back as it was before the batch; answers the refusal. */
  undo(refused: LedgerRefusal): LedgerRefusal {
    const { accounts, holds, transfers } = this.state;
    for (const transfer of this.remembered) transfers.delete(transfer.id);
    for (let index = this.holdIds.length - 1; index >= 0; index--) {
      const before = this.holdsBefore[index];
      if (before === undefined) holds.delete(this.holdIds[index]!);
      else holds.set(this.holdIds[index]!, before);
    }
    this.accounts.forEach((account, index) => {
      const totals = index * 4;
      const debitsPosted = this.totalsBefore[totals];
      if (debitsPosted === null) {
        accounts.delete(account.mapKey);
        return;
      }
      account.debitsPosted = debitsPosted!;
      account.creditsPosted = this.totalsBefore[totals + 1]!;
      account.debitsPending = this.totalsBefore[totals + 2]!;
      account.creditsPending = this.totalsBefore[totals + 3]!;
    });
    return refused;
  }
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
  return account.debitsPosted.units + account.debitsPending.units > account.creditsPosted.units;
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
  debitAccount: AccountState,
  creditAccount: AccountState,
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
