import type { HalyardMigration } from '../migrate.ts';

/**
 * An ad's price may float (issue 16 item 1): `price_type` 'fixed' or
 * 'floating'; a floating ad's `premium` (percent over the index) and its
 * `price` refreshed from the index price by the module's tick.
 */
export const fiatFloatingPricesMigration: HalyardMigration = {
  async up(db) {
    await db.schema
      .alterTable('fiat_ads')
      .addColumn('price_type', 'text', (c) => c.notNull().defaultTo('fixed'))
      .execute();
    await db.schema.alterTable('fiat_ads').addColumn('premium', 'text').execute();
  },
};
