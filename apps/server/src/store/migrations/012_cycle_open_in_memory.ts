import { sql } from 'kysely';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Cycle settlement keeps the open orders in memory (modules/cycle
 * open-orders.ts) and reads `cycle_open` only whole, at start: its indexes
 * by expiry and by user are read by nothing and cost every settlement a
 * delete from each.
 *
 * A settlement row no longer copies its order's user and pair: the history
 * and top-order reads go through the orders' indexes and join the
 * settlement by its primary key, so settlement writes one index, not two.
 *
 * Stakes were holds on the user's spot account until now; they are paid into
 * the `cycle_stakes` account at acceptance instead. The orders open at this
 * migration still have held stakes: they are listed in `cycle_held_stakes`,
 * which the engine empties at start by paying each held stake in through
 * the ledger (only the ledger writes ledger tables).
 */
export const cycleOpenInMemoryMigration: HalyardMigration = {
  async up(db) {
    await db.schema.dropIndex('cycle_open_due').ifExists().execute();
    await db.schema.dropIndex('cycle_open_expiry').ifExists().execute();
    await db.schema.dropIndex('cycle_open_user').ifExists().execute();
    await db.schema.dropIndex('cycle_settlements_pair').ifExists().execute();
    await db.schema.alterTable('cycle_settlements').dropColumn('pair_id').execute();
    await db.schema.alterTable('cycle_settlements').dropColumn('user_id').execute();
    await db.schema
      .createTable('cycle_held_stakes')
      .addColumn('orderid', 'bigint', (c) => c.primaryKey())
      .execute();
    await sql`insert into cycle_held_stakes (orderid) select orderid from cycle_open`.execute(db);
  },
};
