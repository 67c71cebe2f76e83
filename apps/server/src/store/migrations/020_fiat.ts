import { sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Fiat buy and sell through merchants (modules/fiat, issue 16): merchants,
 * their ads, the orders matched to them (escrow is a ledger hold named by
 * `hold_id`), every order transition with who, when and why, and the
 * fiat-trading bans set by rules (AMENDMENTS A6).
 */
export const fiatMigration: HalyardMigration = {
  async up(db, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('fiat_merchants')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      // Null for the demo house merchant, whose coin sits in the system wallet fiat_house.
      .addColumn('user_id', 'bigint', (c) => c.unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('demo_key', 'text', (c) => c.unique())
      .addColumn('completed', 'integer', (c) => c.notNull())
      .addColumn('orders', 'integer', (c) => c.notNull())
      // Sum of paid → released times: with `completed`, the average release speed.
      .addColumn('release_ms_total', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('fiat_ads')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('merchant_id', 'bigint', (c) => c.notNull())
      // From the user's side: 'buy' ads sell coin to users, 'sell' ads buy it from them.
      .addColumn('side', 'text', (c) => c.notNull())
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('fiat', 'text', (c) => c.notNull())
      .addColumn('price', money, (c) => c.notNull())
      .addColumn('min_amount', money, (c) => c.notNull())
      .addColumn('max_amount', money, (c) => c.notNull())
      // Coin the ad may still trade; orders take from it and give back what they do not complete.
      .addColumn('available', money, (c) => c.notNull())
      // JSON: [{ payType, payee }] (the merchant's receiving details per method).
      .addColumn('methods', 'text', (c) => c.notNull())
      .addColumn('window_ms', 'bigint', (c) => c.notNull())
      .addColumn('online', 'integer', (c) => c.notNull())
      .addColumn('demo_key', 'text', (c) => c.unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('fiat_ads_match')
      .on('fiat_ads')
      .columns(['coin', 'fiat', 'side', 'online'])
      .execute();

    await db.schema
      .createTable('fiat_orders')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('side', 'text', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('merchant_id', 'bigint', (c) => c.notNull())
      .addColumn('ad_id', 'bigint', (c) => c.notNull())
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('fiat', 'text', (c) => c.notNull())
      .addColumn('price', money, (c) => c.notNull())
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('number', money, (c) => c.notNull())
      .addColumn('pay_type', 'text', (c) => c.notNull())
      // JSON FiatPayee: who the payer pays.
      .addColumn('payee', 'text', (c) => c.notNull())
      .addColumn('pay_img', 'text')
      .addColumn('state', 'text', (c) => c.notNull())
      // The ledger hold that is the escrow: posted on release, voided on cancel or refund.
      .addColumn('hold_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('paid_at', 'bigint')
      .addColumn('appeal_by', 'text')
      .addColumn('appeal_reason', 'text')
      .addColumn('closed_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('fiat_orders_user').on('fiat_orders').columns(['user_id', 'id']).execute();
    await db.schema
      .createIndex('fiat_orders_state')
      .on('fiat_orders')
      .columns(['state', 'expires_at'])
      .execute();

    await db.schema
      .createTable('fiat_order_events')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('order_id', 'bigint', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('by_whom', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('fiat_order_events_order')
      .on('fiat_order_events')
      .columns(['order_id', 'id'])
      .execute();

    await db.schema
      .createTable('fiat_bans')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('rule', 'text', (c) => c.notNull())
      .addColumn('order_id', 'bigint')
      // A message key of the fiat catalogue and its parameters (JSON): shown in the user's language.
      .addColumn('reason_key', 'text', (c) => c.notNull())
      .addColumn('reason_params', 'text', (c) => c.notNull())
      .addColumn('starts_at', 'bigint', (c) => c.notNull())
      .addColumn('ends_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('fiat_bans_user').on('fiat_bans').columns(['user_id', 'starts_at']).execute();
  },
};
