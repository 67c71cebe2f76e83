import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { idKeyType, moneyType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Cycle settlement keeps the open orders in memory (modules/cycle
 * open-orders.ts) and reads `cycle_open` only whole, at start: it becomes a
 * bare list of order ids, its indexes by expiry and by user gone.
 *
 * A settlement row no longer copies its order's user and pair: the history
 * and top-order reads go through the orders' indexes and join the
 * settlement by its primary key.
 *
 * Both tables are rebuilt with the order id as the row's own key on SQLite
 * (`idKeyType`): settling an order then writes one b-tree in each, not two.
 *
 * Stakes were holds on the user's spot account until now; they are paid into
 * the `cycle_stakes` account at acceptance instead. The orders open at this
 * migration still have held stakes: they are listed in `cycle_held_stakes`,
 * which the engine empties at start by paying each held stake in through
 * the ledger (only the ledger writes ledger tables).
 */
export const cycleOpenInMemoryMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    const orderid = idKeyType(dialect);
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('cycle_held_stakes')
      .addColumn('orderid', orderid, (c) => c.primaryKey())
      .execute();
    await sql`insert into cycle_held_stakes (orderid) select orderid from cycle_open`.execute(db);

    await rebuild(db, 'cycle_open', ['orderid'], (table) =>
      table.addColumn('orderid', orderid, (c) => c.primaryKey()),
    );
    await rebuild(
      db,
      'cycle_settlements',
      ['orderid', 'result', 'close_price', 'close_ts', 'close_source', 'last_profit', 'fee', 'settled_at'],
      (table) =>
        table
          .addColumn('orderid', orderid, (c) => c.primaryKey())
          .addColumn('result', 'text', (c) => c.notNull())
          .addColumn('close_price', money, (c) => c.notNull())
          .addColumn('close_ts', 'bigint', (c) => c.notNull())
          .addColumn('close_source', 'text', (c) => c.notNull())
          // Signed: + payout − fee on a win, − loss on a loss, 0 on a draw.
          .addColumn('last_profit', money, (c) => c.notNull())
          .addColumn('fee', money, (c) => c.notNull())
          .addColumn('settled_at', 'bigint', (c) => c.notNull()),
    );
  },
};

/** Replaces `table` by the one `define` builds, keeping the rows' `columns`. */
async function rebuild(
  db: Kysely<unknown>,
  table: string,
  columns: readonly string[],
  define: (builder: CreateTableBuilder<string, never>) => CreateTableBuilder<string, string>,
): Promise<void> {
  const rebuilt = `${table}_rebuilt`;
  await define(db.schema.createTable(rebuilt)).execute();
  const list = sql.join(columns.map((column) => sql.ref(column)));
  await sql`insert into ${sql.table(rebuilt)} (${list}) select ${list} from ${sql.table(table)}`.execute(db);
  await db.schema.dropTable(table).execute();
  await db.schema.alterTable(rebuilt).renameTo(table).execute();
}
