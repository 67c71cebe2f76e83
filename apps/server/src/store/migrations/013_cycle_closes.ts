import { type Kysely, sql } from 'kysely';
import { idKeyType, moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * A settlement row no longer copies its closing tick (price, time, source)
 * and its settlement time: every order of an instant settled in one
 * transaction shares them, so they are written once, in `cycle_closes`, and
 * the settlement points at that row (`close_id`); the reads join it back.
 * Settling an order then writes five values instead of eight (the bulk of a
 * tick's settlement rows).
 *
 * The existing settlements get one close row per distinct (price, time,
 * source, settlement time) they carry.
 */
export const cycleClosesMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('cycle_closes')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('close_price', money, (c) => c.notNull())
      .addColumn('close_ts', 'bigint', (c) => c.notNull())
      .addColumn('close_source', 'text', (c) => c.notNull())
      .addColumn('settled_at', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into cycle_closes (close_price, close_ts, close_source, settled_at)
      select distinct close_price, close_ts, close_source, settled_at from cycle_settlements`.execute(db);

    await db.schema
      .createTable('cycle_settlements_rebuilt')
      .addColumn('orderid', idKeyType(dialect), (c) => c.primaryKey())
      .addColumn('close_id', 'bigint', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      // Signed: + payout − fee on a win, − loss on a loss, 0 on a draw.
      .addColumn('last_profit', money, (c) => c.notNull())
      .addColumn('fee', money, (c) => c.notNull())
      .execute();
    await sql`insert into cycle_settlements_rebuilt (orderid, close_id, result, last_profit, fee)
      select s.orderid, c.id, s.result, s.last_profit, s.fee
      from cycle_settlements as s join cycle_closes as c
        on c.close_price = s.close_price and c.close_ts = s.close_ts
        and c.close_source = s.close_source and c.settled_at = s.settled_at`.execute(db);
    await db.schema.dropTable('cycle_settlements').execute();
    await db.schema.alterTable('cycle_settlements_rebuilt').renameTo('cycle_settlements').execute();
  },
};
