import type { MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { insertOrder, insertSettlements } from './store.ts';

/**
 * The cycle tables behind the money state: its cycle events
 * (core/state/cycle.ts) written with the module's own store functions, in
 * the order the state published them. An accepted order is inserted with the
 * state's order id and listed open; a settlement chunk's closes and
 * settlements are inserted and its orders leave `cycle_open`, as the
 * settlement engine writes them (a settlement of an order not open there
 * throws, so the batch rolls back). Commissions are the referral writer's;
 * transfers the ledger's.
 */
export function cycleProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'cycle',
    async write(trx: Trx, published) {
      for (const { events } of published) {
        for (const event of events) {
          if (event.type === 'cycleOrderOpened') {
            const stored = await insertOrder(trx, event.order);
            if (stored.orderid !== event.order.orderid)
              throw new Error(`cycle projection: order ${event.order.orderid} stored as ${stored.orderid}`);
          } else if (event.type === 'cycleSettled') await insertSettlements(trx, event.atCloses);
        }
      }
    },
  };
}

/** The cycle events: what the cycle writer reads. */
function isCycleEvent(event: MoneyEvent): boolean {
  return event.type === 'cycleOrderOpened' || event.type === 'cycleSettled';
}

/** The cycle writer as a worker builds it (openWorkerProjector): its events are plain data, revived as they are. */
export const cycleProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'cycle',
  module: import.meta.url,
  exportName: 'cycleProjection',
  create: () => cycleProjectionWriter(),
  reads: isCycleEvent,
  revive: (event) => event,
};
