/**
 * The order book of one pair: price-time priority, deterministic, no I/O.
 *
 * Structure. Each side keeps its price levels in an array sorted from the worst
 * price to the best, so the best level is the last element (read and removed in
 * O(1); a new level is placed by binary search, usually near the end, where the
 * action is), plus a map from price units to level. A level is a FIFO queue of
 * orders as an intrusive doubly-linked list (append at the tail, match from the
 * head, unlink anywhere in O(1)) with a running total. `ordersById` finds an
 * order for a cancel in O(1); `ordersByUser` serves cancel-all. Both maps are
 * filled in sequence order (commands arrive in sequence order and a restore
 * sorts first), so iterating them yields the oldest order first.
 *
 * Matching. An incoming order (the taker) meets the best opposite level while
 * the price crosses, always at the head of the queue, and trades at the maker's
 * price for min(taker rest, maker rest) — for a market buy with a quote budget,
 * also at most floor(budget left / price) to the pair's amount accuracy. A
 * limit order's unfilled rest then rests; a market order's rest is cancelled
 * (`no_liquidity`, or `budget_exhausted` when the budget left cannot buy one
 * amount step at the best price).
 *
 * Self-trade prevention: cancel newest. When the next maker in line belongs to
 * the taker's own user, matching stops and the taker's whole unfilled rest is
 * cancelled (`self_trade`), limit or market; it never rests. Trades the taker
 * already made against other users' orders, earlier in the same command, stand
 * and have been reported. The user's resting order is untouched, and orders
 * queued behind it are not reached by this taker.
 *
 * User errors (precision, minimum, unknown order) come back as `rejected`
 * events and change nothing. A broken caller contract (a sequence that does not
 * increase, a malformed pair, a corrupt restore) throws `MatchingError`.
 */
import { Dec } from '@halyard/money';
import { acceptedEvent, cancelledEvent, filledEvent, rejectedEvent, tradeEvent } from './events.ts';
import {
  type BookCommand,
  type BookEvent,
  type CancelAllCommand,
  type CancelCommand,
  type DepthLevel,
  type DepthSnapshot,
  type MatchingBook,
  MatchingError,
  type PairPrecision,
  type PlaceCommand,
  type RestingOrder,
  type Side,
} from './types.ts';
import { assertSequenceAfter, PairRules } from './validate.ts';

interface BookOrder {
  readonly orderId: string;
  readonly userId: string;
  readonly side: Side;
  readonly price: Dec;
  readonly amount: Dec;
  readonly sequence: number;
  readonly level: PriceLevel;
  remaining: Dec;
  previous: BookOrder | null;
  next: BookOrder | null;
}

/** All orders at one price on one side, oldest first. */
class PriceLevel {
  total = Dec.ZERO;
  orderCount = 0;
  head: BookOrder | null = null;
  tail: BookOrder | null = null;

  constructor(
    readonly price: Dec,
    /** Higher is better for a taker: the price for bids, minus the price for asks. */
    readonly rank: bigint,
  ) {}

  append(order: BookOrder): void {
    order.previous = this.tail;
    if (this.tail === null) this.head = order;
    else this.tail.next = order;
    this.tail = order;
    this.total = this.total.add(order.remaining);
    this.orderCount += 1;
  }

  unlink(order: BookOrder): void {
    if (order.previous === null) this.head = order.next;
    else order.previous.next = order.next;
    if (order.next === null) this.tail = order.previous;
    else order.next.previous = order.previous;
    order.previous = null;
    order.next = null;
    this.total = this.total.sub(order.remaining);
    this.orderCount -= 1;
  }

  reduce(order: BookOrder, amount: Dec): void {
    order.remaining = order.remaining.sub(amount);
    this.total = this.total.sub(amount);
  }

  isEmpty(): boolean {
    return this.head === null;
  }
}

/** The levels of one side, worst price first and best price last. */
class BookSide {
  readonly levels: PriceLevel[] = [];
  private readonly levelsByPrice = new Map<bigint, PriceLevel>();

  constructor(readonly side: Side) {}

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** The level at `price`, created in its sorted place when it does not exist yet. */
  levelAt(price: Dec): PriceLevel {
    const existing = this.levelsByPrice.get(price.units);
    if (existing !== undefined) return existing;
    const level = new PriceLevel(price, this.side === 'buy' ? price.units : -price.units);
    this.levels.splice(this.firstIndexAtOrAbove(level.rank), 0, level);
    this.levelsByPrice.set(price.units, level);
    return level;
  }

  remove(level: PriceLevel): void {
    const index = level === this.best() ? this.levels.length - 1 : this.firstIndexAtOrAbove(level.rank);
    if (this.levels[index] !== level) throw new MatchingError(`level ${level.price} is not in the book`);
    this.levels.splice(index, 1);
    this.levelsByPrice.delete(level.price.units);
  }

  /** Up to `levelsMax` levels, best first. */
  bestFirst(levelsMax: number): PriceLevel[] {
    const count = Math.min(levelsMax, this.levels.length);
    const result: PriceLevel[] = [];
    for (let index = this.levels.length - 1; result.length < count; index--) result.push(this.levels[index]!);
    return result;
  }

  hasLevelAt(price: Dec, level: PriceLevel): boolean {
    return this.levelsByPrice.get(price.units) === level;
  }

  get levelCount(): number {
    return this.levelsByPrice.size;
  }

  private firstIndexAtOrAbove(rank: bigint): number {
    let low = 0;
    let high = this.levels.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.levels[middle]!.rank < rank) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** The incoming order while it matches. */
interface Taker {
  readonly orderId: string;
  readonly userId: string;
  readonly side: Side;
  /** Null for a market order: any price crosses. */
  readonly limitPrice: Dec | null;
  remaining: Dec;
  /** Quote still spendable by a market buy with a budget; null when unbounded. */
  budgetLeft: Dec | null;
}

/** Why a taker stopped matching. */
type MatchStop = 'filled' | 'no_cross' | 'self_trade' | 'budget_exhausted';

export class OrderBook implements MatchingBook {
  private readonly bids = new BookSide('buy');
  private readonly asks = new BookSide('sell');
  private readonly ordersById = new Map<string, BookOrder>();
  private readonly ordersByUser = new Map<string, Set<BookOrder>>();
  private lastSequence = Number.NEGATIVE_INFINITY;
  private readonly rules: PairRules;

  constructor(readonly precision: PairPrecision) {
    this.rules = new PairRules(precision);
  }

  /**
   * Rebuilds a book from its resting orders (after a restart), in sequence
   * order. Throws when the orders could not have come from a book: a duplicate
   * id or sequence, a non-positive price, a remaining outside (0, amount], or a
   * crossed result. Precision is not re-checked: an order placed before the
   * pair's accuracy changed keeps its place.
   */
  static restore(precision: PairPrecision, orders: readonly RestingOrder[]): OrderBook {
    const book = new OrderBook(precision);
    for (const order of [...orders].sort((a, b) => a.sequence - b.sequence)) {
      assertSequenceAfter(order.sequence, book.lastSequence);
      assertRestable(order);
      if (book.ordersById.has(order.orderId)) throw new MatchingError(`duplicate order id ${order.orderId}`);
      book.lastSequence = order.sequence;
      book.rest(order, order.remaining);
    }
    book.assertNotCrossed();
    return book;
  }

  apply(command: BookCommand): BookEvent[] {
    switch (command.kind) {
      case 'limit':
      case 'market':
        return this.place(command);
      case 'cancel':
        return this.cancel(command);
      case 'cancelAll':
        return this.cancelAll(command);
    }
  }

  /** Accepts and matches a limit or market order, or rejects it (its sequence is used up either way). */
  place(command: PlaceCommand): BookEvent[] {
    assertSequenceAfter(command.sequence, this.lastSequence);
    this.lastSequence = command.sequence;
    const rejection =
      this.rules.rejectionOf(command) ?? (this.ordersById.has(command.orderId) ? 'duplicate_order_id' : null);
    if (rejection !== null) return [rejectedEvent(command.orderId, command.userId, rejection)];

    const events: BookEvent[] = [acceptedEvent(command)];
    const taker: Taker = {
      orderId: command.orderId,
      userId: command.userId,
      side: command.side,
      limitPrice: command.kind === 'limit' ? command.price : null,
      remaining: command.amount,
      budgetLeft: command.kind === 'market' ? (command.quoteBudget ?? null) : null,
    };
    const stop = this.match(taker, events);
    if (stop === 'filled') events.push(filledEvent(taker));
    else if (stop === 'no_cross' && command.kind === 'limit') this.rest(command, taker.remaining);
    else if (stop === 'no_cross') events.push(cancelledEvent(taker, taker.remaining, 'no_liquidity'));
    else events.push(cancelledEvent(taker, taker.remaining, stop));
    return events;
  }

  cancel(command: CancelCommand): BookEvent[] {
    const order = this.ordersById.get(command.orderId);
    // Another user's order answers like a missing one: ids are not probed through cancels.
    if (order === undefined || order.userId !== command.userId) {
      return [rejectedEvent(command.orderId, command.userId, 'unknown_order')];
    }
    this.remove(order);
    return [cancelledEvent(order, order.remaining, 'user')];
  }

  /** Cancels every resting order of the user, oldest first; nothing to cancel is no event. */
  cancelAll(command: CancelAllCommand): BookEvent[] {
    const orders = [...(this.ordersByUser.get(command.userId) ?? [])];
    return orders.map((order) => {
      this.remove(order);
      return cancelledEvent(order, order.remaining, 'user');
    });
  }

  depth(levelsMax: number): DepthSnapshot {
    if (!Number.isSafeInteger(levelsMax) || levelsMax < 0) {
      throw new MatchingError(`levelsMax must be a non-negative integer, got ${levelsMax}`);
    }
    return {
      bids: this.bids.bestFirst(levelsMax).map(depthLevelOf),
      asks: this.asks.bestFirst(levelsMax).map(depthLevelOf),
      bestBid: this.bids.best()?.price ?? null,
      bestAsk: this.asks.best()?.price ?? null,
    };
  }

  restingOrders(): RestingOrder[] {
    return Array.from(this.ordersById.values(), restingOrderOf);
  }

  order(orderId: string): RestingOrder | null {
    const order = this.ordersById.get(orderId);
    return order === undefined ? null : restingOrderOf(order);
  }

  get orderCount(): number {
    return this.ordersById.size;
  }

  /**
   * Walks the whole structure and throws on the first broken invariant: levels
   * sorted and non-empty, FIFO by sequence, totals and counts equal to their
   * orders, the maps agreeing with the levels, and the book not crossed. Costs
   * O(orders): for tests and audits, not for every command.
   */
  checkInvariants(): void {
    let ordersSeen = 0;
    for (const side of [this.bids, this.asks]) ordersSeen += this.checkSide(side);
    if (ordersSeen !== this.ordersById.size) throw new MatchingError('orders by id disagree with the levels');
    let usersTotal = 0;
    for (const [userId, orders] of this.ordersByUser) {
      if (orders.size === 0) throw new MatchingError(`empty order set kept for user ${userId}`);
      for (const order of orders) {
        if (order.userId !== userId || this.ordersById.get(order.orderId) !== order) {
          throw new MatchingError(`order ${order.orderId} is misfiled under user ${userId}`);
        }
      }
      usersTotal += orders.size;
    }
    if (usersTotal !== this.ordersById.size) {
      throw new MatchingError('orders by user disagree with the levels');
    }
    let previousSequence = Number.NEGATIVE_INFINITY;
    for (const order of this.ordersById.values()) {
      if (order.sequence <= previousSequence) {
        throw new MatchingError('orders by id are out of sequence order');
      }
      previousSequence = order.sequence;
    }
    this.assertNotCrossed();
  }

  private match(taker: Taker, events: BookEvent[]): MatchStop {
    const makers = taker.side === 'buy' ? this.asks : this.bids;
    // Each pass fills a maker completely or is the last but one: the resting count bounds the loop.
    for (let passesLeft = this.ordersById.size + 1; passesLeft > 0; passesLeft--) {
      if (taker.remaining.isZero()) return 'filled';
      const level = makers.best();
      if (level === undefined || !crosses(taker, level.price)) return 'no_cross';
      const maker = level.head!;
      if (maker.userId === taker.userId) return 'self_trade';
      const amount = this.fillAmount(taker, maker);
      if (amount.isZero()) return 'budget_exhausted';
      this.trade(taker, maker, amount, events);
    }
    throw new MatchingError(`matching ${taker.orderId} exceeded its bound`);
  }

  private fillAmount(taker: Taker, maker: BookOrder): Dec {
    const amount = Dec.min(taker.remaining, maker.remaining);
    if (taker.budgetLeft === null) return amount;
    const affordable = taker.budgetLeft.div(maker.price).floorTo(this.precision.amountAccuracy);
    return Dec.min(amount, affordable);
  }

  private trade(taker: Taker, maker: BookOrder, amount: Dec, events: BookEvent[]): void {
    const trade = tradeEvent(maker, taker, amount);
    events.push(trade);
    taker.remaining = taker.remaining.sub(amount);
    if (taker.budgetLeft !== null) taker.budgetLeft = taker.budgetLeft.sub(trade.quoteAmount);
    maker.level.reduce(maker, amount);
    if (maker.remaining.isZero()) {
      this.remove(maker);
      events.push(filledEvent(maker));
    }
  }

  private rest(
    order: Pick<RestingOrder, 'orderId' | 'userId' | 'side' | 'price' | 'amount' | 'sequence'>,
    remaining: Dec,
  ): void {
    const level = this.sideOf(order.side).levelAt(order.price);
    const bookOrder: BookOrder = {
      orderId: order.orderId,
      userId: order.userId,
      side: order.side,
      price: order.price,
      amount: order.amount,
      sequence: order.sequence,
      level,
      remaining,
      previous: null,
      next: null,
    };
    level.append(bookOrder);
    this.ordersById.set(bookOrder.orderId, bookOrder);
    const userOrders = this.ordersByUser.get(bookOrder.userId);
    if (userOrders === undefined) this.ordersByUser.set(bookOrder.userId, new Set([bookOrder]));
    else userOrders.add(bookOrder);
  }

  private remove(order: BookOrder): void {
    const { level } = order;
    level.unlink(order);
    if (level.isEmpty()) this.sideOf(order.side).remove(level);
    this.ordersById.delete(order.orderId);
    const userOrders = this.ordersByUser.get(order.userId)!;
    userOrders.delete(order);
    if (userOrders.size === 0) this.ordersByUser.delete(order.userId);
  }

  private sideOf(side: Side): BookSide {
    return side === 'buy' ? this.bids : this.asks;
  }

  private checkSide(side: BookSide): number {
    let ordersSeen = 0;
    let previousRank: bigint | null = null;
    for (const level of side.levels) {
      if (previousRank !== null && level.rank <= previousRank) throw new MatchingError('levels out of order');
      previousRank = level.rank;
      if (!side.hasLevelAt(level.price, level))
        throw new MatchingError(`level ${level.price} is not indexed`);
      ordersSeen += checkLevel(level, side.side, (order) => this.ordersById.get(order.orderId) === order);
    }
    if (side.levelCount !== side.levels.length) throw new MatchingError('level index has stale prices');
    return ordersSeen;
  }

  private assertNotCrossed(): void {
    const bestBid = this.bids.best()?.price;
    const bestAsk = this.asks.best()?.price;
    if (bestBid !== undefined && bestAsk !== undefined && bestBid.gte(bestAsk)) {
      throw new MatchingError(`book crossed: bid ${bestBid} >= ask ${bestAsk}`);
    }
  }
}

function crosses(taker: Taker, makerPrice: Dec): boolean {
  if (taker.limitPrice === null) return true;
  return taker.side === 'buy' ? makerPrice.lte(taker.limitPrice) : makerPrice.gte(taker.limitPrice);
}

/** Checks one level's queue and returns how many orders it holds. */
function checkLevel(level: PriceLevel, side: Side, isIndexed: (order: BookOrder) => boolean): number {
  if (level.isEmpty()) throw new MatchingError(`empty level ${level.price} kept`);
  let totalUnits = 0n;
  let count = 0;
  let previous: BookOrder | null = null;
  // A queue longer than its count is a broken link: stop there instead of looping forever.
  for (let order = level.head; order !== null && count <= level.orderCount; order = order.next) {
    if (order.previous !== previous) throw new MatchingError(`broken back link at ${order.orderId}`);
    if (previous !== null && order.sequence <= previous.sequence) {
      throw new MatchingError(`FIFO broken at ${level.price}: ${order.orderId} after ${previous.orderId}`);
    }
    if (order.level !== level || order.side !== side || !order.price.eq(level.price)) {
      throw new MatchingError(`order ${order.orderId} sits in the wrong level`);
    }
    if (!order.remaining.isPositive() || order.remaining.gt(order.amount)) {
      throw new MatchingError(`order ${order.orderId} has remaining ${order.remaining} of ${order.amount}`);
    }
    if (!isIndexed(order)) throw new MatchingError(`order ${order.orderId} is not indexed by id`);
    totalUnits += order.remaining.units;
    count += 1;
    previous = order;
  }
  if (previous !== level.tail) throw new MatchingError(`tail of ${level.price} is not its last order`);
  if (count !== level.orderCount) throw new MatchingError(`level ${level.price} counts ${level.orderCount}`);
  if (totalUnits !== level.total.units) {
    throw new MatchingError(`level ${level.price} total ${level.total} ≠ ${Dec.fromUnits(totalUnits)}`);
  }
  return count;
}

function assertRestable(order: RestingOrder): void {
  if (!order.price.isPositive()) throw new MatchingError(`order ${order.orderId} has price ${order.price}`);
  if (!order.remaining.isPositive() || order.remaining.gt(order.amount)) {
    throw new MatchingError(`order ${order.orderId} has remaining ${order.remaining} of ${order.amount}`);
  }
}

function depthLevelOf(level: PriceLevel): DepthLevel {
  return { price: level.price, amount: level.total, orderCount: level.orderCount };
}

function restingOrderOf(order: BookOrder): RestingOrder {
  return {
    orderId: order.orderId,
    userId: order.userId,
    side: order.side,
    price: order.price,
    amount: order.amount,
    remaining: order.remaining,
    sequence: order.sequence,
  };
}
