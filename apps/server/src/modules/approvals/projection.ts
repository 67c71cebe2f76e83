import type { MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { approvalStore as sql } from './store.ts';
import { releasedRequestOf } from './withdrawals.ts';

/**
 * The approval requests behind the money state: a command the state
 * applied for an approved request marks it executed with the handler's
 * result, with the module's own store function, as ApprovalService.approve
 * does in the transaction of the execution: an `adjust` with its transfer's
 * id, a withdrawal release's approve with the withdrawal's id. So a
 * process that stops once the command is durable leaves no request
 * `approved`: the projector's catch-up at the next start records it. The
 * request, its decision and a refused execution (failed) are the edge's
 * writes: they move no money.
 */
export function approvalsProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'approvals',
    async write(trx: Trx, published) {
      for (const { events } of published)
        for (const event of events) {
          const executed = executedBy(event);
          if (executed)
            await sql.finish(trx, executed.requestId, {
              status: 'executed',
              result: JSON.stringify(executed.result),
            });
        }
    },
  };
}

/** The request an event carried out, with its result as the handler's `execute` answers it; null for any other event. */
function executedBy(event: MoneyEvent): { requestId: number; result: object } | null {
  if (event.type === 'adjusted') {
    const { requestId, transferId } = event.adjusted;
    return { requestId, result: { transferId } };
  }
  if (event.type !== 'withdrawalMoved') return null;
  const requestId = releasedRequestOf(event.move);
  return requestId === null ? null : { requestId, result: { withdrawalId: event.move.id } };
}

/** The approvals writer as a worker builds it: only the events of an approved request cross, plain data already. */
export const approvalsProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'approvals',
  module: import.meta.url,
  exportName: 'approvalsProjection',
  create: () => approvalsProjectionWriter(),
  reads: (event) => executedBy(event) !== null,
  revive: (event) => event,
};
