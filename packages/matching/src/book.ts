/**
 * The order book of one pair: price-time priority, deterministic, no I/O.
 *
 * Structure. Each side keeps its price levels in an array sorted from the worst
 * price to the best, so the best level is the last element (read and removed in
 * O(1); a new level is placed by binary search, usually near the end, where the
 * action is), plus a map from price units to level. A resting order is one
 * object that is a node of two intrusive doubly-linked lists at once: its
 * level's FIFO queue (append at the tail, match from the head, unlink anywhere
 * in O(1)) and its user's list, oldest first, for cancel-all. `ordersById` finds
 * an order for a cancel in O(1), and is filled in sequence order (commands
 * arrive in sequence order and a restore sorts first), so iterating it yields
 * the oldest order first.
 *
 * Cost per resting order. A deep book holds hundreds of thousands of orders, and
 * what each one keeps alive is what the garbage collector copies and scans: so
 * an order is that one node and nothing else (no entry in a per-user set, no
 * Dec of its own). Remaining amounts, level totals and a taker's budget are
 * bigint units; a Dec is made only for what leaves the book (events, depth,
 * resting orders).
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
  type CancelReason,
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

/**
 * A resting order, linked into its level's queue and into its user's list. Its
 * side and price are its level's, so the order does not carry them again.
 */
class BookOrder {
  /** Neighbours in the level's queue: the next older and the next newer order at this price. */
  previous: BookOrder | null = null;
  next: BookOrder | null = null;
  /** Neighbours in the user's list (both sides): the user's next older and next newer order. */
  previousOfUser: BookOrder | null = null;
  nextOfUser: BookOrder | null = null;

  constructor(
    readonly orderId: string,
    readonly userId: string,
    readonly amount: Dec,
    readonly sequence: number,
    readonly level: PriceLevel,
    /** Base units not yet filled: in (0, amount.units] while the order rests. */
    public remainingUnits: bigint,
  ) {}

  get side(): Side {
    return this.level.side;
  }

  get price(): Dec {
    return this.level.price;
  }

  /** The remaining amount as a Dec; the order's own amount while nothing has traded. */
  get remaining(): Dec {
    return decOf(this.remainingUnits, this.amount);
  }
}

/** All orders at one price on one side, oldest first. */
class PriceLevel {
  totalUnits = 0n;
  orderCount = 0;
  head: BookOrder | null = null;
  tail: BookOrder | null = null;

  constructor(
    readonly side: Side,
    readonly price: Dec,
    /** Higher is better for a taker: the price for bids, minus the price for asks. */
    readonly rank: bigint,
  ) {}

  append(order: BookOrder): void {
    order.previous = this.tail;
    if (this.tail === null) this.head = order;
    else this.tail.next = order;
    this.tail = order;
    this.totalUnits += order.remainingUnits;
    this.orderCount += 1;
  }

  unlink(order: BookOrder): void {
    if (order.previous === null) this.head = order.next;
    else order.previous.next = order.next;
    if (order.next === null) this.tail = order.previous;
    else order.next.previous = order.previous;
    order.previous = null;
    order.next = null;
    this.totalUnits -= order.remainingUnits;
    this.orderCount -= 1;
  }

  reduce(order: BookOrder, units: bigint): void {
    order.remainingUnits -= units;
    this.totalUnits -= units;
  }

  isEmpty(): boolean {
    return this.head === null;
  }
}

/**
 * The resting orders of one user, oldest first: the same kind of list as a
 * level's queue, threaded through each order's own pair of user links.
 */
class UserOrders {
  head: BookOrder | null = null;
  tail: BookOrder | null = null;
  orderCount = 0;

  append(order: BookOrder): void {
    order.previousOfUser = this.tail;
    if (this.tail === null) this.head = order;
    else this.tail.nextOfUser = order;
    this.tail = order;
    this.orderCount += 1;
  }

  unlink(order: BookOrder): void {
    if (order.previousOfUser === null) this.head = order.nextOfUser;
    else order.previousOfUser.nextOfUser = order.nextOfUser;
    if (order.nextOfUser === null) this.tail = order.previousOfUser;
    else order.nextOfUser.previousOfUser = order.previousOfUser;
    order.previousOfUser = null;
    order.nextOfUser = null;
    this.orderCount -= 1;
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
    const level = new PriceLevel(this.side, price, this.side === 'buy' ? price.units : -price.units);
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
  readonly amount: Dec;
  /** Null for a market order: any price crosses. */
  readonly limitUnits: bigint | null;
  remainingUnits: bigint;
  /** Quote units still spendable by a market buy with a budget; null when unbounded. */
  budgetLeftUnits: bigint | null;
}

/** Why a taker stopped matching. */
type MatchStop = 'filled' | 'no_cross' | 'self_trade' | 'budget_exhausted';

export class OrderBook implements MatchingBook {
  private readonly bids = new BookSide('buy');
  private readonly asks = new BookSide('sell');
  private readonly ordersById = new Map<string, BookOrder>();
  private readonly ordersByUser = new Map<string, UserOrders>();
  private lastSequence = Number.NEGATIVE_INFINITY;
  private rules: PairRules;

  constructor(precision: PairPrecision) {
    this.rules = new PairRules(precision);
  }

  get precision(): PairPrecision {
    return this.rules.precision;
  }

  /**
   * The pair's new precision (an operator changed its settings), for what is
   * placed from now on. The resting orders keep their places, as `restore`
   * keeps them: none is re-checked. Rebuilding the book instead cost a pause
   * proportional to its orders (34 ms with 25,000 resting).
   */
  changePrecision(precision: PairPrecision): void {
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
      book.rest(order, order.remaining.units);
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
      amount: command.amount,
      limitUnits: command.kind === 'limit' ? command.price.units : null,
      remainingUnits: command.amount.units,
      budgetLeftUnits: command.kind === 'market' ? (command.quoteBudget?.units ?? null) : null,
    };
    const stop = this.match(taker, events);
    if (stop === 'filled') events.push(filledEvent(taker));
    else if (stop === 'no_cross' && command.kind === 'limit') this.rest(command, taker.remainingUnits);
    else events.push(cancelledEvent(taker, decOf(taker.remainingUnits, taker.amount), cancelReasonOf(stop)));
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
    const events: BookEvent[] = [];
    let order = this.ordersByUser.get(command.userId)?.head ?? null;
    while (order !== null) {
      // Read before the removal, which clears the order's links.
      const newer = order.nextOfUser;
      this.remove(order);
      events.push(cancelledEvent(order, order.remaining, 'user'));
      order = newer;
    }
    return events;
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
   * orders, the user lists and the map agreeing with the levels, and the book
   * not crossed. Costs O(orders): for tests and audits, not for every command.
   */
  checkInvariants(): void {
    let ordersSeen = 0;
    for (const side of [this.bids, this.asks]) ordersSeen += this.checkSide(side);
    if (ordersSeen !== this.ordersById.size) throw new MatchingError('orders by id disagree with the levels');
    let usersTotal = 0;
    for (const [userId, orders] of this.ordersByUser) usersTotal += this.checkUserOrders(userId, orders);
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
      if (taker.remainingUnits === 0n) return 'filled';
      const level = makers.best();
      if (level === undefined || !crosses(taker, level)) return 'no_cross';
      const maker = level.head!;
      if (maker.userId === taker.userId) return 'self_trade';
      const units = this.fillUnits(taker, maker);
      if (units === 0n) return 'budget_exhausted';
      this.trade(taker, maker, units, events);
    }
    throw new MatchingError(`matching ${taker.orderId} exceeded its bound`);
  }

  /**
   * min(taker rest, maker rest), and for a budget also the whole amount steps
   * the budget left buys at the maker's price. Every operand is non-negative,
   * so bigint division (which truncates) floors here.
   */
  private fillUnits(taker: Taker, maker: BookOrder): bigint {
    const units = minUnits(taker.remainingUnits, maker.remainingUnits);
    if (taker.budgetLeftUnits === null) return units;
    const affordableUnits = (taker.budgetLeftUnits * Dec.ONE.units) / maker.level.price.units;
    const affordableStepsUnits = affordableUnits - (affordableUnits % this.rules.amountStepUnits);
    return minUnits(units, affordableStepsUnits);
  }

  private trade(taker: Taker, maker: BookOrder, units: bigint, events: BookEvent[]): void {
    const trade = tradeEvent(maker, taker, Dec.fromUnits(units));
    events.push(trade);
    taker.remainingUnits -= units;
    if (taker.budgetLeftUnits !== null) taker.budgetLeftUnits -= trade.quoteAmount.units;
    maker.level.reduce(maker, units);
    if (maker.remainingUnits === 0n) {
      this.remove(maker);
      events.push(filledEvent(maker));
    }
  }

  private rest(
    order: Pick<RestingOrder, 'orderId' | 'userId' | 'side' | 'price' | 'amount' | 'sequence'>,
    remainingUnits: bigint,
  ): void {
    const level = this.sideOf(order.side).levelAt(order.price);
    const bookOrder = new BookOrder(
      order.orderId,
      order.userId,
      order.amount,
      order.sequence,
      level,
      remainingUnits,
    );
    level.append(bookOrder);
    this.ordersById.set(bookOrder.orderId, bookOrder);
    let userOrders = this.ordersByUser.get(bookOrder.userId);
    if (userOrders === undefined) {
      userOrders = new UserOrders();
      this.ordersByUser.set(bookOrder.userId, userOrders);
    }
    userOrders.append(bookOrder);
  }

  private remove(order: BookOrder): void {
    const { level } = order;
    level.unlink(order);
    if (level.isEmpty()) this.sideOf(level.side).remove(level);
    this.ordersById.delete(order.orderId);
    const userOrders = this.ordersByUser.get(order.userId)!;
    userOrders.unlink(order);
    if (userOrders.orderCount === 0) this.ordersByUser.delete(order.userId);
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
      if (level.side !== side.side) throw new MatchingError(`level ${level.price} is on the wrong side`);
      ordersSeen += checkLevel(level, (order) => this.ordersById.get(order.orderId) === order);
    }
    if (side.levelCount !== side.levels.length) throw new MatchingError('level index has stale prices');
    return ordersSeen;
  }

  /** Checks one user's list and returns how many orders it holds. */
  private checkUserOrders(userId: string, orders: UserOrders): number {
    if (orders.head === null) throw new MatchingError(`empty order list kept for user ${userId}`);
    let count = 0;
    let previous: BookOrder | null = null;
    // A list longer than its count is a broken link: stop there instead of looping forever.
    for (let order: BookOrder | null = orders.head; order !== null && count <= orders.orderCount; ) {
      if (order.previousOfUser !== previous) throw new MatchingError(`broken user link at ${order.orderId}`);
      if (order.userId !== userId || this.ordersById.get(order.orderId) !== order) {
        throw new MatchingError(`order ${order.orderId} is misfiled under user ${userId}`);
      }
      if (previous !== null && order.sequence <= previous.sequence) {
        throw new MatchingError(`orders of user ${userId} out of sequence at ${order.orderId}`);
      }
      count += 1;
      previous = order;
      order = order.nextOfUser;
    }
    if (previous !== orders.tail) throw new MatchingError(`tail of user ${userId} is not their last order`);
    if (count !== orders.orderCount) throw new MatchingError(`user ${userId} counts ${orders.orderCount}`);
    return count;
  }

  private assertNotCrossed(): void {
    const bestBid = this.bids.best()?.price;
    const bestAsk = this.asks.best()?.price;
    if (bestBid !== undefined && bestAsk !== undefined && bestBid.gte(bestAsk)) {
      throw new MatchingError(`book crossed: bid ${bestBid} >= ask ${bestAsk}`);
    }
  }
}

function crosses(taker: Taker, level: PriceLevel): boolean {
  if (taker.limitUnits === null) return true;
  return taker.side === 'buy' ? level.price.units <= taker.limitUnits : level.price.units >= taker.limitUnits;
}

function cancelReasonOf(stop: Exclude<MatchStop, 'filled'>): CancelReason {
  return stop === 'no_cross' ? 'no_liquidity' : stop;
}

/** Math.min for bigints (Math.min takes numbers only). */
function minUnits(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** `units` as a Dec, reusing `whole` when they are equal (nothing traded): no allocation then. */
function decOf(units: bigint, whole: Dec): Dec {
  return units === whole.units ? whole : Dec.fromUnits(units);
}

/** Checks one level's queue and returns how many orders it holds. */
function checkLevel(level: PriceLevel, isIndexed: (order: BookOrder) => boolean): number {
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
    if (order.level !== level) throw new MatchingError(`order ${order.orderId} sits in the wrong level`);
    if (order.remainingUnits <= 0n || order.remainingUnits > order.amount.units) {
      throw new MatchingError(`order ${order.orderId} has remaining ${order.remaining} of ${order.amount}`);
    }
    if (!isIndexed(order)) throw new MatchingError(`order ${order.orderId} is not indexed by id`);
    totalUnits += order.remainingUnits;
    count += 1;
    previous = order;
  }
  if (previous !== level.tail) throw new MatchingError(`tail of ${level.price} is not its last order`);
  if (count !== level.orderCount) throw new MatchingError(`level ${level.price} counts ${level.orderCount}`);
  if (totalUnits !== level.totalUnits) {
    throw new MatchingError(
      `level ${level.price} total ${Dec.fromUnits(level.totalUnits)} ≠ ${Dec.fromUnits(totalUnits)}`,
    );
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
  return { price: level.price, amount: Dec.fromUnits(level.totalUnits), orderCount: level.orderCount };
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
