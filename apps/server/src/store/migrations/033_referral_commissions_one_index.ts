import { type Kysely, sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Commission rows keep one index (by earner and time, what the screens read)
 * instead of two: the unique (leg_id, level) of migration 031 cost a tenth of
 * a spot trade's time on a trade with two inviters (bench:referral) and
 * guards nothing the transaction does not: a fee's rows are inserted in the
 * same transaction as the fee and the transfers that pay them, whose ids the
 * ledger keeps unique. SQLite cannot drop a table's unique constraint, so its
 * table is rebuilt; PostgreSQL drops the constraint.
 */
export const referralCommissionsOneIndexMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    if (dialect === 'postgres') {
      await db.schema.alterTable('referral_commissions').dropConstraint('referral_commissions_leg').execute();
      return;
    }
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('referral_commissions_rebuilt')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('leg_id', 'text', (c) => c.notNull())
      .addColumn('trade_id', 'text', (c) => c.notNull())
      .addColumn('product', 'text', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('beneficiary_id', 'bigint', (c) => c.notNull())
      .addColumn('friend_id', 'bigint', (c) => c.notNull())
      .addColumn('fee', money, (c) => c.notNull())
      .addColumn('fee_coin', 'text', (c) => c.notNull())
      .addColumn('tier', 'integer')
      .addColumn('rate', money, (c) => c.notNull())
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('kickback', money, (c) => c.notNull())
      .addColumn('excluded', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('paid_by', 'text')
      .execute();
    await sql`insert into referral_commissions_rebuilt select id, leg_id, trade_id, product, level, beneficiary_id,
      friend_id, fee, fee_coin, tier, rate, amount, kickback, excluded, created_at, paid_by from referral_commissions`.execute(
      db,
    );
    await db.schema.dropTable('referral_commissions').execute();
    await db.schema.alterTable('referral_commissions_rebuilt').renameTo('referral_commissions').execute();
    await db.schema
      .createIndex('referral_commissions_beneficiary')
      .on('referral_commissions')
      .columns(['beneficiary_id', 'created_at'])
      .execute();
  },
};
