import type { CommissionRow, MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { insertCommissions, markCommissionsPaid, unpaidIdsByLeg } from './store.ts';

/**
 * The referral commission rows behind the money state: each
 * `referralCommissions` event's rows inserted as they are, in the order the
 * commands published them, with the store function the spot group uses, so
 * the store numbers them as it numbers the module's; each `referralPaid`
 * event's rows (found by fee leg among the unpaid rows) marked credited with
 * the store function the payout sweep uses, after the rows published before
 * it are in. A mark of a row that is not there, or not unpaid, is a
 * divergence: the count differs and it throws. The payouts are ledger
 * transfers: the ledger writer writes them.
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
          const ids = await unpaidIdsByLeg(trx);
          const marks = event.marks.map((mark) => ({ ...mark, id: ids.get(mark.legId) ?? 0 }));
          const marked = await markCommissionsPaid(trx, marks, event.at);
          if (marked !== event.marks.length)
            throw new Error(`referral projection: ${event.marks.length} rows paid, ${marked} marked`);
        }
      await insertCommissions(trx, rows);
    },
  };
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
