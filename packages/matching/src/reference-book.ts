/**
 * A deliberately simple order book, kept as the test oracle of `OrderBook` (as
 * exchange-core keeps a naive engine beside its fast one): one array of resting
 * orders in arrival order, and a linear scan for everything. It is slow on
 * purpose and obviously right; the fast book must produce the same events and
 * the same depth on any command stream.
 */
import { Dec, SCALE } from '@halyard/money';
import { acceptedEvent, cancelledEvent, filledEvent, rejectedEvent, tradeEvent } from './events.ts';
import type {
  BookCommand,
  BookEvent,
  CancelReason,
  DepthLevel,
  DepthSnapshot,
  MatchingBook,
  PairPrecision,
  PlaceCommand,
  RestingOrder,
  Side,
} from './types.ts';
import { assertSequenceAfter, PairRules } from './validate.ts';

export class ReferenceBook implements MatchingBook {
  /** Arrival order, which is sequence order. */
  private orders: RestingOrder[] = [];
  private lastSequence = Number.NEGATIVE_INFINITY;

  private readonly rules: PairRules;

  constructor(readonly precision: PairPrecision) {
    this.rules = new PairRules(precision);
  }

  apply(command: BookCommand): BookEvent[] {
    if (command.kind === 'cancel') {
      const order = this.orders.find((o) => o.orderId === command.orderId && o.userId === command.userId);
      if (order === undefined) return [rejectedEvent(command.orderId, command.userId, 'unknown_order')];
      this.orders = this.orders.filter((o) => o !== order);
      return [cancelledEvent(order, order.remaining, 'user')];
    }
    if (command.kind === 'cancelAll') {
      const mine = this.orders.filter((o) => o.userId === command.userId);
      this.orders = this.orders.filter((o) => o.userId !== command.userId);
      return mine.map((order) => cancelledEvent(order, order.remaining, 'user'));
    }
    return this.place(command);
  }

  depth(levelsMax: number): DepthSnapshot {
    const bids = this.levels('buy');
    const asks = this.levels('sell');
    return {
      bids: bids.slice(0, levelsMax),
      asks: asks.slice(0, levelsMax),
      bestBid: bids[0]?.price ?? null,
      bestAsk: asks[0]?.price ?? null,
    };
  }

  restingOrders(): RestingOrder[] {
    return this.orders.map((order) => ({ ...order }));
  }

  private place(command: PlaceCommand): BookEvent[] {
    assertSequenceAfter(command.sequence, this.lastSequence);
    this.lastSequence = command.sequence;
    const rejection =
      this.rules.rejectionOf(command) ??
      (this.orders.some((o) => o.orderId === command.orderId) ? 'duplicate_order_id' : null);
    if (rejection !== null) return [rejectedEvent(command.orderId, command.userId, rejection)];

    const events: BookEvent[] = [acceptedEvent(command)];
    const taker = { orderId: command.orderId, userId: command.userId, side: command.side };
    const limitPrice = command.kind === 'limit' ? command.price : null;
    let remaining = command.amount;
    let budget = command.kind === 'market' ? (command.quoteBudget ?? null) : null;
    let stop: CancelReason | 'filled' | 'rest';
    // Ends: a pass that trades empties the maker, the taker or the budget, and the book is finite.
    for (;;) {
      if (remaining.isZero()) {
        stop = 'filled';
        break;
      }
      const maker = this.bestOrder(command.side === 'buy' ? 'sell' : 'buy');
      if (
        maker === undefined ||
        (limitPrice !== null && !isPriceAcceptable(command.side, maker.price, limitPrice))
      ) {
        stop = limitPrice === null ? 'no_liquidity' : 'rest';
        break;
      }
      if (maker.userId === command.userId) {
        stop = 'self_trade';
        break;
      }
      let amount = Dec.min(remaining, maker.remaining);
      if (budget !== null) amount = Dec.min(amount, this.affordable(budget, maker.price));
      if (amount.isZero()) {
        stop = 'budget_exhausted';
        break;
      }
      const trade = tradeEvent(maker, taker, amount);
      events.push(trade);
      remaining = remaining.sub(amount);
      if (budget !== null) budget = budget.sub(trade.quoteAmount);
      maker.remaining = maker.remaining.sub(amount);
      if (maker.remaining.isZero()) {
        this.orders = this.orders.filter((o) => o !== maker);
        events.push(filledEvent(maker));
      }
    }
    if (stop === 'filled') events.push(filledEvent(taker));
    else if (stop === 'rest') {
      this.orders.push({
        ...taker,
        price: limitPrice!,
        amount: command.amount,
        remaining,
        sequence: command.sequence,
      });
    } else events.push(cancelledEvent(taker, remaining, stop));
    return events;
  }

  /** The best price on `side`, oldest first among equals. */
  private bestOrder(side: Side): RestingOrder | undefined {
    let best: RestingOrder | undefined;
    for (const order of this.orders) {
      if (order.side !== side) continue;
      // Strictly better only: the array is in arrival order, so the oldest of a price wins.
      if (best === undefined || (side === 'buy' ? order.price.gt(best.price) : order.price.lt(best.price))) {
        best = order;
      }
    }
    return best;
  }

  /** The most base `budget` buys at `price`, in whole amount steps, by integer arithmetic on units. */
  private affordable(budget: Dec, price: Dec): Dec {
    const stepUnits = 10n ** BigInt(SCALE - this.precision.amountAccuracy);
    const steps = (budget.units * 10n ** BigInt(SCALE)) / (price.units * stepUnits);
    return Dec.fromUnits(steps * stepUnits);
  }

  /** Aggregated levels of one side, best first. */
  private levels(side: Side): DepthLevel[] {
    const byPrice = new Map<bigint, DepthLevel>();
    for (const order of this.orders) {
      if (order.side !== side) continue;
      const level = byPrice.get(order.price.units) ?? { price: order.price, amount: Dec.ZERO, orderCount: 0 };
      byPrice.set(order.price.units, {
        price: level.price,
        amount: level.amount.add(order.remaining),
        orderCount: level.orderCount + 1,
      });
    }
    const levels = [...byPrice.values()];
    return levels.sort((a, b) => (side === 'buy' ? b.price.cmp(a.price) : a.price.cmp(b.price)));
  }
}

/** A buyer takes at or below its limit, a seller at or above. */
function isPriceAcceptable(takerSide: Side, makerPrice: Dec, limitPrice: Dec): boolean {
  return takerSide === 'buy' ? makerPrice.lte(limitPrice) : makerPrice.gte(limitPrice);
}
