import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { RANDOM_PAIR, randomCommands } from '../test-support/random-commands.ts';
import { OrderBook } from './book.ts';
import { ReferenceBook } from './reference-book.ts';
import type { BookEvent, DepthSnapshot } from './types.ts';

/**
 * The fast book against the reference book on a seeded random command stream:
 * the same events command by command, the book's invariants after every step,
 * every order's size accounted for, and the same events again on a replay.
 * MATCHING_ORACLE_COMMANDS overrides the stream length.
 */
const COMMAND_COUNT = Number(process.env.MATCHING_ORACLE_COMMANDS ?? 200_000);
const SEED = 20_261_123;
/** The fast book is rebuilt from its own resting orders this often: a restart mid-stream. */
const RESTORE_EVERY = 10_000;
const DEPTH_EVERY = 1_000;
// About 25 µs a command here; generous room for slow machines and long overridden runs.
const TIMEOUT_MS = Math.max(60_000, COMMAND_COUNT * 0.25);

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
        if (order === undefined) fail(`done for unknown order ${event.orderId}`);
        // placed = filled + cancelled: what ends untraded is exactly the reported remaining.
        if (!order.filled.add(event.remaining).eq(order.amount)) fail(`${event.orderId} ends unbalanced`);
        if (event.status === 'filled' && !event.remaining.isZero())
          fail(`${event.orderId} filled with a rest`);
        this.orders.delete(event.orderId);
        touched.delete(event.orderId);
      }
    }
    return touched;
  }

  /** placed = filled + resting for a live order. */
  expectResting(orderId: string, remaining: Dec | undefined): void {
    const order = this.orders.get(orderId);
    if (order === undefined || remaining === undefined || !remaining.eq(order.amount.sub(order.filled))) {
      fail(`${orderId} rests with ${remaining}, placed ${order?.amount} filled ${order?.filled}`);
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
    if (order === undefined) fail(`trade for unknown order ${orderId}`);
    order.filled = order.filled.add(amount);
    if (order.filled.gt(order.amount)) fail(`${orderId} overfilled`);
  }
}

// Plain checks in the hot loop (an expect() per check would dominate the run time).
function fail(message: string): never {
  expect.fail(message);
}

function expectNotCrossed(depth: DepthSnapshot): void {
  if (depth.bestBid !== null && depth.bestAsk !== null && depth.bestBid.gte(depth.bestAsk)) {
    fail(`crossed: bid ${depth.bestBid} ask ${depth.bestAsk}`);
  }
}

function runFastBook(): string[] {
  const book = new OrderBook(RANDOM_PAIR);
  return Array.from(randomCommands(SEED, COMMAND_COUNT), (command) => JSON.stringify(book.apply(command)));
}

describe(`the fast book against the reference book (${COMMAND_COUNT} seeded commands)`, () => {
  it(
    'produces the same events and depth, keeps its invariants and conserves every size',
    () => {
      let fast = new OrderBook(RANDOM_PAIR);
      const reference = new ReferenceBook(RANDOM_PAIR);
      const sizes = new SizeAccount();
      let step = 0;
      for (const command of randomCommands(SEED, COMMAND_COUNT)) {
        step += 1;
        const fastEvents = fast.apply(command);
        const fastText = JSON.stringify(fastEvents);
        const referenceText = JSON.stringify(reference.apply(command));
        if (fastText !== referenceText) {
          expect.fail(`step ${step} ${JSON.stringify(command)}\n fast ${fastText}\n  ref ${referenceText}`);
        }

        fast.checkInvariants();
        expectNotCrossed(fast.depth(1));
        for (const orderId of sizes.record(fastEvents))
          sizes.expectResting(orderId, fast.order(orderId)?.remaining);

        if (step % DEPTH_EVERY === 0) expect(fast.depth(5)).toEqual(reference.depth(5));
        if (step % RESTORE_EVERY === 0) fast = OrderBook.restore(RANDOM_PAIR, fast.restingOrders());
      }

      expect(fast.depth(Number.MAX_SAFE_INTEGER)).toEqual(reference.depth(Number.MAX_SAFE_INTEGER));
      expect(fast.restingOrders()).toEqual(reference.restingOrders());
      expect(fast.orderCount).toBe(sizes.liveCount);
      for (const orderId of sizes.liveIds()) sizes.expectResting(orderId, fast.order(orderId)?.remaining);
    },
    TIMEOUT_MS,
  );

  it(
    'gives the same events when the same stream is replayed',
    () => {
      const first = runFastBook();
      const replay = runFastBook();
      expect(replay).toHaveLength(COMMAND_COUNT);
      const firstDifference = replay.findIndex((text, index) => text !== first[index]);
      expect(firstDifference).toBe(-1);
    },
    TIMEOUT_MS,
  );
});
