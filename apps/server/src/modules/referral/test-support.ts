import type { Executor } from '../../store/database.ts';

/** A user's referral profile as a test writes it where the module reads it (and the edge sends it to the state). */
export interface TestProfile {
  userId: number;
  parentId: number | null;
  feeDeduction: boolean;
  kickbackRate: string;
  idNumbers: string[];
}

/** The users of a referral tree, with their inviters and KYC ID numbers; `codePrefix` makes their invitation codes. */
export async function insertProfiledUsers(
  db: Executor,
  profiles: readonly TestProfile[],
  at: number,
  codePrefix: string,
): Promise<void> {
  await db
    .insertInto('users')
    .values(
      profiles.map((profile) => ({
        id: profile.userId,
        email: `user${profile.userId}@example.com`,
        area_code: null,
        phone: null,
        wallet_address: null,
        password_hash: null,
        pay_password_hash: null,
        invitation_code: `${codePrefix}${profile.userId}`,
        parent_id: profile.parentId,
        locked_until: null,
        created_at: at,
      })),
    )
    .execute();
  const kyc = profiles.flatMap((profile) =>
    profile.idNumbers.map((idNumber) => ({
      user_id: profile.userId,
      real_name: 'Test',
      id_number: idNumber,
      photo_url: '/x.png',
      state: 'succeeded' as const,
      reason: null,
      submitted_at: at,
      decided_at: at,
      decided_by: 'test',
    })),
  );
  if (kyc.length > 0) await db.insertInto('kyc_submissions').values(kyc).execute();
}

/** A profile's inviter and choices, where the module reads them. */
export async function saveProfile(db: Executor, profile: TestProfile, at: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ parent_id: profile.parentId })
    .where('id', '=', profile.userId)
    .execute();
  const account = {
    kickback_rate: profile.kickbackRate,
    fee_deduction: profile.feeDeduction ? 1 : 0,
    bound_at: null,
    updated_at: at,
  };
  await db
    .insertInto('referral_accounts')
    .values({ user_id: profile.userId, ...account })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(account))
    .execute();
}

/**
 * The commission rows, oldest first, each with when it was credited
 * (`credited_at`, the records' `paid_at`: its own, or its payout batch's):
 * what the state-equivalence tests compare between the SQL path and the state.
 */
export function commissionRowsCredited(db: Executor) {
  return db
    .selectFrom('referral_commissions as row')
    .innerJoin('referral_commission_entries as entry', (join) =>
      join.onRef('entry.id', '=', 'row.id').on('entry.level', '=', 1),
    )
    .selectAll('row')
    .select('entry.paid_at as credited_at')
    .orderBy('row.id')
    .execute();
}
