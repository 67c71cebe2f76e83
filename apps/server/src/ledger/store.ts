import { Dec } from '@halyard/money';
import {
  type CompiledQuery,
  type ExpressionBuilder,
  type Generated,
  type Insertable,
  type Selectable,
  sql,
} from 'kysely';
import {
  paddedToOneStatement,
  placeholderRow,
  placeholderRows,
  SizedStatement,
  valuesOf,
} from '../store/batched.ts';
import type { Database, Executor } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import { type AccountKey, accountMapKeyOfColumns, accountRefFromColumns, ownerColumn } from './accounts.ts';
import { ARRAY_MAX, insertUnnested, onPostgres, writeUnnested } from './pg-unnest.ts';
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

/** Transfers with their accounts' owners and wallets and their holds, to read with `toLoaded`. */
export function transfersWithAccounts(db: Executor) {
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

export type JoinedTransferRow = Selectable<LedgerTransfersTable> & {
  debit_owner: string;
  debit_wallet: string;
  credit_owner: string;
  credit_wallet: string;
  hold_remaining: string | null;
  hold_state: HoldState | null;
};

export function toLoaded(row: JoinedTransferRow): LoadedTransfer {
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

export type TransferRow = Selectable<LedgerTransfersTable>;

const TRANSFER_COLUMNS = [
  'id',
  'type',
  'debit_account_id',
  'credit_account_id',
  'asset',
  'amount',
  'code',
  'reference',
  'pending_id',
  'timestamp',
] as const satisfies readonly (keyof NewTransferRow)[];
const ACCOUNT_COLUMNS = [
  'owner',
  'asset',
  'wallet',
  'may_go_negative',
  'debits_posted',
  'credits_posted',
  'debits_pending',
  'credits_pending',
  'created_at',
] as const satisfies readonly (keyof NewAccountRow)[];
const HOLD_COLUMNS = ['transfer_id', 'remaining', 'state'] as const satisfies readonly (keyof HoldRow)[];

/** A hold with the accounts and asset of its pending transfer. */
export interface HoldWithTransfer extends HoldRow {
  debit_account_id: number;
  credit_account_id: number;
  asset: string;
}

const transfersQuery = (db: Executor) => db.selectFrom('ledger_transfers').selectAll();
const holdsQuery = (db: Executor) =>
  db
    .selectFrom('ledger_holds as h')
    .innerJoin('ledger_transfers as t', 't.id', 'h.transfer_id')
    .select([
      'h.transfer_id',
      'h.remaining',
      'h.state',
      't.debit_account_id',
      't.credit_account_id',
      't.asset',
    ]);
const accountsQuery = (db: Executor) => db.selectFrom('ledger_accounts').selectAll().orderBy('id');

/** The write path's lookups, by lists of ids or keys as long as the batches make them. */
interface Lookups {
  transfers(db: Executor, ids: readonly string[]): Promise<TransferRow[]>;
  /** Locks the holds on PostgreSQL. */
  holds(db: Executor, ids: readonly string[]): Promise<HoldWithTransfer[]>;
  /** With `lock`, locks the accounts on PostgreSQL, in id order within each statement. */
  accountsByKey(db: Executor, keys: readonly AccountKey[], lock: boolean): Promise<AccountRow[]>;
  accountsById(db: Executor, ids: readonly number[]): Promise<AccountRow[]>;
}

/** SQLite has no array parameters: IN lists of fixed sizes, compiled and prepared once (store/batched.ts). */
function sqliteLookups(): Lookups {
  const inList = <R>(query: (db: Executor, size: number) => CompiledQuery<R>) =>
    new SizedStatement<R>(1, query);
  const transfers = inList((db, size) =>
    transfersQuery(db).where('id', 'in', placeholderRows(null, size)).compile(),
  );
  const holds = inList((db, size) =>
    holdsQuery(db).where('h.transfer_id', 'in', placeholderRows(null, size)).compile(),
  );
  const byId = inList((db, size) =>
    accountsQuery(db).where('id', 'in', placeholderRows(null, size)).compile(),
  );
  // A join on the key columns uses the (owner, asset, wallet) index; an OR chain or a row-value IN does not.
  // Unordered: no lock order to keep, and no sort to pay for.
  const byKey = new SizedStatement<AccountRow>(3, (db, size) => {
    const keys = sql.join(placeholderRows(sql`(${null}, ${null}, ${null})`, size));
    return sql<AccountRow>`select a.* from (values ${keys}) as k join ledger_accounts as a
      on a.owner = k.column1 and a.asset = k.column2 and a.wallet = k.column3`.compile(db);
  });
  return {
    transfers: (db, ids) => transfers.run(db, paddedToOneStatement(ids, 1)),
    holds: (db, ids) => holds.run(db, paddedToOneStatement(ids, 1)),
    // SQLite has one writer at a time: nothing to lock.
    accountsByKey: (db, keys) => byKey.run(db, paddedToOneStatement(keys.flatMap(keyColumns), 3)),
    accountsById: (db, ids) => byId.run(db, paddedToOneStatement(ids, 1)),
  };
}

/**
 * PostgreSQL takes a whole list as one array parameter (`= any($1)`): one
 * short statement to parse and plan instead of one with hundreds of
 * parameters. Rows it reads to change are locked (FOR UPDATE).
 */
function postgresLookups(): Lookups {
  async function inArrays<V, R>(values: readonly V[], read: (chunk: V[]) => Promise<R[]>): Promise<R[]> {
    const rows: R[] = [];
    for (let start = 0; start < values.length; start += ARRAY_MAX) {
      rows.push(...(await read(values.slice(start, start + ARRAY_MAX))));
    }
    return rows;
  }
  const anyOf = <T>(values: readonly T[]) => sql<T>`any(${values})`;
  return {
    transfers: (db, ids) =>
      inArrays(ids, (chunk) => transfersQuery(db).where('id', '=', anyOf(chunk)).execute()),
    holds: (db, ids) =>
      inArrays(ids, (chunk) =>
        holdsQuery(db).where('h.transfer_id', '=', anyOf(chunk)).forUpdate('h').execute(),
      ),
    accountsById: (db, ids) =>
      inArrays(ids, (chunk) => accountsQuery(db).where('id', '=', anyOf(chunk)).forUpdate().execute()),
    accountsByKey: (db, keys, lock) =>
      inArrays(keys, async (chunk) => {
        const columns = [0, 1, 2].map((column) => chunk.map((key) => keyColumns(key)[column]));
        const { rows } = await sql<AccountRow>`select a.* from
          unnest(${columns[0]}::text[], ${columns[1]}::text[], ${columns[2]}::text[]) as k(owner, asset, wallet)
          join ledger_accounts as a on a.owner = k.owner and a.asset = k.asset and a.wallet = k.wallet
          order by a.id ${lock ? sql`for update of a` : sql``}`.execute(db);
        return rows;
      }),
  };
}

const keyColumns = (key: AccountKey): [string, string, string] => [
  ownerColumn(key.owner),
  key.asset,
  key.wallet,
];
const LOOKUPS: Record<DialectName, Lookups> = { sqlite: sqliteLookups(), postgres: postgresLookups() };

const insertAccountRows = new SizedStatement<Pick<AccountRow, 'id' | 'owner' | 'asset' | 'wallet'>>(
  ACCOUNT_COLUMNS.length,
  (db, size) =>
    db
      .insertInto('ledger_accounts')
      .values(placeholderRows(placeholderRow(ACCOUNT_COLUMNS) as unknown as NewAccountRow, size))
      .returning(['id', 'owner', 'asset', 'wallet'])
      .compile(),
);
const ACCOUNT_UPDATE_COLUMNS = ['id', ...ACCOUNT_COLUMNS] as const;
const updateAccountRows = new SizedStatement<never>(ACCOUNT_UPDATE_COLUMNS.length, (db, size) =>
  db
    .insertInto('ledger_accounts')
    .values(placeholderRows(placeholderRow(ACCOUNT_UPDATE_COLUMNS) as unknown as AccountRow, size))
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        debits_posted: eb.ref('excluded.debits_posted'),
        credits_posted: eb.ref('excluded.credits_posted'),
        debits_pending: eb.ref('excluded.debits_pending'),
        credits_pending: eb.ref('excluded.credits_pending'),
      })),
    )
    .compile(),
);
const insertTransferRows = (returning: boolean) =>
  new SizedStatement<Pick<TransferRow, 'seq' | 'id'>>(TRANSFER_COLUMNS.length, (db, size) => {
    const query = db
      .insertInto('ledger_transfers')
      .values(placeholderRows(placeholderRow(TRANSFER_COLUMNS) as unknown as NewTransferRow, size));
    return (returning ? query.returning(['seq', 'id']) : query).compile();
  });
const insertTransfersStatement = { answering: insertTransferRows(true), silent: insertTransferRows(false) };
const saveHoldRows = new SizedStatement<never>(HOLD_COLUMNS.length, (db, size) =>
  db
    .insertInto('ledger_holds')
    .values(placeholderRows(placeholderRow(HOLD_COLUMNS) as unknown as HoldRow, size))
    .onConflict((oc) =>
      oc.column('transfer_id').doUpdateSet((eb) => ({
        remaining: eb.ref('excluded.remaining'),
        state: eb.ref('excluded.state'),
      })),
    )
    .compile(),
);

const ACCOUNT_TOTAL_COLUMNS = [
  'id',
  'debits_posted',
  'credits_posted',
  'debits_pending',
  'credits_pending',
] as const satisfies readonly (keyof AccountRow)[];

/** The ledger's SQL. Only the ledger module calls it. */
export const ledgerStore = {
  /** Transfers with their accounts' owners and wallets and their holds: the reads of one or a few. */
  async transfersByIds(db: Executor, ids: readonly string[]): Promise<LoadedTransfer[]> {
    if (ids.length === 0) return [];
    const rows = await transfersWithAccounts(db).where('t.id', 'in', ids).execute();
    return rows.map(toLoaded);
  },

  /** The stored rows of these transfer ids (the write path: transfers never change once written). */
  transferRowsByIds(db: Executor, dialect: DialectName, ids: readonly string[]): Promise<TransferRow[]> {
    return LOOKUPS[dialect].transfers(db, ids);
  },

  /**
   * The holds of these pending transfer ids, with their transfers' accounts
   * and asset. On PostgreSQL the hold rows are locked (FOR UPDATE) until the
   * transaction ends, so what they still reserve is read after any writer
   * that changes them has committed.
   */
  holdsByIds(db: Executor, dialect: DialectName, ids: readonly string[]): Promise<HoldWithTransfer[]> {
    return LOOKUPS[dialect].holds(db, ids);
  },

  /**
   * The accounts with these keys or ids that exist. On PostgreSQL the rows are
   * locked (FOR UPDATE, in id order within each statement) until the
   * transaction ends; SQLite has a single writer already. In one process the
   * ledger's queue already orders writers; across processes PostgreSQL breaks
   * any lock cycle by failing one transaction, which its caller may retry.
   */
  async lockAccounts(
    db: Executor,
    dialect: DialectName,
    keys: readonly AccountKey[],
    ids: readonly number[],
  ): Promise<AccountRow[]> {
    const lookups = LOOKUPS[dialect];
    return [...(await lookups.accountsByKey(db, keys, true)), ...(await lookups.accountsById(db, ids))];
  },

  /** The accounts with these keys that exist, read without locking them. */
  accountsByKeys(db: Executor, dialect: DialectName, keys: readonly AccountKey[]): Promise<AccountRow[]> {
    return LOOKUPS[dialect].accountsByKey(db, keys, false);
  },

  async accountByKey(db: Executor, key: AccountKey): Promise<AccountRow | undefined> {
    return db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where((eb) => keyMatches(eb, key))
      .executeTakeFirst();
  },

  /** Every account's key and posted totals (for sums across owners). */
  postedTotals(
    db: Executor,
  ): Promise<Pick<AccountRow, 'owner' | 'asset' | 'wallet' | 'credits_posted' | 'debits_posted'>[]> {
    return db
      .selectFrom('ledger_accounts')
      .select(['owner', 'asset', 'wallet', 'credits_posted', 'debits_posted'])
      .execute();
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

  /** Creates accounts; answers each one's id by `accountMapKey`. */
  async insertAccounts(db: Executor, rows: readonly NewAccountRow[]): Promise<Map<string, number>> {
    const inserted = onPostgres(db)
      ? await insertUnnested<NewAccountRow, Pick<AccountRow, 'id' | 'owner' | 'asset' | 'wallet'>>(
          db,
          'ledger_accounts',
          rows,
          ACCOUNT_COLUMNS,
          sql`returning id, owner, asset, wallet`,
        )
      : await insertAccountRows.run(db, valuesOf(rows, ACCOUNT_COLUMNS));
    return new Map(
      inserted.map((row) => [accountMapKeyOfColumns(row.owner, row.asset, row.wallet), Number(row.id)]),
    );
  },

  /** Writes the new totals of accounts that exist. */
  async updateAccountTotals(db: Executor, rows: readonly AccountRow[]): Promise<void> {
    if (!onPostgres(db)) {
      await updateAccountRows.run(db, valuesOf(rows, ACCOUNT_UPDATE_COLUMNS));
      return;
    }
    if (rows.length === 0) return;
    await writeUnnested(
      db,
      'ledger_accounts',
      rows,
      ACCOUNT_TOTAL_COLUMNS,
      (_names, source) => sql`update ledger_accounts as a set
        debits_posted = r.debits_posted, credits_posted = r.credits_posted,
        debits_pending = r.debits_pending, credits_pending = r.credits_pending
        from ${source} where a.id = r.id`,
    );
  },

  /** Inserts in the given order, so `seq` follows it; answers each new transfer's `seq` by id. */
  async insertTransfers(db: Executor, rows: readonly NewTransferRow[]): Promise<Map<string, number>> {
    const inserted = onPostgres(db)
      ? await insertUnnested<NewTransferRow, Pick<TransferRow, 'seq' | 'id'>>(
          db,
          'ledger_transfers',
          rows,
          TRANSFER_COLUMNS,
          sql`returning seq, id`,
        )
      : await insertTransfersStatement.answering.run(db, valuesOf(rows, TRANSFER_COLUMNS));
    return new Map(inserted.map((row) => [row.id, Number(row.seq)]));
  },

  /** Inserts in the given order, answering nothing (a bulk write whose caller needs no `seq`). */
  async insertTransfersSilently(db: Executor, rows: readonly NewTransferRow[]): Promise<void> {
    if (onPostgres(db)) await insertUnnested(db, 'ledger_transfers', rows, TRANSFER_COLUMNS);
    else await insertTransfersStatement.silent.run(db, valuesOf(rows, TRANSFER_COLUMNS));
  },

  async saveHolds(db: Executor, rows: readonly HoldRow[]): Promise<void> {
    if (onPostgres(db))
      await insertUnnested(
        db,
        'ledger_holds',
        rows,
        HOLD_COLUMNS,
        sql`on conflict (transfer_id) do update set remaining = excluded.remaining, state = excluded.state`,
      );
    else await saveHoldRows.run(db, valuesOf(rows, HOLD_COLUMNS));
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
