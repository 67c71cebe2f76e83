import type { MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { approvalStore as sql } from './store.ts';

/**
 * The approval requests behind the money state: an `adjust` the state
 * applied marks its request executed with the handler's result (the
 * transfer's id), with the module's own store function, as
 * ApprovalService.approve does in the transaction of the execution. The
 * request, its decision and a refused execution (failed) are the edge's
 * writes: they move no money.
 */
export function approvalsProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'approvals',
    async write(trx: Trx, published) {
      for (const { events } of published)
        for (const event of events) {
          if (event.type !== 'adjusted') continue;
          const { requestId, transferId } = event.adjusted;
          await sql.finish(trx, requestId, { status: 'executed', result: JSON.stringify({ transferId }) });
        }
    },
  };
}

/** The approvals writer as a worker builds it: only `adjusted` crosses, plain data already. */
export const approvalsProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'approvals',
  module: import.meta.url,
  exportName: 'approvalsProjection',
  create: () => approvalsProjectionWriter(),
  reads: (event) => event.type === 'adjusted',
  revive: (event) => event,
};
