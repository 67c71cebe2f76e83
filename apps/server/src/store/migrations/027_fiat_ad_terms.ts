import type { HalyardMigration } from '../migrate.ts';

/**
 * An ad's free-text terms (issue 16 item 1), and the terms an order was made
 * under (kept on the order, so a later edit of the ad does not change what the
 * user agreed to). The payment window already has its column (`window_ms` on
 * the ad, `expires_at` on the order).
 */
export const fiatAdTermsMigration: HalyardMigration = {
  async up(db) {
    await db.schema
      .alterTable('fiat_ads')
      .addColumn('terms', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('fiat_orders')
      .addColumn('terms', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
};
