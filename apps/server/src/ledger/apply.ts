import { Dec } from '@halyard/money';
import type { Executor } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import {
  type AccountKey,
  type AccountRef,
  accountKey,
  accountMapKey,
  accountMapKeyOf,
  accountRefFromColumns,
  ownerColumn,
} from './accounts.ts';
import { isLedgerError, type LedgerError } from './errors.ts';
import {
  type AccountState,
  applyBatch,
  applyBatchOrThrow,
  assertBatchShape,
  batchShapeRefusal,
  type HoldEntry,
  isLedgerRefusal,
  type LedgerState,
  ledgerErrorOf,
  type NewTransfer,
  type Plan,
} from './plan.ts';
import { type AccountRow, ledgerStore, type TransferRow } from './store.ts';
import { BULK_MAX, type Transfer, type TransferInput } from './transfers.ts';

/**
 * Several batches inside one open transaction, each all-or-nothing on its
 * own: read everything they touch in a few statements (locking the account
 * rows on PostgreSQL), plan them one after another in memory (each sees the
 * ones before it), then write what the accepted ones did in a few statements.
 * Answers, per batch, its transfers or the LedgerError that refused it; a
 * refused batch contributes nothing to the writes. Any other error is thrown
 * and the caller must roll the transaction back.
 */
export async function applyBatches(
  trx: Executor,
  dialect: DialectName,
  batches: readonly (readonly TransferInput[])[],
  now: number,
): Promise<(Transfer[] | LedgerError)[]> {
  const outcomes: (string[] | LedgerError)[] = batches.map((batch) => refusalOfShape(batch) ?? []);
  const valid = batches.filter((_, index) => !isLedgerError(outcomes[index]));
  const { state, loaded } = await readState(trx, dialect, valid);
  const written = new Written();
  batches.forEach((batch, index) => {
    if (isLedgerError(outcomes[index])) return;
    // The batches after this one see what it did: it is applied to `state`.
    const plan = applyBatch(state, batch, now);
    if (isLedgerRefusal(plan)) {
      outcomes[index] = ledgerErrorOf(plan);
      return;
    }
    written.add(plan, state);
    outcomes[index] = plan.results;
  });
  const seqs = await writeState(trx, written, 'answer');
  const writtenById = new Map(written.transfers.map((transfer) => [transfer.id, transfer]));
  return outcomes.map((outcome) => {
    if (isLedgerError(outcome)) return outcome;
    return outcome.map((id) => {
      const stored = loaded.get(id);
      if (stored) return stored;
      const transfer = writtenById.get(id);
      const seq = seqs.get(id);
      if (!transfer || seq === undefined)
        throw new Error(`ledger: transfer ${id} is neither stored nor written`);
      const { debitKey: _debit, creditKey: _credit, ...planned } = transfer;
      return { seq, ...planned };
    });
  });
}

/**
 * Up to BULK_MAX transfers inside one open transaction, all-or-nothing and
 * checked in order like one batch, answering nothing: the same reads, plan and
 * writes as `applyBatches` without building a Transfer per input. A refusal
 * throws its LedgerError before anything is written.
 */
export async function applyBulk(
  trx: Executor,
  dialect: DialectName,
  transfers: readonly TransferInput[],
  now: number,
): Promise<void> {
  assertBatchShape(transfers, BULK_MAX);
  const { state } = await readState(trx, dialect, [transfers]);
  const written = new Written();
  written.add(applyBatchOrThrow(state, transfers, now), state);
  await writeState(trx, written, 'silent');
}

function refusalOfShape(batch: readonly TransferInput[]): LedgerError | null {
  const refused = batchShapeRefusal(batch);
  return refused && ledgerErrorOf(refused);
}

/** What the accepted batches changed, to be written; a later batch's account or hold replaces an earlier one's. */
export class Written {
  /** By `accountMapKey`. */
  readonly accounts = new Map<string, AccountState>();
  /** By pending transfer id. */
  readonly holds = new Map<string, HoldEntry>();
  /** In plan order, so `seq` follows it. */
  readonly transfers: NewTransfer[] = [];

  add(plan: Plan, state: LedgerState): void {
    for (const account of plan.accounts) this.accounts.set(account.mapKey, account);
    for (const id of plan.holds) this.holds.set(id, state.holds.get(id)!);
    for (const transfer of plan.newTransfers) this.transfers.push(transfer);
  }
}

/**
 * What the batches touch, as stored: their transfers that exist (a retry),
 * the holds they post or void (locked on PostgreSQL), then every account
 * involved (locked on PostgreSQL). Transfers never change once written; a
 * hold and an account are read under their lock, so nothing another writer
 * changes can be read stale.
 */
export async function readState(
  trx: Executor,
  dialect: DialectName,
  batches: readonly (readonly TransferInput[])[],
): Promise<{ state: LedgerState; loaded: Map<string, Transfer> }> {
  const pendingIds = new Set<string>();
  const keys = new Map<string, AccountKey>();
  // The asset each reference object was last added in: a bulk names the same few references thousands of times.
  const added = new Map<AccountRef, string>();
  const addKey = (ref: AccountRef, asset: string) => {
    if (added.get(ref) === asset) return;
    added.set(ref, asset);
    const mapKey = accountMapKeyOf(ref, asset);
    if (!keys.has(mapKey)) keys.set(mapKey, accountKey(ref, asset));
  };
  for (const batch of batches) {
    for (const input of batch) {
      if (input.type === 'post_pending' || input.type === 'void_pending') pendingIds.add(input.pendingId);
      else {
        addKey(input.debit, input.asset);
        addKey(input.credit, input.asset);
      }
    }
  }
  const rows = await ledgerStore.transferRowsByIds(trx, dialect, idsOf(batches));
  const holds = await ledgerStore.holdsByIds(trx, dialect, [...pendingIds]);
  const accountIds = new Set<number>();
  for (const touched of [rows, holds]) {
    for (const row of touched) {
      accountIds.add(Number(row.debit_account_id));
      accountIds.add(Number(row.credit_account_id));
    }
  }
  const state: LedgerState = { transfers: new Map(), holds: new Map(), accounts: new Map() };
  /** Each account's owner and wallet, by id: holds share them (they are read, never changed). */
  const refs = new Map<number, AccountRef>();
  for (const row of await ledgerStore.lockAccounts(trx, dialect, [...keys.values()], [...accountIds])) {
    const id = Number(row.id);
    if (refs.has(id)) continue;
    const account = accountStateOf(row);
    refs.set(id, accountRefFromColumns(row.owner, row.wallet));
    state.accounts.set(account.mapKey, account);
  }
  const refOf = (accountId: number | string, of: string): AccountRef => {
    const ref = refs.get(Number(accountId));
    if (!ref) throw new Error(`ledger: the accounts of ${of} were not read`);
    return ref;
  };
  const loaded = new Map<string, Transfer>();
  for (const row of rows) {
    // A copy each: these are answered to callers.
    const debit = { ...refOf(row.debit_account_id, row.id) };
    const credit = { ...refOf(row.credit_account_id, row.id) };
    const transfer = transferOf(row, debit, credit);
    loaded.set(transfer.id, transfer);
    state.transfers.set(transfer.id, transfer);
  }
  for (const hold of holds) {
    state.holds.set(hold.transfer_id, {
      remaining: Dec.parse(hold.remaining),
      state: hold.state,
      debit: refOf(hold.debit_account_id, hold.transfer_id),
      credit: refOf(hold.credit_account_id, hold.transfer_id),
      asset: hold.asset,
    });
  }
  return { state, loaded };
}

/**
 * The batches' transfer ids a retry may name, each once (a `derived` id is
 * never looked up); a lone batch's are distinct already (its shape was checked).
 */
function idsOf(batches: readonly (readonly TransferInput[])[]): string[] {
  if (batches.length === 1) return batches[0]!.filter((input) => !input.derived).map((input) => input.id);
  const ids = new Set<string>();
  for (const batch of batches) for (const input of batch) if (!input.derived) ids.add(input.id);
  return [...ids];
}

function transferOf(row: TransferRow, debit: AccountRef, credit: AccountRef): Transfer {
  return {
    seq: Number(row.seq),
    id: row.id,
    type: row.type,
    debit,
    credit,
    asset: row.asset,
    amount: Dec.parse(row.amount),
    code: row.code,
    reference: row.reference,
    pendingId: row.pending_id,
    timestamp: Number(row.timestamp),
  };
}

function accountStateOf(row: AccountRow): AccountState {
  const key = accountKey(accountRefFromColumns(row.owner, row.wallet), row.asset);
  return {
    key,
    mapKey: accountMapKey(key),
    id: Number(row.id),
    mayGoNegative: Number(row.may_go_negative) === 1,
    debitsPosted: Dec.parse(row.debits_posted),
    creditsPosted: Dec.parse(row.credits_posted),
    debitsPending: Dec.parse(row.debits_pending),
    creditsPending: Dec.parse(row.credits_pending),
    createdAt: Number(row.created_at),
  };
}

function accountRowOf(state: AccountState): Omit<AccountRow, 'id'> {
  return {
    owner: ownerColumn(state.key.owner),
    asset: state.key.asset,
    wallet: state.key.wallet,
    may_go_negative: state.mayGoNegative ? 1 : 0,
    debits_posted: state.debitsPosted.toString(),
    credits_posted: state.creditsPosted.toString(),
    debits_pending: state.debitsPending.toString(),
    credits_pending: state.creditsPending.toString(),
    created_at: state.createdAt,
  };
}

/**
 * Writes accounts, then transfers, then holds. `answer` asks the database
 * for each new transfer's `seq` (answered by id); `silent` does not.
 */
export async function writeState(
  trx: Executor,
  written: Written,
  mode: 'answer' | 'silent',
): Promise<Map<string, number>> {
  const accountIds = await writeAccounts(trx, [...written.accounts.values()]);
  const idOf = (key: string, transfer: NewTransfer) => {
    const id = accountIds.get(key);
    if (id === undefined) throw new Error(`ledger: no account id for ${key} in transfer ${transfer.id}`);
    return id;
  };
  const rows = written.transfers.map((transfer) => ({
    id: transfer.id,
    type: transfer.type,
    debit_account_id: idOf(transfer.debitKey, transfer),
    credit_account_id: idOf(transfer.creditKey, transfer),
    asset: transfer.asset,
    amount: transfer.amount.toString(),
    code: transfer.code,
    reference: transfer.reference,
    pending_id: transfer.pendingId,
    timestamp: transfer.timestamp,
  }));
  let seqs = new Map<string, number>();
  if (mode === 'answer') seqs = await ledgerStore.insertTransfers(trx, rows);
  else await ledgerStore.insertTransfersSilently(trx, rows);
  await ledgerStore.saveHolds(
    trx,
    [...written.holds].map(([id, hold]) => ({
      transfer_id: id,
      remaining: hold.remaining.toString(),
      state: hold.state,
    })),
  );
  return seqs;
}

/** Creates the new accounts and saves the changed totals; answers every touched account's id. */
async function writeAccounts(trx: Executor, accounts: readonly AccountState[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const existing: AccountRow[] = [];
  const created: Omit<AccountRow, 'id'>[] = [];
  for (const account of accounts) {
    if (account.id === null) created.push(accountRowOf(account));
    else {
      existing.push({ id: account.id, ...accountRowOf(account) });
      ids.set(account.mapKey, account.id);
    }
  }
  await ledgerStore.updateAccountTotals(trx, existing);
  for (const [key, id] of await ledgerStore.insertAccounts(trx, created)) ids.set(key, id);
  return ids;
}
