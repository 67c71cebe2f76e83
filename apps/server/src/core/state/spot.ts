import { type BookEvent, OrderBook, type TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { invalidAccountField } from '../../ledger/accounts.ts';
import { isLedgerError, type TransferInput } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type { CancelCommand, MoneyEvent, MoneyResult, OpenPairCommand, PlaceCommand } from './commands.ts';
import { applyTransfers, available, type MoneyState, type OpenOrder, type PairState } from './money-state.ts';
import {
  feeLegOf,
  heldAssetOf,
  holdOf,
  isRefusal,
  planSpotOrder,
  releaseOf,
  type SpotOrderPlan,
  tradeLegs,
} from './spot-legs.ts';

/**
 * Spot orders on the money state: the checks, holds, trade legs, fees and
 * releases of spot-legs.ts, shared with modules/spot, decided in memory. Fees are taken in the coin
 * received; fee deduction in HAL and referral commissions read profiles the
 * state does not hold yet (see docs/core.md, "What comes next").
 */

type Refusal = Extract<MoneyResult, { ok: false }>;

export function openPair(state: MoneyState, command: OpenPairCommand): Applied<MoneyResult, MoneyEvent> {
  const { pair } = command;
  const existing = state.pairs.get(pair.symbol);
  const precision = {
    priceAccuracy: pair.priceAccuracy,
    amountAccuracy: pair.amountAccuracy,
    minNumber: Dec.parse(pair.minNumber),
  };
  const precisionChanges =
    existing !== undefined &&
    (existing.config.priceAccuracy !== pair.priceAccuracy ||
      existing.config.amountAccuracy !== pair.amountAccuracy);
  if (precisionChanges && state.books.get(pair.symbol)!.orderCount > 0)
    return refused('markets.precisionWithOpenOrders');
  state.pairs.set(pair.symbol, {
    config: pair,
    precision,
    makerFee: Dec.parse(pair.makerFee),
    takerFee: Dec.parse(pair.takerFee),
    lastPrice: existing?.lastPrice ?? null,
  });
  const book = state.books.get(pair.symbol);
  state.books.set(pair.symbol, OrderBook.restore(precision, book?.restingOrders() ?? []));
  return { result: { ok: true }, events: [] };
}

/** Checks, holds, matches and settles one order; a refusal changes nothing. */
export function placeOrder(
  state: MoneyState,
  command: PlaceCommand,
  seq: number,
): Applied<MoneyResult, MoneyEvent> {
  const pair = state.pairs.get(command.pair);
  if (!pair) return refused('spot.pairNotFound');
  if (invalidAccountField(command.account) !== null) return refused('spot.invalidAccount');
  const planned = planOrder(state, command);
  if ('error' in planned) return { result: planned, events: [] };
  const id = state.nextOrderId;
  const hold = holdOf(id, command.account, heldAssetOf(command.side, pair.config), planned.hold);
  let holdPlan: ReturnType<typeof applyTransfers>;
  try {
    holdPlan = applyTransfers(state, [hold], command.at, seq, true);
  } catch (error) {
    if (isLedgerError(error)) return refused(error.key);
    throw error;
  }
  state.nextOrderId = id + 1;
  const order: OpenOrder = {
    id,
    pair: command.pair,
    owner: command.owner,
    account: command.account,
    side: command.side,
    price: planned.price ?? Dec.ZERO,
    amount: planned.amount,
    remaining: planned.amount,
    held: planned.hold,
    holdSpent: Dec.ZERO,
  };
  const book = state.books.get(command.pair)!;
  const common = { orderId: String(id), userId: command.owner, sequence: id, amount: planned.amount };
  const events =
    command.style === 'limit'
      ? book.place({ ...common, kind: 'limit', side: command.side, price: planned.price! })
      : command.side === 'buy'
        ? book.place({ ...common, kind: 'market', side: 'buy', quoteBudget: planned.hold })
        : book.place({ ...common, kind: 'market', side: 'sell' });
  const settled = settle(state, command.pair, events, order, command.at, seq);
  const filled = planned.amount.sub(settled.touched.get(id)!.remaining);
  const open = !settled.ended.has(id);
  return {
    result: { ok: true, order: { orderId: id, filled: filled.toString(), open } },
    events: [
      { type: 'transfers', transfers: [...holdPlan.newTransfers, ...settled.transfers] },
      { type: 'book', pair: command.pair, events },
    ],
  };
}

export function cancelOrder(
  state: MoneyState,
  command: CancelCommand,
  seq: number,
): Applied<MoneyResult, MoneyEvent> {
  const order = state.orders.get(command.orderId);
  if (!order || order.owner !== command.owner || order.pair !== command.pair)
    return refused('spot.orderNotOpen');
  const events = state.books
    .get(command.pair)!
    .cancel({ kind: 'cancel', orderId: String(order.id), userId: order.owner });
  const settled = settle(state, command.pair, events, null, command.at, seq);
  return {
    result: {
      ok: true,
      order: { orderId: order.id, filled: order.amount.sub(order.remaining).toString(), open: false },
    },
    events: [
      { type: 'transfers', transfers: settled.transfers },
      { type: 'book', pair: command.pair, events },
    ],
  };
}

/** The shared spot checks (spot-legs.ts) on the balances and latest price in the state. */
function planOrder(state: MoneyState, command: PlaceCommand): SpotOrderPlan | Refusal {
  const pair = state.pairs.get(command.pair)!;
  const { maincoin, tradcoin } = pair.config;
  const planned = planSpotOrder(command, pair.config, {
    latest: pair.lastPrice,
    usableMain: available(state, command.account, maincoin),
    usableTrade: available(state, command.account, tradcoin),
  });
  return isRefusal(planned) ? refusal(planned.key, planned.params) : planned;
}

/**
 * Turns book events into one ledger batch and order changes: per trade both
 * holds posted into clearing and each side paid from it, less its fee; per
 * ended order the rest of its hold released; then the fees from clearing to
 * the fee account. The ledger must accept the batch: the checks and the hold
 * came first, so a refusal here is a bug and stops the sequencer.
 */
function settle(
  state: MoneyState,
  pairSymbol: string,
  events: readonly BookEvent[],
  taker: OpenOrder | null,
  at: number,
  seq: number,
): { transfers: NewTransfer[]; touched: Map<number, OpenOrder>; ended: Set<number> } {
  const pair = state.pairs.get(pairSymbol)!;
  const touched = new Map<number, OpenOrder>();
  if (taker) touched.set(taker.id, taker);
  const orderOf = (orderId: string): OpenOrder => {
    const id = Number(orderId);
    const order = touched.get(id) ?? state.orders.get(id);
    if (!order) throw new Error(`spot state: order ${orderId} is in the book but not in the state`);
    return order;
  };
  const legs: TransferInput[] = [];
  const fees: TransferInput[] = [];
  const ended = new Set<number>();
  let trades = 0;
  for (const event of events) {
    if (event.type === 'trade') {
      const [buyer, seller] = settleTrade(pair, event, orderOf, trades++, legs, fees);
      touched.set(buyer.id, buyer);
      touched.set(seller.id, seller);
    } else if (event.type === 'done') {
      const order = orderOf(event.orderId);
      ended.add(order.id);
      touched.set(order.id, order);
      const rest = order.held.sub(order.holdSpent);
      if (rest.isPositive()) legs.push(releaseOf(order.id));
    } else if (event.type === 'rejected') {
      throw new Error(`spot state: the book rejected a checked order (${event.reason})`);
    }
  }
  const plan = applyTransfers(state, [...legs, ...fees], at, seq, true);
  for (const order of touched.values()) {
    if (ended.has(order.id)) state.orders.delete(order.id);
    else state.orders.set(order.id, order);
  }
  const last = events.findLast((event): event is TradeEvent => event.type === 'trade');
  if (last) state.pairs.set(pairSymbol, { ...pair, lastPrice: last.price });
  return { transfers: plan.newTransfers, touched, ended };
}

/** One trade's legs (spot-legs.ts, as modules/spot writes them); answers the buyer's and seller's orders after the fill. */
function settleTrade(
  pair: PairState,
  trade: TradeEvent,
  orderOf: (orderId: string) => OpenOrder,
  index: number,
  legs: TransferInput[],
  fees: TransferInput[],
): [OpenOrder, OpenOrder] {
  const maker = orderOf(trade.makerOrderId);
  const taker = orderOf(trade.takerOrderId);
  const [buyer, seller] = trade.takerSide === 'buy' ? [taker, maker] : [maker, taker];
  const planned = tradeLegs({
    trade,
    index,
    buyer: { orderId: buyer.id, account: buyer.account },
    seller: { orderId: seller.id, account: seller.account },
    maincoin: pair.config.maincoin,
    tradcoin: pair.config.tradcoin,
    makerFee: pair.makerFee,
    takerFee: pair.takerFee,
  });
  legs.push(...planned.posts, ...planned.deliveries);
  for (const fee of [planned.sellerFee, planned.buyerFee])
    if (fee.fee.isPositive()) fees.push(feeLegOf(fee, planned.reference));
  return [filledBy(buyer, trade, trade.quoteAmount), filledBy(seller, trade, trade.amount)];
}

/** The order after a fill: a new object (state values are never changed in place). */
function filledBy(order: OpenOrder, trade: TradeEvent, holdUsed: Dec): OpenOrder {
  return { ...order, remaining: order.remaining.sub(trade.amount), holdSpent: order.holdSpent.add(holdUsed) };
}

function refusal(error: string, params?: Record<string, string | number>): Refusal {
  return params === undefined ? { ok: false, error } : { ok: false, error, params };
}

function refused(error: string): { result: Refusal; events: [] } {
  return { result: refusal(error), events: [] };
}
