import { sql } from 'kysely';
import { idKeyType, moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Token launches (modules/ieo, issue 15): projects and their terms, the
 * users' subscriptions or commitments, each order's vesting tranches, the
 * promotion rebates owed, and the allocation of commit-mode projects.
 */
export const ieoMigration: HalyardMigration = {
  async up(db, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('ieo_projects')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('mode', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('start_at', 'bigint', (c) => c.notNull())
      .addColumn('end_at', 'bigint', (c) => c.notNull())
      .addColumn('total', money, (c) => c.notNull())
      .addColumn('sold', money, (c) => c.notNull())
      .addColumn('token_decimals', 'integer', (c) => c.notNull())
      .addColumn('min_number', money, (c) => c.notNull())
      .addColumn('max_number', money, (c) => c.notNull())
      .addColumn('gift', money, (c) => c.notNull())
      .addColumn('rebate', money, (c) => c.notNull())
      .addColumn('require_kyc', 'integer', (c) => c.notNull())
      // JSON: pay coins and prices, vesting schedule, refused area codes, texts per language.
      .addColumn('pay_coins', 'text', (c) => c.notNull())
      .addColumn('vesting', 'text', (c) => c.notNull())
      .addColumn('refused_area_codes', 'text', (c) => c.notNull())
      .addColumn('intro', 'text', (c) => c.notNull())
      .addColumn('announcement', 'text', (c) => c.notNull())
      // Commit mode: anonymises commits in the public list.
      .addColumn('salt', 'text', (c) => c.notNull())
      // Demo projects are found again by this key on each start.
      .addColumn('demo_key', 'text', (c) => c.unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ieo_projects_state').on('ieo_projects').columns(['state', 'id']).execute();

    await db.schema
      .createTable('ieo_orders')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('project_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('paycoin', 'text', (c) => c.notNull())
      .addColumn('price', money, (c) => c.notNull())
      // FCFS: paid; commit: committed so far (one order per user, each commitment a further hold).
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('holds', 'integer', (c) => c.notNull())
      .addColumn('spent', money, (c) => c.notNull())
      .addColumn('refund', money, (c) => c.notNull())
      .addColumn('tokens', money, (c) => c.notNull())
      .addColumn('gift', money, (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('anon_id', 'text', (c) => c.notNull())
      // Commit mode: the allocation round that served this order in full (null: pro-rata share).
      .addColumn('served_round', 'integer')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ieo_orders_user').on('ieo_orders').columns(['user_id', 'id']).execute();
    await db.schema
      .createIndex('ieo_orders_project')
      .on('ieo_orders')
      .columns(['project_id', 'id'])
      .execute();

    await db.schema
      .createTable('ieo_tranches')
      .addColumn('order_id', idKeyType(dialect), (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('release_at', 'bigint', (c) => c.notNull())
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('released_at', 'bigint')
      .addPrimaryKeyConstraint('ieo_tranches_pk', ['order_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('ieo_tranches_due')
      .on('ieo_tranches')
      .columns(['released_at', 'release_at'])
      .execute();

    // Promotion rebates: recorded as owed until the referral module pays them through the ledger.
    await db.schema
      .createTable('ieo_rebates')
      .addColumn('order_id', idKeyType(dialect), (c) => c.primaryKey())
      .addColumn('inviter_id', 'bigint', (c) => c.notNull())
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('ieo_allocations')
      .addColumn('project_id', idKeyType(dialect), (c) => c.primaryKey())
      // JSON: the rounds and final division of the allocation (allocation.ts), for the proofs.
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
