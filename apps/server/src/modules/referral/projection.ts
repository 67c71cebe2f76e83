import type { CommissionRow, MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { insertCommissions, payoutMark, recordPayoutBatch, unpaidCommissions } from './store.ts';

/**
 * The referral commission rows behind the money state: each
 * `referralCommissions` event's rows inserted as they are, in the order the
 * commands published them, with the store function the spot group uses, so
 * the store numbers them as it numbers the module's; each `referralPaid`
 * event recorded as a payout batch (the mark moved past its rows) with the
 * store functions the payout sweep uses, after the rows published before
 * it are in. The payouts are ledger transfers: the ledger writer writes them.
 */
export function referralProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'referral',
    async write(trx: Trx, published) {
      let rows: CommissionRow[] = [];
      for (const { events } of published)
        for (const event of events) {
          if (event.type === 'referralCommissions') rows.push(...event.rows);
          if (event.type !== 'referralPaid') continue;
          await insertCommissions(trx, rows);
          rows = [];
          await recordPaid(trx, event.legIds, event.at);
        }
      await insertCommissions(trx, rows);
    },
  };
}

/**
 * A payout batch of the state: it paid its oldest accrued rows, so they are
 * the oldest unpaid rows after the mark here too, leg for leg; the batch is
 * recorded up to the last of them. Any other rows there are a divergence,
 * and it throws.
 */
async function recordPaid(trx: Trx, legIds: readonly string[], at: number): Promise<void> {
  const mark = await payoutMark(trx);
  const rows = await unpaidCommissions(trx, legIds.length, mark);
  if (rows.length !== legIds.length || rows.some((row, index) => row.leg_id !== legIds[index]))
    throw new Error(
      `referral projection: ${legIds.length} rows paid, not the oldest unpaid after row ${mark}`,
    );
  await recordPayoutBatch(trx, mark, Number(rows.at(-1)!.id), at);
}

function isReferralEvent(event: MoneyEvent): boolean {
  return event.type === 'referralCommissions' || event.type === 'referralPaid';
}

/**
 * The commission writer as a worker builds it (openWorkerProjector): only
 * the referral events cross, and they need no reviving, being plain data.
 */
export const referralProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'referral',
  module: import.meta.url,
  exportName: 'referralProjection',
  create: () => referralProjectionWriter(),
  reads: isReferralEvent,
  revive: (event) => event,
};
