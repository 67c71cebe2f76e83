import { sql } from 'kysely';
import { moneyType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/** A futures order's fees paid in HAL (fee deduction, issue 17), apart from its fee in the margin coin. */
export const futuresFeeHalMigration: HalyardMigration = {
  async up(db, dialect) {
    await db.schema
      .alterTable('futures_orders')
      .addColumn('fee_hal', sql.raw(moneyType(dialect)), (c) => c.notNull().defaultTo('0'))
      .execute();
  },
};
