/**
 * The oracle run shared by the test and bench/matching-oracle.ts: a seeded
 * stream through the fast book and the reference book side by side, checking
 * after every command that the events are identical, the fast book's
 * invariants hold, the top of the book is not crossed, and every order's size
 * is accounted for (placed = filled + cancelled + resting). Throws
 * `OracleMismatch` naming the step at the first difference.
 */
import { Dec } from '@halyard/money';
import { OrderBook } from '../src/book.ts';
import { ReferenceBook } from '../src/reference-book.ts';
import type { BookEvent, DepthSnapshot } from '../src/types.ts';
import { RANDOM_PAIR, randomCommands } from './random-commands.ts';

export class OracleMismatch extends Error {
  override name = 'OracleMismatch';
}

export interface OracleRunOptions {
  seed: number;
  commandCount: number;
  /** The fast book is rebuilt from its own resting orders this often: a restart mid-stream. */
  restoreEvery: number;
  /** The top levels of both books are compared this often (the events are compared every step). */
  depthEvery: number;
}

export interface OracleRunSummary {
  commands: number;
  events: number;
  trades: number;
  restores: number;
  restingAtEnd: number;
}

export function runAgainstReference(options: OracleRunOptions): OracleRunSummary {
  let fast = new OrderBook(RANDOM_PAIR);
  const reference = new ReferenceBook(RANDOM_PAIR);
  const sizes = new SizeAccount();
  const summary: OracleRunSummary = { commands: 0, events: 0, trades: 0, restores: 0, restingAtEnd: 0 };
  for (const command of randomCommands(options.seed, options.commandCount)) {
    const step = ++summary.commands;
    const fastEvents = fast.apply(command);
    const fastText = JSON.stringify(fastEvents);
    const referenceText = JSON.stringify(reference.apply(command));
    if (fastText !== referenceText) {
      throw new OracleMismatch(
        `step ${step} ${JSON.stringify(command)}\n fast ${fastText}\n  ref ${referenceText}`,
      );
    }
    summary.events += fastEvents.length;
    summary.trades += fastEvents.filter((event) => event.type === 'trade').length;

    fast.checkInvariants();
    assertNotCrossed(fast.depth(1), step);
    for (const orderId of sizes.record(fastEvents))
      sizes.assertResting(orderId, fast.order(orderId)?.remaining);

    if (step % options.depthEvery === 0) assertSameDepth(fast.depth(5), reference.depth(5), step);
    if (step % options.restoreEvery === 0) {
      fast = OrderBook.restore(RANDOM_PAIR, fast.restingOrders());
      summary.restores += 1;
    }
  }

  assertSameDepth(
    fast.depth(Number.MAX_SAFE_INTEGER),
    reference.depth(Number.MAX_SAFE_INTEGER),
    summary.commands,
  );
  if (JSON.stringify(fast.restingOrders()) !== JSON.stringify(reference.restingOrders())) {
    throw new OracleMismatch('the resting orders differ at the end');
  }
  if (fast.orderCount !== sizes.liveCount) throw new OracleMismatch('live orders and resting orders differ');
  for (const orderId of sizes.liveIds()) sizes.assertResting(orderId, fast.order(orderId)?.remaining);
  summary.restingAtEnd = fast.orderCount;
  return summary;
}

/** The fast book alone, one JSON line of events per command: for replay comparisons. */
export function fastEventLog(seed: number, commandCount: number): string[] {
  const book = new OrderBook(RANDOM_PAIR);
  return Array.from(randomCommands(seed, commandCount), (command) => JSON.stringify(book.apply(command)));
}

/** Per live order: its size and what has traded, from the events alone. */
class SizeAccount {
  private readonly orders = new Map<string, { amount: Dec; filled: Dec }>();

  /** Books the events of one command and returns the ids of still-live orders they touched. */
  record(events: BookEvent[]): Set<string> {
    const touched = new Set<string>();
    for (const event of events) {
      if (event.type === 'accepted') {
        this.orders.set(event.orderId, { amount: event.amount, filled: Dec.ZERO });
        touched.add(event.orderId);
      } else if (event.type === 'trade') {
        this.fill(event.makerOrderId, event.amount);
        this.fill(event.takerOrderId, event.amount);
        touched.add(event.makerOrderId);
      } else if (event.type === 'done') {
        const order = this.orders.get(event.orderId);
        if (order === undefined) throw new OracleMismatch(`done for unknown order ${event.orderId}`);
        // placed = filled + cancelled: what ends untraded is exactly the reported remaining.
        if (!order.filled.add(event.remaining).eq(order.amount)) {
          throw new OracleMismatch(`${event.orderId} ends unbalanced`);
        }
        if (event.status === 'filled' && !event.remaining.isZero()) {
          throw new OracleMismatch(`${event.orderId} filled with a rest`);
        }
        this.orders.delete(event.orderId);
        touched.delete(event.orderId);
      }
    }
    return touched;
  }

  /** placed = filled + resting, for a live order. */
  assertResting(orderId: string, remaining: Dec | undefined): void {
    const order = this.orders.get(orderId);
    if (order === undefined || remaining === undefined || !remaining.eq(order.amount.sub(order.filled))) {
      throw new OracleMismatch(
        `${orderId} rests with ${remaining}, placed ${order?.amount} filled ${order?.filled}`,
      );
    }
  }

  get liveCount(): number {
    return this.orders.size;
  }

  liveIds(): IterableIterator<string> {
    return this.orders.keys();
  }

  private fill(orderId: string, amount: Dec): void {
    const order = this.orders.get(orderId);
    if (order === undefined) throw new OracleMismatch(`trade for unknown order ${orderId}`);
    order.filled = order.filled.add(amount);
    if (order.filled.gt(order.amount)) throw new OracleMismatch(`${orderId} overfilled`);
  }
}

function assertNotCrossed(depth: DepthSnapshot, step: number): void {
  if (depth.bestBid !== null && depth.bestAsk !== null && depth.bestBid.gte(depth.bestAsk)) {
    throw new OracleMismatch(`step ${step}: crossed, bid ${depth.bestBid} ask ${depth.bestAsk}`);
  }
}

function assertSameDepth(fast: DepthSnapshot, reference: DepthSnapshot, step: number): void {
  const fastText = JSON.stringify(fast);
  const referenceText = JSON.stringify(reference);
  if (fastText !== referenceText) {
    throw new OracleMismatch(`step ${step}: depth differs\n fast ${fastText}\n  ref ${referenceText}`);
  }
}
