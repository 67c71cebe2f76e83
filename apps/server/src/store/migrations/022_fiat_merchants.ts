import type { HalyardMigration } from '../migrate.ts';

/**
 * Users become fiat merchants by operator approval (issue 16 item 1): an
 * application is a merchant row under review; approval holds the security
 * deposit in the ledger (`deposit_hold`). Rows from before (the house) are approved.
 */
export const fiatMerchantsMigration: HalyardMigration = {
  async up(db) {
    await db.schema
      .alterTable('fiat_merchants')
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('approved'))
      .execute();
    await db.schema.alterTable('fiat_merchants').addColumn('deposit_hold', 'text').execute();
  },
};
