import type { FiatRowOp, MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { banAfterCancels, banUnpaid } from './bans.ts';
import { fiatStore as sql } from './store.ts';

/**
 * The fiat tables behind the money state: each `fiat` event's row changes
 * written in order with the module's store functions (the order under the
 * state's id, the ad's amount and hold, the merchant's counters, the order's
 * state and events, an operator's audit entry), and the bans FiatService
 * writes after a cancel or an expiry (bans.ts), which read the rows written
 * before them. The ads' and merchants' rows themselves are the edge's.
 */
export function fiatProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'fiat',
    async write(trx: Trx, published) {
      for (const { events } of published)
        for (const event of events)
          if (event.type === 'fiat') for (const op of event.ops) await writeOp(trx, op);
    },
  };
}

async function writeOp(trx: Trx, op: FiatRowOp): Promise<void> {
  switch (op.op) {
    case 'updateAd':
      await sql.updateAd(trx, op.adId, {
        available: op.available,
        online: op.online ? 1 : 0,
        hold_id: op.holdId,
        hold_seq: op.holdSeq,
      });
      return;
    case 'insertOrder':
      await sql.insertOrder(trx, op.row);
      return;
    case 'countMerchantOrder':
      await sql.countMerchantOrder(trx, op.merchantId);
      return;
    case 'countMerchantRelease':
      await sql.countMerchantRelease(trx, op.merchantId, op.releaseMs);
      return;
    case 'moveState': {
      const moved = await sql.moveState(trx, op.orderId, ['to_pay', 'paid', 'appeal'], op.to, op.values);
      if (!moved) throw new Error(`fiat projection: order ${op.orderId} is not open`);
      return;
    }
    case 'insertEvent':
      await sql.insertEvent(trx, {
        order_id: op.orderId,
        state: op.state,
        by_whom: op.by,
        at: op.at,
        reason: op.reason,
      });
      return;
    case 'audit':
      await sql.appendAudit(trx, {
        at: op.at,
        operator: op.audit.operator,
        operator_id: op.audit.operatorId,
        action: op.audit.action,
        user_id: op.audit.userId,
        details: op.audit.details,
      });
      return;
    case 'decideMerchant':
      if (!(await sql.decideMerchant(trx, op.merchantId, op.state, op.depositHold)))
        throw new Error(`fiat projection: merchant ${op.merchantId} is not in review`);
      return;
    case 'ban':
      if (op.check.rule === 'cancels') await banAfterCancels(trx, op.check.userId, op.at);
      else await banUnpaid(trx, op.check.userId, op.orderId, op.check.windowMinutes, op.at);
      return;
  }
}

/** The fiat writer as a worker builds it: only `fiat` events cross, plain data already. */
export const fiatProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'fiat',
  module: import.meta.url,
  exportName: 'fiatProjection',
  create: () => fiatProjectionWriter(),
  reads: (event) => event.type === 'fiat',
  revive: (event) => event,
};
