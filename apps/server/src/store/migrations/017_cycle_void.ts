import type { Kysely } from 'kysely';
import type { HalyardMigration } from '../migrate.ts';

/**
 * A cycle contract with no recorded index price near its expiry instant is
 * void (issue 13, AMENDMENTS A3): its stake is returned. The close of void
 * settlements says so: `void_tolerance_ms` is the tolerance the latest tick
 * before expiry missed (null on every other close), so the history can say
 * why. On the close, not the settlement: one value per instant, none per order.
 */
export const cycleVoidMigration: HalyardMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('cycle_closes').addColumn('void_tolerance_ms', 'bigint').execute();
  },
};
