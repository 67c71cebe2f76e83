import { type BookEvent, OrderBook, type TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { checkSpotOrder, PRICE_INTEGER_DIGITS, type SpotOrderInput } from '@halyard/rules';
import { invalidAccountField } from '../../ledger/accounts.ts';
import { type AccountRef, isLedgerError, systemAccount, type TransferInput } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type { CancelCommand, MoneyEvent, MoneyResult, OpenPairCommand, PlaceCommand } from './commands.ts';
import { applyTransfers, available, type MoneyState, type OpenOrder, type PairState } from './money-state.ts';

/**
 * Spot orders on the money state: the same checks, holds, trade legs, fees
 * and releases as modules/spot (pair-market.ts, fees.ts), with the same
 * transfer ids and codes, decided in memory. Fees are taken in the coin
 * received; fee deduction in HAL and referral commissions read profiles the
 * state does not hold yet (see docs/core.md, "What comes next").
 */

type Refusal = Extract<MoneyResult, { ok: false }>;

const CLEARING = systemAccount('clearing');
const FEES = systemAccount('fees');
const PRICE_CEILING = Dec.fromInt(10n ** BigInt(PRICE_INTEGER_DIGITS));
/** A market buy holds latest price × amount × (1 + this), capped at what the buyer can spend. */
const MARKET_BUY_SLIPPAGE = Dec.parse('0.05');

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
  const heldAsset = command.side === 'buy' ? pair.config.maincoin : pair.config.tradcoin;
  const hold: TransferInput = {
    id: holdId(id),
    type: 'pending',
    debit: command.account,
    credit: CLEARING,
    asset: heldAsset,
    amount: planned.hold,
    code: 'spot_order',
    reference: orderReference(id),
  };
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

interface PlannedOrder {
  price: Dec | null;
  amount: Dec;
  /** Quote for a buy, base for a sell. */
  hold: Dec;
}

/**
 * Spec §5 checks (the rules package, on the balances in the state), then the
 * pair's precision: the amount is floored to amount_accuracy and checked
 * again; a limit price may not be finer than price_accuracy.
 */
function planOrder(state: MoneyState, command: PlaceCommand): PlannedOrder | Refusal {
  const pair = state.pairs.get(command.pair)!;
  const { maincoin, tradcoin, amountAccuracy, priceAccuracy } = pair.config;
  const main = available(state, command.account, maincoin);
  const input: SpotOrderInput = {
    side: command.side,
    style: command.style,
    ...(command.style === 'limit' ? { price: command.price ?? '' } : {}),
    amount: command.amount,
    latestPrice: (pair.lastPrice ?? Dec.ZERO).toString(),
    minNumber: pair.config.minNumber,
    maxNumber: pair.config.maxNumber,
    usableMain: main.toString(),
    usableTrade: available(state, command.account, tradcoin).toString(),
    email: command.email,
  };
  const ruleError = checkSpotOrder(input);
  if (ruleError) return refusal(ruleError.key, ruleError.params);
  const amount = Dec.parse(command.amount).floorTo(amountAccuracy);
  const floored = amount.toString();
  if (floored !== command.amount) {
    const flooredError = checkSpotOrder({ ...input, amount: floored });
    if (flooredError) return refusal(flooredError.key, flooredError.params);
  }
  if (command.style === 'limit') {
    const price = Dec.parse(command.price ?? '');
    if (price.gte(PRICE_CEILING))
      return refusal('rules.tooManyIntegerDigits', { digits: PRICE_INTEGER_DIGITS });
    if (!price.hasAtMostDigits(priceAccuracy))
      return refusal('rules.tooManyDecimals', { digits: priceAccuracy });
    return { price, amount, hold: command.side === 'buy' ? price.mul(amount) : amount };
  }
  if (command.side === 'sell') return { price: null, amount, hold: amount };
  if (pair.lastPrice === null) return refusal('spot.noPrice');
  const guarded = pair.lastPrice.mul(amount).mul(Dec.ONE.add(MARKET_BUY_SLIPPAGE));
  return { price: null, amount, hold: Dec.min(guarded, main) };
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
      const [buyer, seller] = tradeLegs(pair, event, orderOf, trades++, legs, fees);
      touched.set(buyer.id, buyer);
      touched.set(seller.id, seller);
    } else if (event.type === 'done') {
      const order = orderOf(event.orderId);
      ended.add(order.id);
      touched.set(order.id, order);
      const rest = order.held.sub(order.holdSpent);
      if (rest.isPositive()) legs.push(releaseOf(order));
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

/** One trade's legs (ids as modules/spot writes them); answers the buyer's and seller's orders after the fill. */
function tradeLegs(
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
  const buyerFee = trade.amount.mul(buyer === maker ? pair.makerFee : pair.takerFee);
  const sellerFee = trade.quoteAmount.mul(seller === maker ? pair.makerFee : pair.takerFee);
  const { maincoin, tradcoin } = pair.config;
  const id = (leg: string) => `spot:${taker.id}:t${index}:${leg}`;
  const reference = orderReference(taker.id);
  const post = (leg: string, order: OpenOrder, amount: Dec): TransferInput => ({
    id: id(leg),
    type: 'post_pending',
    pendingId: holdId(order.id),
    amount,
    code: 'spot_trade',
    reference,
  });
  const pay = (leg: string, credit: AccountRef, asset: string, amount: Dec, code: string): TransferInput => ({
    id: id(leg),
    debit: CLEARING,
    credit,
    asset,
    amount,
    code,
    reference,
  });
  legs.push(
    post('quote', buyer, trade.quoteAmount),
    post('base', seller, trade.amount),
    pay('to-seller', seller.account, maincoin, trade.quoteAmount.sub(sellerFee), 'spot_trade'),
    pay('to-buyer', buyer.account, tradcoin, trade.amount.sub(buyerFee), 'spot_trade'),
  );
  if (sellerFee.isPositive()) fees.push(pay('seller-fee', FEES, maincoin, sellerFee, 'spot_fee'));
  if (buyerFee.isPositive()) fees.push(pay('buyer-fee', FEES, tradcoin, buyerFee, 'spot_fee'));
  return [filledBy(buyer, trade, trade.quoteAmount), filledBy(seller, trade, trade.amount)];
}

/** The order after a fill: a new object (state values are never changed in place). */
function filledBy(order: OpenOrder, trade: TradeEvent, holdUsed: Dec): OpenOrder {
  return { ...order, remaining: order.remaining.sub(trade.amount), holdSpent: order.holdSpent.add(holdUsed) };
}

function releaseOf(order: OpenOrder): TransferInput {
  return {
    id: `spot:${order.id}:release`,
    type: 'void_pending',
    pendingId: holdId(order.id),
    code: 'spot_release',
    reference: orderReference(order.id),
  };
}

function holdId(orderId: number): string {
  return `spot:${orderId}:hold`;
}

function orderReference(orderId: number): string {
  return `spot:${orderId}`;
}

function refusal(error: string, params?: Record<string, string | number>): Refusal {
  return params === undefined ? { ok: false, error } : { ok: false, error, params };
}

function refused(error: string): { result: Refusal; events: [] } {
  return { result: refusal(error), events: [] };
}
