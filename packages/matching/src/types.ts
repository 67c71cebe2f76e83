import type { Dec } from '@halyard/money';

/**
 * The plain data that goes in and out of an order book. Commands carry
 * everything the book needs (ids, sequence numbers); events say everything that
 * happened, in order, so the caller can turn them into ledger transfers and rows.
 */

export type Side = 'buy' | 'sell';

/** A pair's accuracy rules, from the market pair row (price_accuracy, amount_accuracy, minnumber). */
export interface PairPrecision {
  /** Prices are whole multiples of 10^-priceAccuracy. */
  priceAccuracy: number;
  /** Amounts are whole multiples of 10^-amountAccuracy. */
  amountAccuracy: number;
  /** The smallest order amount accepted. */
  minNumber: Dec;
}

interface PlaceFields {
  /** Caller supplied, unique among the book's live orders. */
  orderId: string;
  userId: string;
  /**
   * Caller supplied and strictly increasing across place commands: the time
   * priority. A rejected command uses its number up too; a repeated or smaller
   * number throws (a caller bug, not a user error).
   */
  sequence: number;
  /** Base amount. */
  amount: Dec;
}

export interface LimitCommand extends PlaceFields {
  kind: 'limit';
  side: Side;
  price: Dec;
}

/**
 * A market order never rests: what it cannot fill is cancelled. A market buy
 * may carry the quote the caller holds for it; it then never spends more.
 */
export type MarketCommand =
  | (PlaceFields & { kind: 'market'; side: 'buy'; quoteBudget?: Dec })
  | (PlaceFields & { kind: 'market'; side: 'sell'; quoteBudget?: never });

export type PlaceCommand = LimitCommand | MarketCommand;

export interface CancelCommand {
  kind: 'cancel';
  orderId: string;
  /** Only the owner's cancel is honoured; another user's order reads as unknown. */
  userId: string;
}

export interface CancelAllCommand {
  kind: 'cancelAll';
  userId: string;
}

export type BookCommand = PlaceCommand | CancelCommand | CancelAllCommand;

export type RejectReason =
  | 'price_not_positive'
  | 'price_precision'
  | 'amount_not_positive'
  | 'amount_precision'
  | 'amount_below_min'
  | 'budget_not_positive'
  | 'duplicate_order_id'
  | 'unknown_order';

/**
 * Why an order ended before it was filled: the owner cancelled it, a market
 * order ran out of book, a market buy ran out of budget, or the order would
 * have traded with its owner's own resting order.
 */
export type CancelReason = 'user' | 'no_liquidity' | 'budget_exhausted' | 'self_trade';

export interface AcceptedEvent {
  type: 'accepted';
  orderId: string;
  userId: string;
  side: Side;
  orderType: 'limit' | 'market';
  /** The limit price; null for a market order. */
  price: Dec | null;
  amount: Dec;
  /** Only market buys carry one. */
  quoteBudget: Dec | null;
  sequence: number;
}

export interface TradeEvent {
  type: 'trade';
  makerOrderId: string;
  takerOrderId: string;
  makerUserId: string;
  takerUserId: string;
  /** Always the maker's price. */
  price: Dec;
  amount: Dec;
  /** price × amount, exact (the pair's accuracies add up to at most 18 digits). */
  quoteAmount: Dec;
  takerSide: Side;
}

export interface DoneEvent {
  type: 'done';
  orderId: string;
  userId: string;
  side: Side;
  status: 'filled' | 'cancelled';
  /** Null when filled. */
  cancelReason: CancelReason | null;
  /** The base amount that did not trade: zero when filled. */
  remaining: Dec;
}

export interface RejectedEvent {
  type: 'rejected';
  orderId: string;
  userId: string;
  reason: RejectReason;
}

export type BookEvent = AcceptedEvent | TradeEvent | DoneEvent | RejectedEvent;

/** A limit order waiting in the book; also the input of a restore. */
export interface RestingOrder {
  orderId: string;
  userId: string;
  side: Side;
  price: Dec;
  amount: Dec;
  remaining: Dec;
  sequence: number;
}

export interface DepthLevel {
  price: Dec;
  /** The sum of the remaining amounts at this price. */
  amount: Dec;
  orderCount: number;
}

export interface DepthSnapshot {
  /** Best (highest) first. */
  bids: DepthLevel[];
  /** Best (lowest) first. */
  asks: DepthLevel[];
  bestBid: Dec | null;
  bestAsk: Dec | null;
}

/** What both the fast book and the reference book answer to. */
export interface MatchingBook {
  apply(command: BookCommand): BookEvent[];
  depth(levelsMax: number): DepthSnapshot;
  /** Every resting order, oldest sequence first. */
  restingOrders(): RestingOrder[];
}

/** A broken precondition of the caller (not a user error): the book refuses and changes nothing. */
export class MatchingError extends Error {
  override name = 'MatchingError';
}
