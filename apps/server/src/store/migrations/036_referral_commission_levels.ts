import { type Kysely, sql } from 'kysely';
import { moneyType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * One commission row per fee instead of one per fee and level (issue 17's
 * cost target: a spot trade with two invited sides wrote four rows, now two).
 * The level-1 columns stay as they were (`beneficiary_id`, `tier`, `rate`,
 * `amount`, `kickback`, `excluded`, `paid_by`); the level-2 earner, rate,
 * amount, exclusion and transfer move into `level2_*` columns of the same
 * row (null when the friend's inviter has no inviter). Existing level-2 rows
 * are folded into their fee's level-1 row and deleted, and `level` goes.
 *
 * The view `referral_commission_entries` shows the rows as before, one per
 * earner and fee with its `level`: the screens, the CSV and the team's profit
 * read it, so they show the same facts. Level-2 rows get their own index
 * (partial: only rows that have a level 2).
 */
export const referralCommissionLevelsMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    const money = sql.raw(moneyType(dialect));
    // One column per statement: SQLite adds a single column per ALTER TABLE.
    const table = () => db.schema.alterTable('referral_commissions');
    await table().addColumn('level2_id', 'bigint').execute();
    await table().addColumn('level2_rate', money).execute();
    await table().addColumn('level2_amount', money).execute();
    await table().addColumn('level2_excluded', 'text').execute();
    await table().addColumn('level2_paid_by', 'text').execute();
    // A fee's two rows found by leg: an index for the fold only.
    await db.schema
      .createIndex('referral_commissions_fold')
      .on('referral_commissions')
      .columns(['leg_id', 'level'])
      .execute();
    const levelTwo = (column: string) =>
      sql`(select two.${sql.ref(column)} from referral_commissions two
        where two.leg_id = referral_commissions.leg_id and two.level = 2)`;
    await sql`update referral_commissions set
      level2_id = ${levelTwo('beneficiary_id')},
      level2_rate = ${levelTwo('rate')},
      level2_amount = ${levelTwo('amount')},
      level2_excluded = ${levelTwo('excluded')},
      level2_paid_by = ${levelTwo('paid_by')}
      where level = 1`.execute(db);
    await sql`delete from referral_commissions where level = 2`.execute(db);
    await db.schema.dropIndex('referral_commissions_fold').execute();
    await table().dropColumn('level').execute();
    await db.schema
      .createIndex('referral_commissions_level2')
      .on('referral_commissions')
      .columns(['level2_id', 'created_at'])
      .where(sql.ref('level2_id'), 'is not', null)
      .execute();
    // Level 2 gives nothing back: its kickback is a money zero of the column's type.
    const zero = sql.raw(dialect === 'postgres' ? "'0'::numeric(48,18)" : "'0'");
    await db.schema
      .createView('referral_commission_entries')
      .as(
        sql`select id, leg_id, trade_id, product, 1 as level, beneficiary_id, friend_id, fee, fee_coin, tier,
          rate, amount, kickback, excluded, created_at, paid_by
          from referral_commissions
          union all
          select id, leg_id, trade_id, product, 2 as level, level2_id as beneficiary_id, friend_id, fee, fee_coin,
          null as tier, level2_rate as rate, level2_amount as amount, ${zero} as kickback,
          level2_excluded as excluded, created_at, level2_paid_by as paid_by
          from referral_commissions where level2_id is not null`,
      )
      .execute();
  },
};
