import type { HalyardMigration } from '../migrate.ts';

/**
 * A commission row names the ledger transfer that paid it (`paid_by`): the
 * commissions of one spot group are paid as one transfer per earner, coin and
 * kind (commission or kickback), so a trade costs no extra transfer of its
 * own; the rows keep the per-trade detail.
 */
export const referralPayoutsMigration: HalyardMigration = {
  async up(db) {
    await db.schema.alterTable('referral_commissions').addColumn('paid_by', 'text').execute();
  },
};
