import type { ConvertOrderRecord, MoneyEvent } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { convertStore as sql } from './store.ts';

/**
 * The convert tables behind the money state: each `convertOrder` event
 * written as ConvertService writes it, with the same store functions: the
 * order row under the id the state gave it, and its quote used at the
 * command's time. (The quotes themselves are written by the pairs request,
 * which moves no money.)
 */
export function convertProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'convert',
    async write(trx: Trx, published) {
      const orders: ConvertOrderRecord[] = [];
      for (const { events } of published)
        for (const event of events) if (event.type === 'convertOrder') orders.push(event.order);
      if (orders.length === 0) return;
      for (const order of orders) await sql.useQuote(trx, order.quoteId, order.at);
      await sql.insertNumberedOrders(
        trx,
        orders.map((order) => ({
          id: order.orderId,
          user_id: order.userId,
          quote_id: order.quoteId,
          from_coin: order.from,
          to_coin: order.to,
          consumed: order.consumed,
          received: order.received,
          rate: order.rate,
          created_at: order.at,
        })),
      );
    },
  };
}

/** The convert writer as a worker builds it: only `convertOrder` crosses, plain data already. */
export const convertProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'convert',
  module: import.meta.url,
  exportName: 'convertProjection',
  create: () => convertProjectionWriter(),
  reads: (event) => event.type === 'convertOrder',
  revive: (event) => event,
};
