import type { MoneyEvent, SpotOrderRecord, SpotTradeRecord } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Executor, Trx } from '../../store/database.ts';
import { insertTrades, type NewTradeRow, type OrderRow, saveOrders, selectPairs } from './store.ts';
import { traderOf } from './trader.ts';

/**
 * The spot tables behind the money state: the state's spot events
 * (core/state/commands.ts) written as the rows PairMarket writes today, with
 * the same store functions. Within one batch each order is written once, as
 * it stands after the batch's last command that changed it (PairMarket's
 * group writes each order once too); trades are inserted in the order they
 * happened, so the store numbers them as it numbers PairMarket's.
 *
 * The state names a pair by its symbol (`TRADE/MAIN`) and an order's trader
 * by its owner; the rows want the pair's autoid and the user id. The pairs
 * are read from the store once and again when a symbol is not known yet (a
 * pair listed since); the user id is the module's own reading of the owner
 * (trader.ts).
 */
export function spotProjectionWriter(): ProjectionWriter<MoneyEvent> {
  let pairIds = new Map<string, number>();
  /** The pair autoids by symbol, read again when one of `symbols` is not known yet. */
  async function pairIdsFor(db: Executor, symbols: ReadonlySet<string>): Promise<Map<string, number>> {
    const unknown = () => [...symbols].filter((symbol) => !pairIds.has(symbol));
    if (unknown().length > 0) pairIds = await readPairIds(db);
    const missing = unknown();
    if (missing.length > 0) throw new Error(`spot projection: no pair ${missing.join(', ')} in the store`);
    return pairIds;
  }
  return {
    name: 'spot',
    async write(trx: Trx, published) {
      const orders = new Map<number, SpotOrderRecord>();
      const trades: SpotTradeRecord[] = [];
      for (const { events } of published) {
        for (const event of events) {
          if (event.type === 'spotOrderAccepted' || event.type === 'spotOrderUpdated')
            orders.set(event.order.orderId, event.order);
          else if (event.type === 'spotTrade') trades.push(event.trade);
        }
      }
      if (orders.size === 0) return;
      // Every trade changes its orders: their pairs cover the trades'.
      const ids = await pairIdsFor(trx, new Set([...orders.values()].map((order) => order.pair)));
      await saveOrders(
        trx,
        [...orders.values()].map((order) => orderRowOf(order, ids.get(order.pair)!)),
      );
      await insertTrades(
        trx,
        trades.map((trade) => tradeRowOf(trade, ids.get(trade.pair)!)),
      );
    },
  };
}

/** The spot events: what the spot writer reads. */
function isSpotEvent(event: MoneyEvent): boolean {
  return (
    event.type === 'spotOrderAccepted' || event.type === 'spotOrderUpdated' || event.type === 'spotTrade'
  );
}

/**
 * The spot writer as a worker builds it (openWorkerProjector): only the spot
 * events cross, and they need no reviving, being plain data already.
 */
export const spotProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'spot',
  module: import.meta.url,
  exportName: 'spotProjection',
  create: () => spotProjectionWriter(),
  reads: isSpotEvent,
  revive: (event) => event,
};

async function readPairIds(db: Executor): Promise<Map<string, number>> {
  const pairs = await selectPairs(db);
  return new Map(pairs.map((pair) => [`${pair.tradcoin}/${pair.maincoin}`, pair.autoid]));
}

/** An order's row from the state's record (also how CorePairMarket answers). */
export function orderRowOf(order: SpotOrderRecord, pairId: number): OrderRow {
  return {
    autoid: order.orderId,
    pair_id: pairId,
    user_id: traderOf(order.owner).userId,
    owner: order.owner,
    type: order.side,
    style: order.style,
    price: order.price,
    number: order.amount,
    unfilled: order.unfilled,
    held: order.held,
    hold_spent: order.holdSpent,
    deal_amount: order.dealAmount,
    deal_money: order.dealMoney,
    fee: order.fee,
    fee_hal: order.feeHal,
    state: order.state,
    cancel_reason: order.cancelReason,
    wdate: order.placedAt,
    updated_at: order.updatedAt,
  };
}

function tradeRowOf(trade: SpotTradeRecord, pairId: number): NewTradeRow {
  return {
    pair_id: pairId,
    maker_order_id: trade.makerOrderId,
    taker_order_id: trade.takerOrderId,
    taker_side: trade.takerSide,
    price: trade.price,
    amount: trade.amount,
    quote_amount: trade.quoteAmount,
    buyer_fee: trade.buyerFee,
    seller_fee: trade.sellerFee,
    buyer_fee_coin: trade.buyerFeeCoin,
    seller_fee_coin: trade.sellerFeeCoin,
    wdate: trade.at,
  };
}
