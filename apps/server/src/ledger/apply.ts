import { Dec } from '@halyard/money';
import type { Executor } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import { type AccountKey, accountMapKey, accountRefFromColumns, ownerColumn } from './accounts.ts';
import { isLedgerError, type LedgerError } from './errors.ts';
import {
  type AccountState,
  assertBatchShape,
  type LedgerState,
  mergePlan,
  type PlannedTransfer,
  planBatch,
} from './plan.ts';
import { type AccountRow, ledgerStore } from './store.ts';
import type { Transfer, TransferInput } from './transfers.ts';

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
  const written: Written = { accounts: new Set(), holds: new Set(), transfers: [] };
  batches.forEach((batch, index) => {
    if (isLedgerError(outcomes[index])) return;
    try {
      const plan = planBatch(state, batch, now);
      mergePlan(state, plan);
      for (const account of plan.accounts) written.accounts.add(accountMapKey(account.key));
      for (const id of plan.holds.keys()) written.holds.add(id);
      written.transfers.push(...plan.newTransfers);
      outcomes[index] = plan.results;
    } catch (error) {
      if (!isLedgerError(error)) throw error;
      outcomes[index] = error;
    }
  });
  const stored = await writeState(trx, state, written);
  return outcomes.map((outcome) => {
    if (isLedgerError(outcome)) return outcome;
    return outcome.map((id) => {
      const transfer = stored.get(id) ?? loaded.get(id);
      if (!transfer) throw new Error(`ledger: transfer ${id} is neither stored nor written`);
      return transfer;
    });
  });
}

function refusalOfShape(batch: readonly TransferInput[]): LedgerError | null {
  try {
    assertBatchShape(batch);
    return null;
  } catch (error) {
    if (isLedgerError(error)) return error;
    throw error;
  }
}

/** What the accepted batches changed, to be written. */
interface Written {
  accounts: Set<string>;
  holds: Set<string>;
  transfers: PlannedTransfer[];
}

const keyOf = (transfer: { asset: string }, ref: PlannedTransfer['debit']): AccountKey =>
  ({ ...ref, asset: transfer.asset }) as AccountKey;

async function readState(
  trx: Executor,
  dialect: DialectName,
  batches: readonly (readonly TransferInput[])[],
): Promise<{ state: LedgerState; loaded: Map<string, Transfer> }> {
  const ids = new Set<string>();
  const keys = new Map<string, AccountKey>();
  const addKey = (key: AccountKey) => keys.set(accountMapKey(key), key);
  for (const input of batches.flat()) {
    ids.add(input.id);
    if (input.type === 'post_pending' || input.type === 'void_pending') ids.add(input.pendingId);
    else {
      addKey(keyOf(input, input.debit));
      addKey(keyOf(input, input.credit));
    }
  }
  const state: LedgerState = { transfers: new Map(), holds: new Map(), accounts: new Map() };
  const loaded = new Map<string, Transfer>();
  for (const { transfer, hold } of await ledgerStore.transfersByIds(trx, [...ids])) {
    loaded.set(transfer.id, transfer);
    state.transfers.set(transfer.id, transfer);
    if (hold) state.holds.set(transfer.id, hold);
    if (transfer.type === 'pending') {
      addKey(keyOf(transfer, transfer.debit));
      addKey(keyOf(transfer, transfer.credit));
    }
  }
  for (const row of await ledgerStore.accountsByKeys(trx, dialect, [...keys.values()])) {
    const account = accountStateOf(row);
    state.accounts.set(accountMapKey(account.key), account);
  }
  return { state, loaded };
}

function accountStateOf(row: AccountRow): AccountState {
  return {
    key: { ...accountRefFromColumns(row.owner, row.wallet), asset: row.asset } as AccountKey,
    id: row.id,
    mayGoNegative: row.may_go_negative === 1,
    debitsPosted: Dec.parse(row.debits_posted),
    creditsPosted: Dec.parse(row.credits_posted),
    debitsPending: Dec.parse(row.debits_pending),
    creditsPending: Dec.parse(row.credits_pending),
    createdAt: row.created_at,
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

/** Writes accounts, then transfers, then holds; answers the new transfers by id. */
async function writeState(
  trx: Executor,
  state: LedgerState,
  written: Written,
): Promise<Map<string, Transfer>> {
  const accounts = [...written.accounts].map((key) => state.accounts.get(key)!);
  const accountIds = await writeAccounts(trx, accounts);
  const idOf = (transfer: PlannedTransfer, side: 'debit' | 'credit') => {
    const id = accountIds.get(accountMapKey(keyOf(transfer, transfer[side])));
    if (id === undefined) throw new Error(`ledger: no account id for ${side} of transfer ${transfer.id}`);
    return id;
  };
  const seqs = await ledgerStore.insertTransfers(
    trx,
    written.transfers.map((transfer) => ({
      id: transfer.id,
      type: transfer.type,
      debit_account_id: idOf(transfer, 'debit'),
      credit_account_id: idOf(transfer, 'credit'),
      asset: transfer.asset,
      amount: transfer.amount.toString(),
      code: transfer.code,
      reference: transfer.reference,
      pending_id: transfer.pendingId,
      timestamp: transfer.timestamp,
    })),
  );
  await ledgerStore.saveHolds(
    trx,
    [...written.holds].map((id) => {
      const hold = state.holds.get(id)!;
      return { transfer_id: id, remaining: hold.remaining.toString(), state: hold.state };
    }),
  );
  const stored = new Map<string, Transfer>();
  for (const transfer of written.transfers) {
    const seq = seqs.get(transfer.id);
    if (seq === undefined) throw new Error(`ledger: transfer ${transfer.id} was not inserted`);
    stored.set(transfer.id, { seq, ...transfer });
  }
  return stored;
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
      ids.set(accountMapKey(account.key), account.id);
    }
  }
  await ledgerStore.updateAccountTotals(trx, existing);
  for (const { id, key } of await ledgerStore.insertAccounts(trx, created)) ids.set(key, id);
  return ids;
}
