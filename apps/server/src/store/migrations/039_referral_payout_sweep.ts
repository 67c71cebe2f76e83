import { type Kysely, sql } from 'kysely';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Commissions accrued with the fee, credited by a payout sweep (issue 17's
 * cost target: the payout transfers were most of what commissions added to a
 * trade). A row is written with its fee, unpaid (`paid_at` null); the sweep
 * pays the unpaid rows in one transfer per earner, coin and kind and marks
 * each row with the transfers that paid its shares (`paid_by`, the new
 * `kickback_paid_by`, `level2_paid_by`) and its credit time (`paid_at`).
 * Every row already written was paid with its fee: it is credited then.
 *
 * The unpaid rows get an index of their own, by id (partial: only the rows
 * waiting, a minute's worth; an integer key that only grows, so a trade adds
 * its entry at the end): the sweep reads them oldest first from it and marks
 * them by id; paid rows leave it. The view gains `paid_at` for the screens'
 * pending/credited.
 */
export const referralPayoutSweepMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    const table = () => db.schema.alterTable('referral_commissions');
    await table().addColumn('kickback_paid_by', 'text').execute();
    await table().addColumn('paid_at', 'bigint').execute();
    await sql`update referral_commissions set paid_at = created_at`.execute(db);
    await db.schema
      .createIndex('referral_commissions_unpaid')
      .on('referral_commissions')
      .column('id')
      .where(sql.ref('paid_at'), 'is', null)
      .execute();
    // Level 2 gives nothing back: its kickback is a money zero of the column's type (as migration 036).
    const zero = sql.raw(dialect === 'postgres' ? "'0'::numeric(48,18)" : "'0'");
    await db.schema.dropView('referral_commission_entries').execute();
    await db.schema
      .createView('referral_commission_entries')
      .as(
        sql`select id, leg_id, trade_id, product, 1 as level, beneficiary_id, friend_id, fee, fee_coin, tier,
          rate, amount, kickback, excluded, created_at, paid_by, paid_at
          from referral_commissions
          union all
          select id, leg_id, trade_id, product, 2 as level, level2_id as beneficiary_id, friend_id, fee, fee_coin,
          null as tier, level2_rate as rate, level2_amount as amount, ${zero} as kickback,
          level2_excluded as excluded, created_at, level2_paid_by as paid_by, paid_at
          from referral_commissions where level2_id is not null`,
      )
      .execute();
  },
};
