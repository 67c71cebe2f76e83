import { type ColumnType, type Generated, type Insertable, type Selectable, sql } from 'kysely';
import type { CommissionRow } from '../../core/state/referral-rules.ts';
import { placeholderRow, placeholderRows, SizedStatement, valuesOf } from '../../store/batched.ts';
import type { Executor } from '../../store/database.ts';

export interface ReferralAccountsTable {
  user_id: number;
  /** The part of the level-1 rate given back to each invitee. */
  kickback_rate: string;
  fee_deduction: number;
  /** When a code was bound after sign-up (null: the inviter came with registration, or none). */
  bound_at: number | null;
  updated_at: number;
}

export interface ReferralTierDaysTable {
  user_id: number;
  /** UTC midnight the tier holds from, epoch ms. */
  day: number;
  /** Time-weighted average HAL holdings over the 24 h before `day`. */
  average: string;
  tier: number;
}

/**
 * One row per fee that has an inviter (migration 036): the fee, the level-1
 * earner's share and the level-2 earner's share, written in the fee's
 * transaction, unpaid, and never changed: the payout sweep (payouts.ts,
 * migration 040) credits the rows after its mark and records the batch.
 */
export interface ReferralCommissionsTable extends CommissionRow {
  id: Generated<number>;
  /** The transfer that paid the kickback, for rows credited before migration 040 (the sweep marks no row since). */
  kickback_paid_by: ColumnType<string | null, never, never>;
  /** The transfer that paid level 2, for rows credited before migration 040. */
  level2_paid_by: ColumnType<string | null, never, never>;
}

/** One batch of the payout sweep (migration 040): the rows after the previous batch's `last_id` up to its own, credited at `at`. */
export interface ReferralPayoutBatchesTable {
  last_id: number;
  at: number;
}

/** The view over commission rows: one entry per earner and fee with its level, as the screens read them. */
export interface ReferralCommissionEntriesView {
  id: number;
  leg_id: string;
  trade_id: string;
  product: string;
  level: number;
  beneficiary_id: number;
  friend_id: number;
  fee: string;
  fee_coin: string;
  tier: number | null;
  rate: string;
  amount: string;
  kickback: string;
  excluded: string | null;
  created_at: number;
  /** The transfer that paid it: a promotion rebate's own, or a row credited before migration 040. */
  paid_by: string | null;
  /** When the payout sweep credited it (its batch's time, migration 040); null while pending. */
  paid_at: number | null;
}

export interface ReferralConfigTable {
  key: string;
  value: string;
}

declare module '../../store/database.ts' {
  interface Database {
    referral_accounts: ReferralAccountsTable;
    referral_tier_days: ReferralTierDaysTable;
    referral_commissions: ReferralCommissionsTable;
    referral_commission_entries: ReferralCommissionEntriesView;
    referral_config: ReferralConfigTable;
    referral_payout_batches: ReferralPayoutBatchesTable;
  }
}

export type ReferralAccountRow = Selectable<ReferralAccountsTable>;
export type CommissionEntry = Selectable<ReferralCommissionEntriesView>;
export type NewCommissionRow = Insertable<ReferralCommissionsTable>;

/** Someone who may appear in a team: id, inviter, sign-up time. */
export interface MemberRow {
  id: number;
  parent_id: number | null;
  created_at: number;
  invitation_code: string;
}

export const referralStore = {
  async account(db: Executor, userId: number): Promise<ReferralAccountRow | undefined> {
    return db.selectFrom('referral_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  },

  async accounts(db: Executor, userIds: readonly number[]): Promise<ReferralAccountRow[]> {
    if (userIds.length === 0) return [];
    return db.selectFrom('referral_accounts').selectAll().where('user_id', 'in', userIds).execute();
  },

  async saveAccount(db: Executor, row: ReferralAccountRow): Promise<void> {
    await db
      .insertInto('referral_accounts')
      .values(row)
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          kickback_rate: row.kickback_rate,
          fee_deduction: row.fee_deduction,
          bound_at: row.bound_at,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  },

  async members(db: Executor, userIds: readonly number[]): Promise<MemberRow[]> {
    if (userIds.length === 0) return [];
    return db
      .selectFrom('users')
      .select(['id', 'parent_id', 'created_at', 'invitation_code'])
      .where('id', 'in', userIds)
      .execute();
  },

  async memberByCode(db: Executor, code: string): Promise<MemberRow | undefined> {
    return db
      .selectFrom('users')
      .select(['id', 'parent_id', 'created_at', 'invitation_code'])
      .where('invitation_code', '=', code)
      .executeTakeFirst();
  },

  async memberByEmail(db: Executor, email: string): Promise<MemberRow | undefined> {
    return db
      .selectFrom('users')
      .select(['id', 'parent_id', 'created_at', 'invitation_code'])
      .where('email', '=', email)
      .executeTakeFirst();
  },

  /** Binds the inviter only while none is set: a second bind racing the first changes nothing. */
  async setParent(db: Executor, userId: number, parentId: number): Promise<boolean> {
    const result = await db
      .updateTable('users')
      .set({ parent_id: parentId })
      .where('id', '=', userId)
      .where('parent_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** Every ID number any of these users ever submitted for KYC (a shared one excludes commissions). */
  async idNumbers(
    db: Executor,
    userIds: readonly number[],
  ): Promise<{ user_id: number; id_number: string }[]> {
    if (userIds.length === 0) return [];
    return db
      .selectFrom('kyc_submissions')
      .select(['user_id', 'id_number'])
      .where('user_id', 'in', userIds)
      .execute();
  },

  async tierDay(db: Executor, userId: number, day: number) {
    return db
      .selectFrom('referral_tier_days')
      .selectAll()
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .executeTakeFirst();
  },

  async saveTierDay(db: Executor, row: Selectable<ReferralTierDaysTable>): Promise<void> {
    await db
      .insertInto('referral_tier_days')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'day']).doNothing())
      .execute();
  },

  /**
   * The HAL transfers that changed a user's total holdings since `from`
   * (posted moves and posts of holds; a hold or its release moves nothing
   * between available and locked that the total sees), oldest first.
   */
  async holdingChanges(db: Executor, userId: number, asset: string, from: number) {
    const accounts = await db
      .selectFrom('ledger_accounts')
      .select('id')
      .where('owner', '=', String(userId))
      .where('asset', '=', asset)
      .execute();
    const ids = accounts.map((row) => Number(row.id));
    if (ids.length === 0) return { ids, transfers: [] };
    const transfers = await db
      .selectFrom('ledger_transfers')
      .select(['seq', 'debit_account_id', 'credit_account_id', 'amount', 'timestamp'])
      .where((eb) => eb.or([eb('debit_account_id', 'in', ids), eb('credit_account_id', 'in', ids)]))
      .where('type', 'in', ['posted', 'post_pending'])
      .where('timestamp', '>=', from)
      .orderBy('seq')
      .execute();
    return { ids, transfers };
  },

  async config(db: Executor, key: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('referral_config')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  },

  async saveConfig(db: Executor, key: string, value: string): Promise<void> {
    await db
      .insertInto('referral_config')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  },
};

const COMMISSION_COLUMNS = [
  'leg_id',
  'trade_id',
  'product',
  'friend_id',
  'fee',
  'fee_coin',
  'created_at',
  'beneficiary_id',
  'tier',
  'rate',
  'amount',
  'kickback',
  'excluded',
  'paid_by',
  'level2_id',
  'level2_rate',
  'level2_amount',
  'level2_excluded',
  'paid_at',
] as const satisfies readonly (keyof NewCommissionRow)[];

// Compiled once per store and size (store/batched.ts): a spot group writes its rows in a few statements, one row per fee.
const insertCommissionRows = new SizedStatement<never>(COMMISSION_COLUMNS.length, (db, size) =>
  db
    .insertInto('referral_commissions')
    .values(placeholderRows(placeholderRow(COMMISSION_COLUMNS) as unknown as NewCommissionRow, size))
    .compile(),
);

export { type PromotionRebate, promotionRebateRow } from '../../core/state/referral-rules.ts';

/** Inserts commission rows in the caller's transaction (the fee's). */
export async function insertCommissions(db: Executor, rows: readonly NewCommissionRow[]): Promise<void> {
  if (rows.length > 0) await insertCommissionRows.run(db, valuesOf(rows, COMMISSION_COLUMNS));
}

/**
 * The payout sweep's mark: the last commission row it paid (0 before the
 * first). Every row after it that has no `paid_at` of its own is unpaid.
 */
export async function payoutMark(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('referral_payout_batches')
    .select((eb) => eb.fn.max('last_id').as('mark'))
    .executeTakeFirst();
  return Number(row?.mark ?? 0);
}

/**
 * The oldest `limit` unpaid commission rows after row `afterId` (the payout
 * mark), by id: a walk of the table's own key from the mark, skipping the
 * rows written paid (promotion rebates).
 */
export function unpaidCommissions(db: Executor, limit: number, afterId: number) {
  return db
    .selectFrom('referral_commissions')
    .select([
      'id',
      'leg_id',
      'fee_coin',
      'beneficiary_id',
      'amount',
      'friend_id',
      'kickback',
      'level2_id',
      'level2_amount',
    ])
    .where('id', '>', afterId)
    .where('paid_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Records a payout batch: the rows after `mark` up to `lastId` credited at
 * `at`, only while `mark` is still the mark (no other sweep paid rows since
 * it was read); answers whether it recorded it.
 */
export async function recordPayoutBatch(
  db: Executor,
  mark: number,
  lastId: number,
  at: number,
): Promise<boolean> {
  const result = await sql`insert into referral_payout_batches (last_id, at)
    select cast(${lastId} as bigint), cast(${at} as bigint)
    where (select coalesce(max(last_id), 0) from referral_payout_batches) = cast(${mark} as bigint)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0) === 1;
}
