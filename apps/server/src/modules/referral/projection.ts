import type { CommissionRow, MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { insertCommissions } from './store.ts';

/**
 * The referral commission rows behind the money state: each
 * `referralCommissions` event's rows inserted as they are, in the order the
 * commands published them, with the store function the spot group uses, so
 * the store numbers them as it numbers the module's. The payouts are ledger
 * transfers: the ledger writer writes them.
 */
export function referralProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'referral',
    async write(trx: Trx, published) {
      const rows: CommissionRow[] = [];
      for (const { events } of published)
        for (const event of events) if (event.type === 'referralCommissions') rows.push(...event.rows);
      await insertCommissions(trx, rows);
    },
  };
}

function isCommissionEvent(event: MoneyEvent): boolean {
  return event.type === 'referralCommissions';
}

/**
 * The commission writer as a worker builds it (openWorkerProjector): only
 * the commission events cross, and they need no reviving, being plain data.
 */
export const referralProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'referral',
  module: import.meta.url,
  exportName: 'referralProjection',
  create: () => referralProjectionWriter(),
  reads: isCommissionEvent,
  revive: (event) => event,
};
