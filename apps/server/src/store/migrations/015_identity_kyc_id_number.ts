import { normaliseIdCard } from '@halyard/rules';
import { type Kysely, sql } from 'kysely';
import type { HalyardMigration } from '../migrate.ts';

/** The reason a duplicate claim found by this migration is rejected with (shown to its user). */
export const DUPLICATE_ID_NUMBER_REASON = 'This ID number is already verified for another account';

interface SubmissionRow {
  id: number;
  user_id: number;
  id_number: string;
  state: string;
}

/**
 * One ID number belongs to one account (issue 13): a unique index on the
 * number of every submission under review or approved; a rejected one frees
 * its number again.
 *
 * The stored numbers are first brought to their one spelling (normaliseIdCard:
 * a 15-digit number as its 18-digit successor), so both spellings of a
 * person's number collide. Where two accounts already claim one number, the
 * earliest claim keeps it and the later ones are rejected with a reason, by
 * "migration 015", as the index needs.
 *
 * It also drops `dev_outbox`: demo codes are now answered only to the one who
 * asked (`data.demoCode`) and no table or route lists anyone's codes.
 */
export const identityKycIdNumberMigration: HalyardMigration = {
  async up(db: Kysely<unknown>) {
    const rows = (
      await sql<SubmissionRow>`select id, user_id, id_number, state from kyc_submissions order by id`.execute(
        db,
      )
    ).rows;
    const claimedBy = new Map<string, number>();
    for (const row of rows) {
      const number = normaliseIdCard(row.id_number);
      if (number !== row.id_number) {
        await sql`update kyc_submissions set id_number = ${number} where id = ${row.id}`.execute(db);
      }
      if (row.state === 'failed') continue;
      const owner = claimedBy.get(number);
      if (owner === undefined) {
        claimedBy.set(number, Number(row.user_id));
      } else {
        await sql`update kyc_submissions
          set state = 'failed', reason = ${DUPLICATE_ID_NUMBER_REASON}, decided_by = 'migration 015',
            decided_at = coalesce(decided_at, submitted_at)
          where id = ${row.id}`.execute(db);
      }
    }
    await sql`create unique index kyc_submissions_live_id_number
      on kyc_submissions (id_number) where state <> 'failed'`.execute(db);
    await db.schema.dropTable('dev_outbox').execute();
  },
};
