import type { HalyardMigration } from '../migrate.ts';

/**
 * An operator's hold on a withdrawal in review (issue 18): why, by whom and
 * since when. It is no state of its own: the withdrawal stays in review with
 * its funds held by the ledger, and cannot be approved while held.
 */
export const withdrawalHoldsMigration: HalyardMigration = {
  async up(db) {
    // One column per statement: SQLite adds a single column per ALTER TABLE.
    await db.schema.alterTable('wallet_withdrawals').addColumn('held_reason', 'text').execute();
    await db.schema.alterTable('wallet_withdrawals').addColumn('held_by', 'text').execute();
    await db.schema.alterTable('wallet_withdrawals').addColumn('held_at', 'bigint').execute();
  },
};
