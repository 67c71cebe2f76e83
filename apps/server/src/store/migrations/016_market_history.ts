import type { Kysely } from 'kysely';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Demo history (issue 14): a market whose chart history has been seeded is
 * listed here, so the seeding runs once per market, on its first start, and
 * never again.
 */
export const marketHistoryMigration: HalyardMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('market_history_seeds')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('pair', 'text', (c) => c.notNull())
      .addColumn('seeded_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('market_history_seeds_pk', ['kind', 'pair'])
      .execute();
  },
};
