import type { HalyardMigration } from '../migrate.ts';

/**
 * A live sell ad's available amount is held in the ledger (issue 16 item 1):
 * `hold_id` names the ad's current hold, `hold_seq` counts its holds so each
 * new one gets a fresh id (an order takes its part by voiding the hold and
 * holding the rest anew).
 */
export const fiatAdHoldsMigration: HalyardMigration = {
  async up(db) {
    await db.schema.alterTable('fiat_ads').addColumn('hold_id', 'text').execute();
    await db.schema
      .alterTable('fiat_ads')
      .addColumn('hold_seq', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
