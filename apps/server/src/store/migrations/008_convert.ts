import { sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/** Flash convert (spec §3 Exchange record): rate quotes that expire, and the exchanges made. */
export const convertMigration: HalyardMigration = {
  async up(db, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('convert_quotes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('from_coin', 'text', (c) => c.notNull())
      .addColumn('to_coin', 'text', (c) => c.notNull())
      .addColumn('rate', money, (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('convert_quotes_expiry').on('convert_quotes').column('expires_at').execute();

    await db.schema
      .createTable('convert_orders')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('quote_id', 'text', (c) => c.notNull().unique())
      .addColumn('from_coin', 'text', (c) => c.notNull())
      .addColumn('to_coin', 'text', (c) => c.notNull())
      .addColumn('consumed', money, (c) => c.notNull())
      .addColumn('received', money, (c) => c.notNull())
      .addColumn('rate', money, (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('convert_orders_user')
      .on('convert_orders')
      .columns(['user_id', 'id'])
      .execute();
  },
};
