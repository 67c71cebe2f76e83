import type { HalyardMigration } from '../migrate.ts';

/**
 * IEO promotion rebates are paid (issue 17): each row names the ledger
 * transfer that paid it and when. Rows already owed stay owed and are paid by
 * the IEO clock once their project can no longer be cancelled.
 */
export const ieoRebatePayoutsMigration: HalyardMigration = {
  async up(db) {
    // One column per statement: SQLite adds a single column per ALTER TABLE.
    await db.schema.alterTable('ieo_rebates').addColumn('paid_by', 'text').execute();
    await db.schema.alterTable('ieo_rebates').addColumn('paid_at', 'bigint').execute();
    await db.schema
      .createIndex('ieo_rebates_state')
      .on('ieo_rebates')
      .columns(['state', 'order_id'])
      .execute();
  },
};
