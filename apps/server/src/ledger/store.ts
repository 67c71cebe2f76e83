import { Dec } from '@halyard/money';
import type { ExpressionBuilder, Generated, Insertable, Selectable } from 'kysely';
import type { Database, Executor } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import { type AccountKey, accountRefFromColumns, ownerColumn } from './accounts.ts';
import type { HoldState, Transfer, TransferType } from './transfers.ts';

/**
 * The ledger's tables. Only the ledger writes them: accounts keep the four
 * running totals, transfers are insert-only, holds track what each pending
 * transfer still reserves. Money columns are decimal text (SQLite) or NUMERIC
 * (PostgreSQL) and are read back into `Dec`, never into a `number`.
 */
export interface LedgerAccountsTable {
  id: Generated<number>;
  owner: string;
  asset: string;
  wallet: string;
  /** 1 for the system accounts that may run below zero (custody, treasury), else 0. */
  may_go_negative: number;
  debits_posted: string;
  credits_posted: string;
  debits_pending: string;
  credits_pending: string;
  created_at: number;
}

export interface LedgerTransfersTable {
  seq: Generated<number>;
  id: string;
  type: TransferType;
  debit_account_id: number;
  credit_account_id: number;
  asset: string;
  amount: string;
  code: string;
  reference: string | null;
  pending_id: string | null;
  timestamp: number;
}

export interface LedgerHoldsTable {
  transfer_id: string;
  remaining: string;
  state: HoldState;
}

declare module '../store/database.ts' {
  interface Database {
    ledger_accounts: LedgerAccountsTable;
    ledger_transfers: LedgerTransfersTable;
    ledger_holds: LedgerHoldsTable;
  }
}

export type AccountRow = Selectable<LedgerAccountsTable>;
export type NewAccountRow = Insertable<LedgerAccountsTable>;
export type NewTransferRow = Insertable<LedgerTransfersTable>;
export type HoldRow = Selectable<LedgerHoldsTable>;

/** A transfer with its accounts' owners and wallets, and its hold when it is a pending one. */
export interface LoadedTransfer {
  transfer: Transfer;
  debitAccountId: number;
  creditAccountId: number;
  hold: { remaining: Dec; state: HoldState } | null;
}

function transfersWithAccounts(db: Executor) {
  return db
    .selectFrom('ledger_transfers as t')
    .innerJoin('ledger_accounts as d', 'd.id', 't.debit_account_id')
    .innerJoin('ledger_accounts as c', 'c.id', 't.credit_account_id')
    .leftJoin('ledger_holds as h', 'h.transfer_id', 't.id')
    .selectAll('t')
    .select([
      'd.owner as debit_owner',
      'd.wallet as debit_wallet',
      'c.owner as credit_owner',
      'c.wallet as credit_wallet',
      'h.remaining as hold_remaining',
      'h.state as hold_state',
    ]);
}

type JoinedTransferRow = Selectable<LedgerTransfersTable> & {
  debit_owner: string;
  debit_wallet: string;
  credit_owner: string;
  credit_wallet: string;
  hold_remaining: string | null;
  hold_state: HoldState | null;
};

function toLoaded(row: JoinedTransferRow): LoadedTransfer {
  return {
    transfer: {
      seq: row.seq,
      id: row.id,
      type: row.type,
      debit: accountRefFromColumns(row.debit_owner, row.debit_wallet),
      credit: accountRefFromColumns(row.credit_owner, row.credit_wallet),
      asset: row.asset,
      amount: Dec.parse(row.amount),
      code: row.code,
      reference: row.reference,
      pendingId: row.pending_id,
      timestamp: row.timestamp,
    },
    debitAccountId: row.debit_account_id,
    creditAccountId: row.credit_account_id,
    hold:
      row.hold_remaining === null || row.hold_state === null
        ? null
        : { remaining: Dec.parse(row.hold_remaining), state: row.hold_state },
  };
}

function keyMatches(eb: ExpressionBuilder<Database, 'ledger_accounts'>, key: AccountKey) {
  return eb.and([
    eb('owner', '=', ownerColumn(key.owner)),
    eb('asset', '=', key.asset),
    eb('wallet', '=', key.wallet),
  ]);
}

/**
 * Statements stay well inside SQLite's limits on bound parameters (32,766)
 * and on expression depth (1,000, which a long OR chain would reach).
 */
const ROWS_PER_STATEMENT = 500;
const KEYS_PER_LOOKUP = 200;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** The ledger's SQL. Only the ledger module calls it. */
export const ledgerStore = {
  async transfersByIds(db: Executor, ids: readonly string[]): Promise<LoadedTransfer[]> {
    const loaded: LoadedTransfer[] = [];
    for (const chunk of chunks(ids, ROWS_PER_STATEMENT)) {
      const rows = await transfersWithAccounts(db).where('t.id', 'in', chunk).execute();
      loaded.push(...rows.map(toLoaded));
    }
    return loaded;
  },

  /**
   * The accounts with these keys that exist. On PostgreSQL the rows are locked
   * (FOR UPDATE, in id order within each lookup) until the transaction ends;
   * SQLite has a single writer already. In one process the ledger's queue
   * already orders writers; across processes PostgreSQL breaks any lock cycle
   * by failing one transaction, which its caller may retry.
   */
  async accountsByKeys(
    db: Executor,
    dialect: DialectName,
    keys: readonly AccountKey[],
  ): Promise<AccountRow[]> {
    const rows: AccountRow[] = [];
    for (const chunk of chunks(keys, KEYS_PER_LOOKUP)) {
      const query = db
        .selectFrom('ledger_accounts')
        .selectAll()
        .where((eb) => eb.or(chunk.map((key) => keyMatches(eb, key))))
        .orderBy('id');
      rows.push(...(await (dialect === 'postgres' ? query.forUpdate() : query).execute()));
    }
    return rows;
  },

  async accountByKey(db: Executor, key: AccountKey): Promise<AccountRow | undefined> {
    return db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where((eb) => keyMatches(eb, key))
      .executeTakeFirst();
  },

  async accountsOfOwner(db: Executor, owner: string): Promise<AccountRow[]> {
    return db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('owner', '=', owner)
      .orderBy('wallet')
      .orderBy('asset')
      .execute();
  },

  async insertAccounts(db: Executor, rows: readonly NewAccountRow[]): Promise<{ id: number; key: string }[]> {
    const ids: { id: number; key: string }[] = [];
    for (const chunk of chunks(rows, ROWS_PER_STATEMENT)) {
      const inserted = await db
        .insertInto('ledger_accounts')
        .values(chunk)
        .returning(['id', 'owner', 'asset', 'wallet'])
        .execute();
      ids.push(...inserted.map((row) => ({ id: row.id, key: `${row.owner}|${row.asset}|${row.wallet}` })));
    }
    return ids;
  },

  /** Writes the new totals of accounts that exist (one statement for the whole batch). */
  async updateAccountTotals(db: Executor, rows: readonly AccountRow[]): Promise<void> {
    for (const chunk of chunks(rows, ROWS_PER_STATEMENT)) {
      await db
        .insertInto('ledger_accounts')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            debits_posted: eb.ref('excluded.debits_posted'),
            credits_posted: eb.ref('excluded.credits_posted'),
            debits_pending: eb.ref('excluded.debits_pending'),
            credits_pending: eb.ref('excluded.credits_pending'),
          })),
        )
        .execute();
    }
  },

  /** Inserts in the given order, so `seq` follows it. */
  async insertTransfers(db: Executor, rows: readonly NewTransferRow[]): Promise<Map<string, number>> {
    const seqs = new Map<string, number>();
    for (const chunk of chunks(rows, ROWS_PER_STATEMENT)) {
      const inserted = await db
        .insertInto('ledger_transfers')
        .values(chunk)
        .returning(['seq', 'id'])
        .execute();
      for (const row of inserted) seqs.set(row.id, row.seq);
    }
    return seqs;
  },

  async saveHolds(db: Executor, rows: readonly HoldRow[]): Promise<void> {
    for (const chunk of chunks(rows, ROWS_PER_STATEMENT)) {
      await db
        .insertInto('ledger_holds')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('transfer_id').doUpdateSet((eb) => ({
            remaining: eb.ref('excluded.remaining'),
            state: eb.ref('excluded.state'),
          })),
        )
        .execute();
    }
  },

  /** One account's transfers, newest first, from `beforeSeq` down. */
  async transfersOfAccount(
    db: Executor,
    accountId: number,
    page: {
      limit: number;
      beforeSeq: number | null;
      codes: readonly string[];
      types: readonly TransferType[];
    },
  ): Promise<LoadedTransfer[]> {
    let query = transfersWithAccounts(db).where((eb) =>
      eb.or([eb('t.debit_account_id', '=', accountId), eb('t.credit_account_id', '=', accountId)]),
    );
    if (page.beforeSeq !== null) query = query.where('t.seq', '<', page.beforeSeq);
    if (page.codes.length > 0) query = query.where('t.code', 'in', page.codes);
    if (page.types.length > 0) query = query.where('t.type', 'in', page.types);
    const rows = await query.orderBy('t.seq', 'desc').limit(page.limit).execute();
    return rows.map(toLoaded);
  },
};
