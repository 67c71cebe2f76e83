import { REFERRAL_PAYOUT_BATCH } from '@halyard/rules';
import { sql } from 'kysely';
import { planCommissionPayout, unpaidOf } from '../../core/state/referral-rules.ts';
import type { Ledger } from '../../ledger/index.ts';
import { onPostgres } from '../../ledger/pg-unnest.ts';
import type { Trx } from '../../store/database.ts';
import { payoutMark, recordPayoutBatch, unpaidCommissions } from './store.ts';

/**
 * One batch of the referral payout sweep (every REFERRAL_PAYOUT_INTERVAL_MS,
 * index.ts): in ONE ledger transaction, the oldest unpaid commission rows
 * after the mark (at most REFERRAL_PAYOUT_BATCH), one transfer per earner,
 * coin and kind from the fee account (planCommissionPayout, the plan the
 * money state's `referralPayout` uses too), and the batch recorded at `at`:
 * the mark moves to its last row (migration 040). All of it commits or none:
 * a crash pays nothing and the next sweep pays the same rows once. Should
 * the mark have moved since it was read (another sweep paid rows
 * meanwhile), the transaction is rolled back and the next sweep tries
 * again. Answers how many rows it paid.
 *
 * The mark holds because a row's id is taken in its fee's ledger
 * transaction, and the ledger's queue runs those one at a time, the sweep's
 * too: no row below the mark commits after it. On PostgreSQL, where another
 * process may write too, the sweep first waits for every transaction
 * writing commission rows to end, and holds new ones back until it commits.
 */
export async function payCommissions(ledger: Ledger, at: number): Promise<number> {
  return ledger.transaction(async (trx) => {
    if (onPostgres(trx)) await holdCommissionWriters(trx);
    const mark = await payoutMark(trx);
    const rows = await unpaidCommissions(trx, REFERRAL_PAYOUT_BATCH, mark);
    if (rows.length === 0) return 0;
    await ledger.executeBulk(planCommissionPayout(rows.map(unpaidOf), at), trx);
    if (!(await recordPayoutBatch(trx, mark, Number(rows.at(-1)!.id), at)))
      throw new Error(`referral payout: the mark moved from ${mark} during the sweep; rolled back`);
    return rows.length;
  });
}

/** Waits for the transactions writing commission rows (any process) and holds new ones back until the sweep's ends. */
async function holdCommissionWriters(trx: Trx): Promise<void> {
  await sql`lock table referral_commissions in share row exclusive mode`.execute(trx);
}

/**
 * The sweep: batches until one finds less than a full batch, all at `at`
 * (as the money state's `referralPayout`). Answers how many rows it paid.
 */
export async function payAllCommissions(ledger: Ledger, at: number): Promise<number> {
  let paid = 0;
  for (;;) {
    const batch = await payCommissions(ledger, at);
    paid += batch;
    if (batch < REFERRAL_PAYOUT_BATCH) return paid;
  }
}
