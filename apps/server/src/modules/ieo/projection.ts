import { Dec } from '@halyard/money';
import type { IeoRowOp, MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { ieoStore as sql } from './store.ts';

/**
 * The IEO tables behind the money state: each `ieo` event's row changes
 * written in order with the module's own store functions, so the orders,
 * tranches, commit totals, rebates, allocations and the projects' state and
 * sold count are the rows IeoService writes. An order is inserted under the
 * state's id (on PostgreSQL an explicit id does not move the table's
 * sequence; only a module still inserting after the cut-over would mind).
 * The project rows themselves (terms, texts) are the edge's, which writes
 * them before it sends `ieoSale`. The rebates' commission rows are the
 * referral writer's, the transfers the ledger writer's.
 */
export function ieoProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'ieo',
    async write(trx: Trx, published) {
      for (const { events } of published)
        for (const event of events)
          if (event.type === 'ieo') for (const op of event.ops) await writeOp(trx, op);
    },
  };
}

async function writeOp(trx: Trx, op: IeoRowOp): Promise<void> {
  switch (op.op) {
    case 'insertOrder':
      await sql.insertOrder(trx, op.row);
      return;
    case 'updateOrder':
      await sql.updateOrder(trx, op.id, op.set);
      return;
    case 'updateProject':
      await sql.updateProject(trx, op.id, op.set);
      return;
    case 'addCommit': {
      const amount = Dec.parse(op.amount);
      await sql.addCommit(trx, op.projectId, op.paycoin, {
        committed: (before) => Dec.parse(before).add(amount).toString(),
        participants: op.participant ? 1 : 0,
      });
      return;
    }
    case 'insertTranches':
      await sql.insertTranches(trx, op.rows);
      return;
    case 'deleteUnreleasedTranches':
      await sql.deleteUnreleasedTranches(trx, op.orderId);
      return;
    case 'insertRebate':
      await sql.insertRebate(trx, op.row);
      return;
    case 'markRebatePaid':
      if (!(await sql.markRebatePaid(trx, op.orderId, op.transferId, op.at)))
        throw new Error(`ieo projection: rebate of order ${op.orderId} is not owed`);
      return;
    case 'cancelOwedRebates':
      await sql.cancelOwedRebates(trx, op.orderIds);
      return;
    case 'markReleased': {
      const tranche = { orderId: op.orderId, seq: op.seq, before: op.before };
      if (!(await sql.markReleased(trx, tranche, op.releasedAmount, op.releasedAt, op.nextReleaseAt)))
        throw new Error(`ieo projection: tranche ${op.orderId}:${op.seq} is not where it was released from`);
      return;
    }
    case 'insertAllocation':
      await sql.insertAllocation(trx, op.projectId, op.summary, op.at);
      return;
  }
}

/** The IEO writer as a worker builds it: only `ieo` events cross, plain data already. */
export const ieoProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'ieo',
  module: import.meta.url,
  exportName: 'ieoProjection',
  create: () => ieoProjectionWriter(),
  reads: (event) => event.type === 'ieo',
  revive: (event) => event,
};
