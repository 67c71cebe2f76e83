import type { FuturesRowsEvent, MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import {
  insertEntrust,
  insertFunding,
  insertPosition,
  insertTrades,
  insertTrigger,
  saveEntrust,
  savePosition,
  saveTrigger,
  updateContractSettings,
} from './store.ts';

/**
 * The futures rows behind the money state (docs/core.md, "Futures in the
 * state"): each `futures` event's rows written with the engine's own store
 * functions, in the order the commands published them. A row the command
 * made is inserted under the state's id, as it stands after the command;
 * one it changed is saved whole; trades are inserted in the engine's order,
 * as are funding rounds, so the tables' serials number them as they number the engine's. The ledger
 * and referral writers write the transfers and the commission rows.
 */
export function futuresProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'futures',
    async write(trx: Trx, published) {
      for (const { events } of published)
        for (const event of events) if (event.type === 'futures') await writeRows(trx, event);
    },
  };
}

async function writeRows(trx: Trx, event: FuturesRowsEvent): Promise<void> {
  if (event.contract) await updateContractSettings(trx, event.contract);
  for (const { row, created } of event.orders) {
    if (created) await insertEntrust(trx, row);
    else await saveEntrust(trx, row);
  }
  for (const { row, created } of event.positions) {
    if (created) await insertPosition(trx, row);
    else await savePosition(trx, row);
  }
  for (const { row, created } of event.triggers) {
    if (created) await insertTrigger(trx, row);
    else await saveTrigger(trx, row);
  }
  await insertTrades(trx, event.trades);
  for (const row of event.funding) await insertFunding(trx, row);
}

function isFuturesEvent(event: MoneyEvent): boolean {
  return event.type === 'futures';
}

/** The futures writer as a worker builds it (openWorkerProjector): only its events cross, plain data. */
export const futuresProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'futures',
  module: import.meta.url,
  exportName: 'futuresProjection',
  create: () => futuresProjectionWriter(),
  reads: isFuturesEvent,
  revive: (event) => event,
};
