import { type Kysely, sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Cycle contracts (spec §3 "Cycle pair info", "Cycle position"; AMENDMENTS A3).
 *
 * An order row is written once, at acceptance, with the opening index price,
 * its time and source and a copy of the option's rates, and never changed.
 * `cycle_open` lists the orders still waiting for their expiry; settlement
 * deletes an order from it and inserts its one `cycle_settlements` row in the
 * same transaction as the ledger transfers. The settlement's primary key is
 * the order id, so no order can be settled twice.
 */
export const cycleMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('cycle_pairs')
      .addColumn('autoid', serialType(dialect), (c) => c.primaryKey())
      .addColumn('tradcoin', 'text', (c) => c.notNull())
      .addColumn('maincoin', 'text', (c) => c.notNull())
      .addColumn('price_accuracy', 'integer', (c) => c.notNull())
      // Comma-separated coins a stake may be paid in (spec `limit`).
      .addColumn('paycoins', 'text', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull())
      .addUniqueConstraint('cycle_pairs_coins', ['tradcoin', 'maincoin'])
      .execute();

    await db.schema
      .createTable('cycle_levers')
      .addColumn('pair_id', 'bigint', (c) => c.notNull())
      .addColumn('seconds', 'integer', (c) => c.notNull())
      .addColumn('minnumber', money, (c) => c.notNull())
      .addColumn('maxnumber', money, (c) => c.notNull())
      // Payout on a win, loss on a loss and fee on the payout, as fractions of 1.
      .addColumn('profit_gas', money, (c) => c.notNull())
      .addColumn('loss_gas', money, (c) => c.notNull())
      .addColumn('gas', money, (c) => c.notNull())
      .addPrimaryKeyConstraint('cycle_levers_pk', ['pair_id', 'seconds'])
      .execute();

    await db.schema
      .createTable('cycle_orders')
      .addColumn('orderid', serialType(dialect), (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('pair_id', 'bigint', (c) => c.notNull())
      .addColumn('tradcoin', 'text', (c) => c.notNull())
      .addColumn('maincoin', 'text', (c) => c.notNull())
      .addColumn('paycoin', 'text', (c) => c.notNull())
      // buy = up, sell = down.
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('number', money, (c) => c.notNull())
      .addColumn('seconds', 'integer', (c) => c.notNull())
      .addColumn('profit_gas', money, (c) => c.notNull())
      .addColumn('loss_gas', money, (c) => c.notNull())
      .addColumn('gas', money, (c) => c.notNull())
      .addColumn('open_price', money, (c) => c.notNull())
      .addColumn('open_ts', 'bigint', (c) => c.notNull())
      .addColumn('open_source', 'text', (c) => c.notNull())
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('cycle_orders_user')
      .on('cycle_orders')
      .columns(['user_id', 'tradcoin', 'maincoin', 'orderid'])
      .execute();
    await db.schema
      .createIndex('cycle_orders_pair')
      .on('cycle_orders')
      .columns(['pair_id', 'orderid'])
      .execute();

    await db.schema
      .createTable('cycle_open')
      .addColumn('orderid', 'bigint', (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('tradcoin', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    // In the order settlement reads them, so a due chunk is an index range, not a sort.
    await db.schema
      .createIndex('cycle_open_due')
      .on('cycle_open')
      .columns(['tradcoin', 'expires_at'])
      .execute();
    await db.schema.createIndex('cycle_open_expiry').on('cycle_open').columns(['expires_at']).execute();
    await db.schema.createIndex('cycle_open_user').on('cycle_open').columns(['user_id']).execute();

    await db.schema
      .createTable('cycle_settlements')
      .addColumn('orderid', 'bigint', (c) => c.primaryKey())
      .addColumn('pair_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('close_price', money, (c) => c.notNull())
      .addColumn('close_ts', 'bigint', (c) => c.notNull())
      .addColumn('close_source', 'text', (c) => c.notNull())
      // Signed: + payout − fee on a win, − loss on a loss, 0 on a draw.
      .addColumn('last_profit', money, (c) => c.notNull())
      .addColumn('fee', money, (c) => c.notNull())
      .addColumn('settled_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('cycle_settlements_pair')
      .on('cycle_settlements')
      .columns(['pair_id', 'orderid'])
      .execute();
  },
};
