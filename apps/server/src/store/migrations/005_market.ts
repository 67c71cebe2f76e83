import { type Kysely, sql } from 'kysely';
import { moneyType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Market data: every index-price tick (cycle contracts settle from it, so it
 * must outlive a restart) and the K-line candles of every market and period.
 */
export const marketMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('index_prices')
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .addColumn('price', money, (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('index_prices_pk', ['coin', 'ts'])
      .execute();
    // Pruning deletes by age across all coins.
    await db.schema.createIndex('index_prices_ts').on('index_prices').column('ts').execute();

    await db.schema
      .createTable('klines')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('pair', 'text', (c) => c.notNull())
      .addColumn('period', 'integer', (c) => c.notNull())
      .addColumn('start', 'bigint', (c) => c.notNull())
      .addColumn('open', money, (c) => c.notNull())
      .addColumn('high', money, (c) => c.notNull())
      .addColumn('low', money, (c) => c.notNull())
      .addColumn('close', money, (c) => c.notNull())
      .addColumn('volume', money, (c) => c.notNull())
      // Times of the first and last price in the bar: a late trade merges into
      // a stored bar and must know whether it comes before the open or after the close.
      .addColumn('first_ts', 'bigint', (c) => c.notNull())
      .addColumn('last_ts', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('klines_pk', ['kind', 'pair', 'period', 'start'])
      .execute();
  },
};
