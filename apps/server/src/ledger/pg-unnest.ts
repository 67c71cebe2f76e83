import { PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { Executor } from '../store/database.ts';

/**
 * The ledger's bulk writes on PostgreSQL (ledger/store.ts calls them): rows
 * sent as one array parameter per column and unnested in order.
 */

/** Values per array parameter on PostgreSQL (every loop and statement has a bound). */
export const ARRAY_MAX = 10_000;

/** The array type each column's values are sent as on PostgreSQL, per table (`id` is text in one, bigint in another). */
const PG_TYPES = {
  ledger_accounts: {
    id: 'bigint',
    owner: 'text',
    asset: 'text',
    wallet: 'text',
    may_go_negative: 'integer',
    debits_posted: 'numeric',
    credits_posted: 'numeric',
    debits_pending: 'numeric',
    credits_pending: 'numeric',
    created_at: 'bigint',
  },
  ledger_transfers: {
    id: 'text',
    type: 'text',
    debit_account_id: 'bigint',
    credit_account_id: 'bigint',
    asset: 'text',
    amount: 'numeric',
    code: 'text',
    reference: 'text',
    pending_id: 'text',
    timestamp: 'bigint',
  },
  ledger_holds: { transfer_id: 'text', remaining: 'numeric', state: 'text' },
} as const;
type LedgerTable = keyof typeof PG_TYPES;

function pgType(table: LedgerTable, column: string): string {
  const types: Record<string, string> = PG_TYPES[table];
  const type = types[column];
  if (type === undefined) throw new Error(`ledger: no PostgreSQL type for ${table}.${column}`);
  return type;
}

export const onPostgres = (db: Executor) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * On PostgreSQL, rows go as one array parameter per column, unnested in
 * their order (`with ordinality`, and an insert orders by it, so a serial `seq` follows it):
 * a statement of a few parameters is parsed and planned in no time, where a
 * multi-row VALUES of 512 rows has 5,120 parameters to parse and bind, and
 * took most of a projector's batch. `statement(columns, source)` is the
 * statement around `source` (the unnested rows, named by the columns); it
 * runs once per ARRAY_MAX rows.
 */
export async function writeUnnested<R, T>(
  db: Executor,
  table: LedgerTable,
  rows: readonly R[],
  columns: readonly (keyof R & string)[],
  statement: (names: RawBuilder<unknown>, source: RawBuilder<unknown>) => RawBuilder<T>,
): Promise<T[]> {
  const names = sql.join(columns.map((column) => sql.id(column)));
  const answered: T[] = [];
  for (let start = 0; start < rows.length; start += ARRAY_MAX) {
    const chunk = rows.slice(start, start + ARRAY_MAX);
    const arrays = sql.join(
      columns.map((column) => sql`${chunk.map((row) => row[column])}::${sql.raw(pgType(table, column))}[]`),
    );
    const source = sql`unnest(${arrays}) with ordinality as r(${names}, n)`;
    answered.push(...(await statement(names, source).execute(db)).rows);
  }
  return answered;
}

/** `insert into table (columns) select … from` the unnested rows, then `tail` (on conflict, returning). */
export function insertUnnested<R, T = never>(
  db: Executor,
  table: LedgerTable,
  rows: readonly R[],
  columns: readonly (keyof R & string)[],
  tail: RawBuilder<unknown> = sql``,
): Promise<T[]> {
  if (rows.length === 0) return Promise.resolve([]);
  return writeUnnested(
    db,
    table,
    rows,
    columns,
    (names, source) =>
      sql<T>`insert into ${sql.table(table)} (${names}) select ${names} from ${source} order by r.n ${tail}`,
  );
}
