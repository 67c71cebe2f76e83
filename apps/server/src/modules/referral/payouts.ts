import { REFERRAL_PAYOUT_BATCH } from '@halyard/rules';
import { planCommissionPayout, unpaidOf } from '../../core/state/referral-rules.ts';
import type { Ledger } from '../../ledger/index.ts';
import { markCommissionsPaid, unpaidCommissions } from './store.ts';

/**
 * One batch of the referral payout sweep (every REFERRAL_PAYOUT_INTERVAL_MS,
 * index.ts): in ONE ledger transaction, the oldest unpaid commission rows (at most
 * REFERRAL_PAYOUT_BATCH), one transfer per earner, coin and kind from the
 * fee account (planCommissionPayout, the plan the money state's
 * `referralPayout` uses too), and exactly those rows marked paid at `at`.
 * All of it commits or none: a crash pays nothing and the next sweep pays
 * the same rows once. Should fewer rows be marked than were read (another
 * sweep paid some meanwhile), the transaction is rolled back and the next
 * sweep tries again. Answers how many rows it paid.
 */
export async function payCommissions(ledger: Ledger, at: number): Promise<number> {
  return ledger.transaction(async (trx) => {
    const rows = await unpaidCommissions(trx, REFERRAL_PAYOUT_BATCH);
    if (rows.length === 0) return 0;
    const payout = planCommissionPayout(rows.map(unpaidOf), at);
    await ledger.executeBulk(payout.transfers, trx);
    const marks = payout.marks.map((mark, index) => ({ ...mark, id: Number(rows[index]!.id) }));
    const marked = await markCommissionsPaid(trx, marks, at);
    if (marked !== rows.length)
      throw new Error(`referral payout: ${rows.length} rows read, ${marked} marked; rolled back`);
    return rows.length;
  });
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
