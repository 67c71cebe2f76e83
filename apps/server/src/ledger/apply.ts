import { Dec } from '@halyard/money';
import type { Executor } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import { type AccountKey, accountMapKey, accountRefFromColumns, ownerColumn } from './accounts.ts';
import { type AccountState, type HoldBalance, type Plan, type PlannedTransfer, planBatch } from './plan.ts';
import { type AccountRow, ledgerStore } from './store.ts';
import type { Transfer, TransferInput } from './transfers.ts';

/**
 * One batch inside an open transaction: read what it touches (locking the
 * account rows on PostgreSQL), plan it in memory, write the plan. Every
 * refusal is thrown by the plan, before the first write.
 */
export async function applyBatch(
  trx: Executor,
  dialect: DialectName,
  batch: readonly TransferInput[],
  now: number,
): Promise<Transfer[]> {
  const snapshot = await readSnapshot(trx, dialect, batch);
  const plan = planBatch(snapshot, batch, now);
  return writePlan(trx, plan);
}

async function readSnapshot(trx: Executor, dialect: DialectName, batch: readonly TransferInput[]) {
  const ids = new Set<string>();
  const keys = new Map<string, AccountKey>();
  const addKey = (key: AccountKey) => keys.set(accountMapKey(key), key);
  for (const input of batch) {
    ids.add(input.id);
    if (input.type === 'post_pending' || input.type === 'void_pending') ids.add(input.pendingId);
    else {
      addKey({ ...input.debit, asset: input.asset } as AccountKey);
      addKey({ ...input.credit, asset: input.asset } as AccountKey);
    }
  }
  const loaded = await ledgerStore.transfersByIds(trx, [...ids]);
  const transfers = new Map<string, Transfer>();
  const holds = new Map<string, HoldBalance>();
  for (const { transfer, hold } of loaded) {
    transfers.set(transfer.id, transfer);
    if (hold) holds.set(transfer.id, hold);
    if (transfer.type === 'pending') {
      addKey({ ...transfer.debit, asset: transfer.asset } as AccountKey);
      addKey({ ...transfer.credit, asset: transfer.asset } as AccountKey);
    }
  }
  const rows = await ledgerStore.accountsByKeys(trx, dialect, [...keys.values()]);
  const accounts = new Map<string, AccountState>();
  for (const row of rows) {
    const state = accountStateOf(row);
    accounts.set(accountMapKey(state.key), state);
  }
  return { transfers, holds, accounts };
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

async function writePlan(trx: Executor, plan: Plan): Promise<Transfer[]> {
  const accountIds = await writeAccounts(trx, plan.accounts);
  const idOf = (transfer: PlannedTransfer, side: 'debit' | 'credit') => {
    const id = accountIds.get(accountMapKey({ ...transfer[side], asset: transfer.asset } as AccountKey));
    if (id === undefined) throw new Error(`ledger: no account id for ${side} of transfer ${transfer.id}`);
    return id;
  };
  const seqs = await ledgerStore.insertTransfers(
    trx,
    plan.newTransfers.map((transfer) => ({
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
    [...plan.holds].map(([id, hold]) => ({
      transfer_id: id,
      remaining: hold.remaining.toString(),
      state: hold.state,
    })),
  );
  return plan.results.map((result) => {
    if ('existing' in result) return result.existing;
    const seq = seqs.get(result.planned.id);
    if (seq === undefined) throw new Error(`ledger: transfer ${result.planned.id} was not inserted`);
    return { seq, ...result.planned };
  });
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
