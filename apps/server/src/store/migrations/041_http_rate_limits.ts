import { sql } from 'kysely';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The HTTP rate limits' counters when the gateways of a cluster share them
 * (http/rate-limit-store.ts): one row per route and client, its count in the
 * current window and when the window ends. One process keeps them in memory
 * and never writes here. On PostgreSQL the table is UNLOGGED: counters need
 * no crash safety, and skipping the write-ahead log makes each count cheaper.
 */
export const httpRateLimitsMigration: HalyardMigration = {
  async up(db, dialect) {
    const create = db.schema.createTable('http_rate_limits');
    await (dialect === 'postgres' ? create.modifyFront(sql`unlogged`) : create)
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('reset_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('http_rate_limits_reset_at')
      .on('http_rate_limits')
      .column('reset_at')
      .execute();
  },
};
