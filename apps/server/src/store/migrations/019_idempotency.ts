import type { Kysely } from 'kysely';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Idempotent money commands (issue 13, http/idempotency.ts): one row per
 * (user, route, clientOid), claimed before the command runs ('running') and
 * holding its answer once it has run ('done'). The primary key is what lets
 * only one of two concurrent duplicates run, in one process or several.
 */
export const idempotencyMigration: HalyardMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('http_idempotency')
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('client_oid', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      // The answer's data, message key and parameters, as JSON; null while running.
      .addColumn('answer', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('http_idempotency_pk', ['user_id', 'route', 'client_oid'])
      .execute();
  },
};
