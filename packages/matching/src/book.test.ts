import { Dec } from '@halyard/money';
import { beforeEach, describe, expect, it } from 'vitest';
import { OrderBook } from './book.ts';
import { ReferenceBook } from './reference-book.ts';
import {
  type BookCommand,
  type BookEvent,
  type CancelReason,
  type LimitCommand,
  type MarketCommand,
  type MatchingBook,
  MatchingError,
  type PairPrecision,
  type RestingOrder,
  type Side,
} from './types.ts';

const PAIR: PairPrecision = { priceAccuracy: 2, amountAccuracy: 3, minNumber: Dec.parse('0.01') };

/** Builds commands with increasing sequences, the way the server does. */
class Commands {
  private sequence = 0;

  limit(orderId: string, userId: string, side: Side, price: string, amount: string): LimitCommand {
    this.sequence += 1;
    return {
      kind: 'limit',
      orderId,
      userId,
      side,
      price: Dec.parse(price),
      amount: Dec.parse(amount),
      sequence: this.sequence,
    };
  }

  marketBuy(orderId: string, userId: string, amount: string, quoteBudget?: string): MarketCommand {
    this.sequence += 1;
    const command: MarketCommand = {
      kind: 'market',
      orderId,
      userId,
      side: 'buy',
      amount: Dec.parse(amount),
      sequence: this.sequence,
    };
    return quoteBudget === undefined ? command : { ...command, quoteBudget: Dec.parse(quoteBudget) };
  }

  marketSell(orderId: string, userId: string, amount: string): MarketCommand {
    this.sequence += 1;
    return {
      kind: 'market',
      orderId,
      userId,
      side: 'sell',
      amount: Dec.parse(amount),
      sequence: this.sequence,
    };
  }
}

/** Events and snapshots as the wire would carry them: decimals become canonical strings. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function accepted(orderId: string): unknown {
  return expect.objectContaining({ type: 'accepted', orderId });
}

function trade(
  maker: [string, string],
  taker: [string, string],
  price: string,
  amount: string,
  takerSide: Side,
) {
  return {
    type: 'trade',
    makerOrderId: maker[0],
    makerUserId: maker[1],
    takerOrderId: taker[0],
    takerUserId: taker[1],
    price,
    amount,
    quoteAmount: Dec.parse(price).mul(Dec.parse(amount)).toString(),
    takerSide,
  };
}

function filled(orderId: string, userId: string, side: Side) {
  return { type: 'done', orderId, userId, side, status: 'filled', cancelReason: null, remaining: '0' };
}

function cancelled(
  orderId: string,
  userId: string,
  side: Side,
  remaining: string,
  cancelReason: CancelReason,
) {
  return { type: 'done', orderId, userId, side, status: 'cancelled', cancelReason, remaining };
}

function level(price: string, amount: string, orderCount: number) {
  return { price, amount, orderCount };
}

const BOOKS: [string, (precision: PairPrecision) => MatchingBook][] = [
  ['OrderBook', (precision) => new OrderBook(precision)],
  ['ReferenceBook', (precision) => new ReferenceBook(precision)],
];

describe.each(BOOKS)('%s', (_name, makeBook) => {
  let book: MatchingBook;
  let commands: Commands;
  const run = (command: BookCommand): unknown => plain(book.apply(command));
  const runAll = (...list: BookCommand[]): BookEvent[] => list.flatMap((command) => book.apply(command));
  const depth = (levelsMax = 20): unknown => plain(book.depth(levelsMax));

  beforeEach(() => {
    book = makeBook(PAIR);
    commands = new Commands();
  });

  describe('resting and filling', () => {
    it('rests a limit order that crosses nothing', () => {
      expect(run(commands.limit('b1', 'alice', 'buy', '99.5', '2'))).toEqual([
        {
          type: 'accepted',
          orderId: 'b1',
          userId: 'alice',
          side: 'buy',
          orderType: 'limit',
          price: '99.5',
          amount: '2',
          quoteBudget: null,
          sequence: 1,
        },
      ]);
      expect(depth()).toEqual({ bids: [level('99.5', '2', 1)], asks: [], bestBid: '99.5', bestAsk: null });
      expect(plain(book.restingOrders())).toEqual([
        {
          orderId: 'b1',
          userId: 'alice',
          side: 'buy',
          price: '99.5',
          amount: '2',
          remaining: '2',
          sequence: 1,
        },
      ]);
    });

    it('fills both orders fully at the same size', () => {
      run(commands.limit('s1', 'alice', 'sell', '100', '1.5'));
      expect(run(commands.limit('b1', 'bob', 'buy', '100', '1.5'))).toEqual([
        accepted('b1'),
        trade(['s1', 'alice'], ['b1', 'bob'], '100', '1.5', 'buy'),
        filled('s1', 'alice', 'sell'),
        filled('b1', 'bob', 'buy'),
      ]);
      expect(depth()).toEqual({ bids: [], asks: [], bestBid: null, bestAsk: null });
    });

    it("fills across levels at each maker's price and leaves the partly filled maker in place", () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '100', '1'),
        commands.limit('s2', 'alice', 'sell', '101', '2'),
        commands.limit('s3', 'carol', 'sell', '102', '3'),
      );
      expect(run(commands.limit('b1', 'bob', 'buy', '101.5', '2.5'))).toEqual([
        accepted('b1'),
        trade(['s1', 'alice'], ['b1', 'bob'], '100', '1', 'buy'),
        filled('s1', 'alice', 'sell'),
        trade(['s2', 'alice'], ['b1', 'bob'], '101', '1.5', 'buy'),
        filled('b1', 'bob', 'buy'),
      ]);
      expect(depth()).toEqual({
        bids: [],
        asks: [level('101', '0.5', 1), level('102', '3', 1)],
        bestBid: null,
        bestAsk: '101',
      });
      expect(plain(book.restingOrders())).toContainEqual(
        expect.objectContaining({ orderId: 's2', remaining: '0.5' }),
      );
    });

    it('rests the unfilled part of a taker at its own limit price', () => {
      runAll(
        commands.limit('b1', 'alice', 'buy', '100', '1'),
        commands.limit('b2', 'alice', 'buy', '99', '1'),
      );
      expect(run(commands.limit('s1', 'bob', 'sell', '99.5', '3'))).toEqual([
        accepted('s1'),
        trade(['b1', 'alice'], ['s1', 'bob'], '100', '1', 'sell'),
        filled('b1', 'alice', 'buy'),
      ]);
      expect(depth()).toEqual({
        bids: [level('99', '1', 1)],
        asks: [level('99.5', '2', 1)],
        bestBid: '99',
        bestAsk: '99.5',
      });
    });

    it('keeps trade amounts exact at fine accuracies', () => {
      book = makeBook({ priceAccuracy: 8, amountAccuracy: 10, minNumber: Dec.ZERO });
      run(commands.limit('s1', 'alice', 'sell', '0.00000123', '12345.6789012345'));
      const events = book.apply(commands.limit('b1', 'bob', 'buy', '0.00000123', '0.0000000001'));
      expect(plain(events)).toContainEqual(
        trade(['s1', 'alice'], ['b1', 'bob'], '0.00000123', '0.0000000001', 'buy'),
      );
      expect(plain(events)).toContainEqual(expect.objectContaining({ quoteAmount: '0.000000000000000123' }));
    });
  });

  describe('price-time priority', () => {
    it('fills the older of two makers at one price first', () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '100', '1'),
        commands.limit('s2', 'carol', 'sell', '100', '1'),
      );
      expect(run(commands.limit('b1', 'bob', 'buy', '100', '1.2'))).toEqual([
        accepted('b1'),
        trade(['s1', 'alice'], ['b1', 'bob'], '100', '1', 'buy'),
        filled('s1', 'alice', 'sell'),
        trade(['s2', 'carol'], ['b1', 'bob'], '100', '0.2', 'buy'),
        filled('b1', 'bob', 'buy'),
      ]);
      expect(depth()).toEqual({ bids: [], asks: [level('100', '0.8', 1)], bestBid: null, bestAsk: '100' });
    });

    it('fills a better price before an older worse one', () => {
      runAll(
        commands.limit('b1', 'alice', 'buy', '99', '1'),
        commands.limit('b2', 'carol', 'buy', '99.01', '1'),
      );
      expect(run(commands.marketSell('s1', 'bob', '1'))).toEqual([
        accepted('s1'),
        trade(['b2', 'carol'], ['s1', 'bob'], '99.01', '1', 'sell'),
        filled('b2', 'carol', 'buy'),
        filled('s1', 'bob', 'sell'),
      ]);
    });

    it('aggregates depth per price and cuts it at the requested level count', () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '101', '1'),
        commands.limit('s2', 'carol', 'sell', '101', '0.25'),
        commands.limit('s3', 'alice', 'sell', '103', '1'),
        commands.limit('s4', 'alice', 'sell', '102', '1'),
        commands.limit('b1', 'bob', 'buy', '98', '1'),
        commands.limit('b2', 'bob', 'buy', '99', '1'),
      );
      expect(depth(2)).toEqual({
        bids: [level('99', '1', 1), level('98', '1', 1)],
        asks: [level('101', '1.25', 2), level('102', '1', 1)],
        bestBid: '99',
        bestAsk: '101',
      });
      expect(depth(0)).toEqual({ bids: [], asks: [], bestBid: '99', bestAsk: '101' });
    });
  });

  describe('market orders', () => {
    it('cancels a market order whole when the book is empty', () => {
      expect(run(commands.marketBuy('m1', 'bob', '2'))).toEqual([
        accepted('m1'),
        cancelled('m1', 'bob', 'buy', '2', 'no_liquidity'),
      ]);
      expect(depth()).toEqual({ bids: [], asks: [], bestBid: null, bestAsk: null });
    });

    it('never rests: the part the book cannot fill is cancelled', () => {
      run(commands.limit('b1', 'alice', 'buy', '100', '1'));
      expect(run(commands.marketSell('m1', 'bob', '3'))).toEqual([
        accepted('m1'),
        trade(['b1', 'alice'], ['m1', 'bob'], '100', '1', 'sell'),
        filled('b1', 'alice', 'buy'),
        cancelled('m1', 'bob', 'sell', '2', 'no_liquidity'),
      ]);
      expect(depth()).toEqual({ bids: [], asks: [], bestBid: null, bestAsk: null });
    });

    it('buys by quote budget, floor(budget / price) to the amount accuracy at each level', () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '100', '1'),
        commands.limit('s2', 'carol', 'sell', '200', '5'),
      );
      expect(run(commands.marketBuy('m1', 'bob', '5', '250'))).toEqual([
        expect.objectContaining({ type: 'accepted', orderId: 'm1', orderType: 'market', quoteBudget: '250' }),
        trade(['s1', 'alice'], ['m1', 'bob'], '100', '1', 'buy'),
        filled('s1', 'alice', 'sell'),
        trade(['s2', 'carol'], ['m1', 'bob'], '200', '0.75', 'buy'),
        cancelled('m1', 'bob', 'buy', '3.25', 'budget_exhausted'),
      ]);
      expect(depth()).toEqual({ bids: [], asks: [level('200', '4.25', 1)], bestBid: null, bestAsk: '200' });
    });

    it('never spends more than the budget when the budget does not divide evenly', () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '7', '3'),
        commands.limit('s2', 'carol', 'sell', '7.01', '100'),
      );
      const budget = Dec.parse('100');
      const events = book.apply(commands.marketBuy('m1', 'bob', '50', '100'));
      const trades = events.filter((event) => event.type === 'trade');
      const spent = Dec.sum(trades.map((event) => event.quoteAmount));
      expect(plain(trades.map((event) => event.amount))).toEqual(['3', '11.269']);
      expect(spent.toString()).toBe('99.99569');
      expect(spent.lte(budget)).toBe(true);
      // Not one more amount step would have fitted at the last price.
      expect(spent.add(Dec.parse('7.01').mul(Dec.step(PAIR.amountAccuracy))).gt(budget)).toBe(true);
    });

    it('stops at its amount when the budget is larger than needed', () => {
      run(commands.limit('s1', 'alice', 'sell', '100', '10'));
      expect(run(commands.marketBuy('m1', 'bob', '2', '1000000'))).toEqual([
        accepted('m1'),
        trade(['s1', 'alice'], ['m1', 'bob'], '100', '2', 'buy'),
        filled('m1', 'bob', 'buy'),
      ]);
    });

    it('cancels a budget too small for one amount step without trading', () => {
      run(commands.limit('s1', 'alice', 'sell', '100', '10'));
      expect(run(commands.marketBuy('m1', 'bob', '1', '0.09'))).toEqual([
        accepted('m1'),
        cancelled('m1', 'bob', 'buy', '1', 'budget_exhausted'),
      ]);
    });

    it('rejects a budget that is not positive', () => {
      run(commands.limit('s1', 'alice', 'sell', '100', '10'));
      expect(run(commands.marketBuy('m1', 'bob', '1', '0'))).toEqual([
        { type: 'rejected', orderId: 'm1', userId: 'bob', reason: 'budget_not_positive' },
      ]);
    });
  });

  describe('cancel', () => {
    it('cancels a resting order and reports what was left of it', () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '100', '2'),
        commands.limit('b1', 'bob', 'buy', '100', '0.5'),
      );
      expect(run({ kind: 'cancel', orderId: 's1', userId: 'alice' })).toEqual([
        cancelled('s1', 'alice', 'sell', '1.5', 'user'),
      ]);
      expect(depth()).toEqual({ bids: [], asks: [], bestBid: null, bestAsk: null });
    });

    it('keeps the rest of the queue in order around a cancelled order', () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '100', '1'),
        commands.limit('s2', 'carol', 'sell', '100', '1'),
        commands.limit('s3', 'dave', 'sell', '100', '1'),
        { kind: 'cancel', orderId: 's2', userId: 'carol' },
      );
      const makers = book
        .apply(commands.limit('b1', 'bob', 'buy', '100', '2'))
        .flatMap((event) => (event.type === 'trade' ? [event.makerOrderId] : []));
      expect(makers).toEqual(['s1', 's3']);
    });

    it('rejects an unknown id, a finished order and another user’s order, changing nothing', () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '100', '1'),
        commands.limit('s2', 'alice', 'sell', '101', '1'),
      );
      run(commands.limit('b1', 'bob', 'buy', '100', '1'));
      const before = depth();
      expect(run({ kind: 'cancel', orderId: 'nope', userId: 'alice' })).toEqual([
        { type: 'rejected', orderId: 'nope', userId: 'alice', reason: 'unknown_order' },
      ]);
      expect(run({ kind: 'cancel', orderId: 's1', userId: 'alice' })).toEqual([
        { type: 'rejected', orderId: 's1', userId: 'alice', reason: 'unknown_order' },
      ]);
      expect(run({ kind: 'cancel', orderId: 's2', userId: 'bob' })).toEqual([
        { type: 'rejected', orderId: 's2', userId: 'bob', reason: 'unknown_order' },
      ]);
      expect(depth()).toEqual(before);
    });

    it("cancels all of one user's orders on both sides, oldest first, and no one else's", () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '101', '1'),
        commands.limit('b1', 'bob', 'buy', '99', '1'),
        commands.limit('b2', 'alice', 'buy', '98', '2'),
        commands.limit('s2', 'alice', 'sell', '101', '3'),
      );
      expect(run({ kind: 'cancelAll', userId: 'alice' })).toEqual([
        cancelled('s1', 'alice', 'sell', '1', 'user'),
        cancelled('b2', 'alice', 'buy', '2', 'user'),
        cancelled('s2', 'alice', 'sell', '3', 'user'),
      ]);
      expect(depth()).toEqual({ bids: [level('99', '1', 1)], asks: [], bestBid: '99', bestAsk: null });
      expect(run({ kind: 'cancelAll', userId: 'alice' })).toEqual([]);
    });
  });

  describe('self-trade prevention (cancel newest)', () => {
    it('cancels the taker whole when its own order is first in line, leaving the resting one alone', () => {
      runAll(
        commands.limit('s1', 'alice', 'sell', '100', '1'),
        commands.limit('s2', 'carol', 'sell', '101', '1'),
      );
      expect(run(commands.limit('b1', 'alice', 'buy', '101', '3'))).toEqual([
        accepted('b1'),
        cancelled('b1', 'alice', 'buy', '3', 'self_trade'),
      ]);
      expect(depth()).toEqual({
        bids: [],
        asks: [level('100', '1', 1), level('101', '1', 1)],
        bestBid: null,
        bestAsk: '100',
      });
    });

    it('keeps the trades made against others before the own order and cancels only the rest', () => {
      runAll(
        commands.limit('s1', 'carol', 'sell', '100', '1'),
        commands.limit('s2', 'alice', 'sell', '101', '1'),
        commands.limit('s3', 'dave', 'sell', '101', '1'),
      );
      expect(run(commands.limit('b1', 'alice', 'buy', '102', '3'))).toEqual([
        accepted('b1'),
        trade(['s1', 'carol'], ['b1', 'alice'], '100', '1', 'buy'),
        filled('s1', 'carol', 'sell'),
        cancelled('b1', 'alice', 'buy', '2', 'self_trade'),
      ]);
      // The own order and the one queued behind it at the same price both stay.
      expect(depth()).toEqual({ bids: [], asks: [level('101', '2', 2)], bestBid: null, bestAsk: '101' });
    });

    it('applies to market orders too', () => {
      runAll(
        commands.limit('b1', 'carol', 'buy', '100', '1'),
        commands.limit('b2', 'alice', 'buy', '99', '1'),
      );
      expect(run(commands.marketSell('m1', 'alice', '5'))).toEqual([
        accepted('m1'),
        trade(['b1', 'carol'], ['m1', 'alice'], '100', '1', 'sell'),
        filled('b1', 'carol', 'buy'),
        cancelled('m1', 'alice', 'sell', '4', 'self_trade'),
      ]);
    });

    it('lets a user rest on both sides when the prices do not cross', () => {
      run(commands.limit('s1', 'alice', 'sell', '100', '1'));
      expect(run(commands.limit('b1', 'alice', 'buy', '99.99', '1'))).toEqual([accepted('b1')]);
      expect(depth()).toEqual({
        bids: [level('99.99', '1', 1)],
        asks: [level('100', '1', 1)],
        bestBid: '99.99',
        bestAsk: '100',
      });
    });
  });

  describe('rejections', () => {
    it.each([
      ['a price with too many digits', '100.001', '1', 'price_precision'],
      ['a zero price', '0', '1', 'price_not_positive'],
      ['a negative price', '-1', '1', 'price_not_positive'],
      ['an amount with too many digits', '100', '1.0001', 'amount_precision'],
      ['a zero amount', '100', '0', 'amount_not_positive'],
      ['a negative amount', '100', '-1', 'amount_not_positive'],
      ['an amount below minNumber', '100', '0.009', 'amount_below_min'],
    ])('rejects %s and changes nothing', (_case, price, amount, reason) => {
      run(commands.limit('s1', 'alice', 'sell', '100', '1'));
      const before = depth();
      expect(run(commands.limit('b1', 'bob', 'buy', price, amount))).toEqual([
        { type: 'rejected', orderId: 'b1', userId: 'bob', reason },
      ]);
      expect(depth()).toEqual(before);
    });

    it('accepts an amount of exactly minNumber', () => {
      expect(run(commands.limit('b1', 'bob', 'buy', '100', '0.01'))).toEqual([accepted('b1')]);
    });

    it('checks market orders for precision and minimum as well', () => {
      run(commands.limit('b1', 'alice', 'buy', '100', '1'));
      expect(run(commands.marketSell('m1', 'bob', '0.0015'))).toEqual([
        { type: 'rejected', orderId: 'm1', userId: 'bob', reason: 'amount_precision' },
      ]);
      expect(run(commands.marketSell('m2', 'bob', '0.005'))).toEqual([
        { type: 'rejected', orderId: 'm2', userId: 'bob', reason: 'amount_below_min' },
      ]);
    });

    it('rejects an id that is still resting, and takes it again once that order is gone', () => {
      run(commands.limit('b1', 'alice', 'buy', '100', '1'));
      expect(run(commands.limit('b1', 'bob', 'buy', '99', '1'))).toEqual([
        { type: 'rejected', orderId: 'b1', userId: 'bob', reason: 'duplicate_order_id' },
      ]);
      run({ kind: 'cancel', orderId: 'b1', userId: 'alice' });
      expect(run(commands.limit('b1', 'bob', 'buy', '99', '1'))).toEqual([accepted('b1')]);
    });

    it('throws on a sequence that does not increase, a caller bug, and changes nothing', () => {
      run(commands.limit('b1', 'alice', 'buy', '100', '1'));
      const stale: LimitCommand = { ...commands.limit('b2', 'alice', 'buy', '100', '1'), sequence: 1 };
      expect(() => book.apply(stale)).toThrow(MatchingError);
      expect(depth()).toEqual({ bids: [level('100', '1', 1)], asks: [], bestBid: '100', bestAsk: null });
    });

    it('refuses a malformed pair', () => {
      expect(() => makeBook({ ...PAIR, priceAccuracy: 10, amountAccuracy: 9 })).toThrow(MatchingError);
      expect(() => makeBook({ ...PAIR, priceAccuracy: 1.5 })).toThrow(MatchingError);
      expect(() => makeBook({ ...PAIR, minNumber: Dec.parse('-1') })).toThrow(MatchingError);
    });
  });
});

describe('OrderBook.restore', () => {
  function busyBook(): { book: OrderBook; commands: Commands } {
    const book = new OrderBook(PAIR);
    const commands = new Commands();
    const stream: BookCommand[] = [
      commands.limit('s1', 'alice', 'sell', '101', '1'),
      commands.limit('s2', 'carol', 'sell', '101', '2'),
      commands.limit('s3', 'alice', 'sell', '102.5', '0.75'),
      commands.limit('b1', 'bob', 'buy', '99', '4'),
      commands.limit('b2', 'dave', 'buy', '99', '1'),
      commands.limit('b3', 'bob', 'buy', '98', '1'),
      commands.limit('x1', 'erin', 'buy', '101', '1.5'),
      commands.marketSell('x2', 'erin', '0.5'),
      { kind: 'cancel', orderId: 'b3', userId: 'bob' },
    ];
    for (const command of stream) book.apply(command);
    return { book, commands };
  }

  it('rebuilds the same book from its resting orders', () => {
    const { book: original, commands } = busyBook();
    const restored = OrderBook.restore(PAIR, original.restingOrders());
    restored.checkInvariants();
    expect(plain(restored.depth(50))).toEqual(plain(original.depth(50)));
    expect(restored.restingOrders()).toEqual(original.restingOrders());
    // And it matches the next commands exactly as the original would, FIFO included.
    const next: BookCommand[] = [
      commands.marketBuy('t1', 'zed', '2.5'),
      commands.limit('t2', 'zed', 'sell', '98', '5'),
      { kind: 'cancelAll', userId: 'alice' },
    ];
    for (const command of next)
      expect(plain(restored.apply(command))).toEqual(plain(original.apply(command)));
  });

  it('accepts the orders in any order and queues them by sequence', () => {
    const { book: original } = busyBook();
    const restored = OrderBook.restore(PAIR, original.restingOrders().reverse());
    expect(restored.restingOrders()).toEqual(original.restingOrders());
  });

  it('refuses orders that no book could hold', () => {
    const order: RestingOrder = {
      orderId: 'a',
      userId: 'alice',
      side: 'buy',
      price: Dec.parse('100'),
      amount: Dec.parse('2'),
      remaining: Dec.parse('1'),
      sequence: 1,
    };
    const restore =
      (...orders: RestingOrder[]) =>
      () =>
        OrderBook.restore(PAIR, orders);
    expect(restore(order, { ...order, orderId: 'b', side: 'sell', sequence: 2 })).toThrow(/crossed/);
    expect(restore(order, { ...order, sequence: 2 })).toThrow(/duplicate/);
    expect(restore(order, { ...order, orderId: 'b' })).toThrow(/sequence/);
    expect(restore({ ...order, remaining: Dec.parse('3') })).toThrow(MatchingError);
    expect(restore({ ...order, remaining: Dec.ZERO })).toThrow(MatchingError);
    expect(restore({ ...order, price: Dec.ZERO })).toThrow(MatchingError);
  });

  it('continues sequences after the restored ones', () => {
    const { book: original, commands } = busyBook();
    const restored = OrderBook.restore(PAIR, original.restingOrders());
    const lastRestingSequence = Math.max(...original.restingOrders().map((order) => order.sequence));
    const stale = { ...commands.limit('y', 'zed', 'buy', '90', '1'), sequence: lastRestingSequence };
    expect(() => restored.apply(stale)).toThrow(MatchingError);
  });
});

describe('OrderBook.changePrecision', () => {
  it('keeps the resting orders where they are, as a book restored at the new precision would, and checks new orders by it', () => {
    const { book: changed, commands } = (() => {
      const book = new OrderBook(PAIR);
      const built = new Commands();
      for (const command of [
        built.limit('s1', 'alice', 'sell', '101', '0.02'),
        built.limit('s2', 'carol', 'sell', '101', '2'),
        built.limit('b1', 'bob', 'buy', '99', '4'),
      ])
        book.apply(command);
      return { book, commands: built };
    })();
    const raised: PairPrecision = { ...PAIR, minNumber: Dec.parse('0.5') };
    const restored = OrderBook.restore(raised, changed.restingOrders());
    changed.changePrecision(raised);
    changed.checkInvariants();
    expect(changed.precision).toBe(raised);
    // s1 rests below the new minimum and keeps its place; it is filled first.
    expect(changed.restingOrders()).toEqual(restored.restingOrders());
    const next: BookCommand[] = [
      commands.limit('small', 'zed', 'buy', '101', '0.1'),
      commands.limit('t1', 'zed', 'buy', '101', '1'),
      commands.marketSell('t2', 'zed', '1'),
    ];
    const events = next.map((command) => plain(changed.apply(command)));
    expect(events).toEqual(next.map((command) => plain(restored.apply(command))));
    expect(events[0]).toMatchObject([{ type: 'rejected', reason: 'amount_below_min' }]);
    expect(events[1]).toContainEqual(expect.objectContaining({ type: 'trade', makerOrderId: 's1' }));
    const makers = changed
      .apply(commands.limit('t3', 'yan', 'buy', '101', '0.5'))
      .flatMap((event) => (event.type === 'trade' ? [event.makerOrderId] : []));
    expect(makers).toEqual(['s2']);
  });
});

describe('OrderBook.checkInvariants', () => {
  it('passes on a busy book and looks orders up by id', () => {
    const book = new OrderBook(PAIR);
    const commands = new Commands();
    book.apply(commands.limit('s1', 'alice', 'sell', '101', '1'));
    book.apply(commands.limit('b1', 'bob', 'buy', '101', '0.4'));
    book.checkInvariants();
    expect(plain(book.order('s1'))).toEqual(expect.objectContaining({ remaining: '0.6' }));
    expect(book.order('b1')).toBeNull();
    expect(book.orderCount).toBe(1);
  });

  it("throws when a user's list of orders loses a link", () => {
    const book = new OrderBook(PAIR);
    const commands = new Commands();
    book.apply(commands.limit('s1', 'alice', 'sell', '101', '1'));
    book.apply(commands.limit('b1', 'alice', 'buy', '99', '1'));
    book.checkInvariants();
    // Reaches into the private structure on purpose: the check must notice a list the book itself broke.
    const internals = book as unknown as { ordersByUser: Map<string, { head: { nextOfUser: unknown } }> };
    internals.ordersByUser.get('alice')!.head.nextOfUser = null;
    expect(() => book.checkInvariants()).toThrow(MatchingError);
  });
});
