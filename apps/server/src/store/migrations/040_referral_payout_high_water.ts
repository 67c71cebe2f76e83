import { type Kysely, sql } from 'kysely';
import { idKeyType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The payout sweep works from a high-water mark instead of marking rows
 * (issue 17's cost target: the unpaid rows' partial index of migration 039
 * and the sweep's rewrite of every row it paid were most of what
 * commissions still added to a trade). A commission row is written once,
 * with its fee, and never changed; the sweep pays the rows after the last
 * one it paid, oldest first, a batch at a time, and records each batch as
 * one row of `referral_payout_batches`: the last commission id it paid and
 * when (a batch's rows are those after the previous batch's `last_id`, up
 * to its own). The highest `last_id` is the mark. Rows written paid (an IEO
 * promotion rebate, paid from the project's proceeds; every row credited
 * before this migration) keep their own `paid_at`, and the sweep skips them.
 *
 * The view's `paid_at` is the row's own, or else that of the first batch
 * whose `last_id` reaches the row's id (null while pending). Swept rows no
 * longer name their payout transfers per row (`paid_by` and the others stay
 * null): a batch's transfers are its sweep's (reference
 * `referral-payout:<at>`), one per earner, coin and kind, each the sum of
 * that batch's shares. The rows credited before keep their links.
 *
 * The mark starts just below the oldest row still unpaid (or at the newest
 * row if none is): every row at or below it has a `paid_at` of its own, so
 * this first batch's `at` of 0 is never shown.
 */
export const referralPayoutHighWaterMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('referral_payout_batches')
      .addColumn('last_id', idKeyType(dialect), (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into referral_payout_batches (last_id, at)
      select mark, 0 from (select coalesce(
        (select min(id) - 1 from referral_commissions where paid_at is null),
        (select max(id) from referral_commissions)) as mark) start
      where mark > 0`.execute(db);
    await db.schema.dropIndex('referral_commissions_unpaid').execute();
    const paidAt = sql`coalesce(paid_at, (select batch.at from referral_payout_batches batch
      where batch.last_id >= referral_commissions.id order by batch.last_id limit 1))`;
    // Level 2 gives nothing back: its kickback is a money zero of the column's type (as migration 036).
    const zero = sql.raw(dialect === 'postgres' ? "'0'::numeric(48,18)" : "'0'");
    await db.schema.dropView('referral_commission_entries').execute();
    await db.schema
      .createView('referral_commission_entries')
      .as(
        sql`select id, leg_id, trade_id, product, 1 as level, beneficiary_id, friend_id, fee, fee_coin, tier,
          rate, amount, kickback, excluded, created_at, paid_by, ${paidAt} as paid_at
          from referral_commissions
          union all
          select id, leg_id, trade_id, product, 2 as level, level2_id as beneficiary_id, friend_id, fee, fee_coin,
          null as tier, level2_rate as rate, level2_amount as amount, ${zero} as kickback,
          level2_excluded as excluded, created_at, level2_paid_by as paid_by, ${paidAt} as paid_at
          from referral_commissions where level2_id is not null`,
      )
      .execute();
  },
};
