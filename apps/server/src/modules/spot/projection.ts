import type { MoneyEvent, SpotOrderRecord, SpotTradeRecord } from '../../core/state/index.ts';
import type { ProjectionWriter } from '../../projection/writer.ts';
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
  async function pairIdOf(db: Executor, symbol: string): Promise<number> {
    if (!pairIds.has(symbol)) pairIds = await readPairIds(db);
    const id = pairIds.get(symbol);
    if (id === undefined) throw new Error(`spot projection: no pair ${symbol} in the store`);
    return id;
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
      const orderRows: OrderRow[] = [];
      for (const order of orders.values()) orderRows.push(orderRowOf(order, await pairIdOf(trx, order.pair)));
      const tradeRows: NewTradeRow[] = [];
      for (const trade of trades) tradeRows.push(tradeRowOf(trade, await pairIdOf(trx, trade.pair)));
      await saveOrders(trx, orderRows);
      await insertTrades(trx, tradeRows);
    },
  };
}

async function readPairIds(db: Executor): Promise<Map<string, number>> {
  const pairs = await selectPairs(db);
  return new Map(pairs.map((pair) => [`${pair.tradcoin}/${pair.maincoin}`, pair.autoid]));
}

function orderRowOf(order: SpotOrderRecord, pairId: number): OrderRow {
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
