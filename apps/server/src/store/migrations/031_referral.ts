import { sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Invites and commissions (issue 17): each user's referral choices (kickback
 * rate, HAL fee deduction, when a code was bound after sign-up), the tier
 * fixed per user and UTC day from the 24 h average HAL holdings, one row per
 * commission (or exclusion) with the trade and fee leg it came from, the
 * operator's settings, and the HAL part of spot fees on orders and trades.
 */
export const referralMigration: HalyardMigration = {
  async up(db, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('referral_accounts')
      .addColumn('user_id', 'bigint', (c) => c.primaryKey())
      .addColumn('kickback_rate', money, (c) => c.notNull())
      .addColumn('fee_deduction', 'integer', (c) => c.notNull())
      .addColumn('bound_at', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('referral_tier_days')
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('day', 'bigint', (c) => c.notNull())
      .addColumn('average', money, (c) => c.notNull())
      .addColumn('tier', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('referral_tier_days_pk', ['user_id', 'day'])
      .execute();
    await db.schema
      .createTable('referral_commissions')
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
      .addUniqueConstraint('referral_commissions_leg', ['leg_id', 'level'])
      .execute();
    await db.schema
      .createIndex('referral_commissions_beneficiary')
      .on('referral_commissions')
      .columns(['beneficiary_id', 'created_at'])
      .execute();
    await db.schema
      .createTable('referral_config')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .alterTable('spot_orders')
      .addColumn('fee_hal', money, (c) => c.notNull().defaultTo('0'))
      .execute();
    await db.schema.alterTable('spot_trades').addColumn('buyer_fee_coin', 'text').execute();
    await db.schema.alterTable('spot_trades').addColumn('seller_fee_coin', 'text').execute();
  },
};
