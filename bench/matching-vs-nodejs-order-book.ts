/**
 * Our order book (packages/matching, exact bigint decimals) against the npm
 * package nodejs-order-book (JavaScript numbers) on the same seeded flows.
 *
 * Anchor: nodejs-order-book itself, run here on the same commands. Targets: ours
 * ≥ 2× theirs on the shallow flow; our deep-book rate within 2× of our shallow rate.
 *
 * Flows (generated once, before any timing, by replaying them through our book
 * so that cancels name orders that are really resting):
 * - shallow: 60% limit, 30% cancel, 10% market, ~1,000 resting orders over ~300
 *   levels (a limit crosses the book when more than 1,000 orders rest, so the
 *   book holds its size);
 * - deep: 70% limit, 20% cancel, 10% market over 100 levels, the book grows to
 *   hundreds of thousands of orders, thousands per level.
 * nodejs-order-book collapses on the deep flow, so it runs on a prefix only
 * (DEEP_PREFIX, printed), and ours runs on that same prefix too for the ratio.
 *
 *   npm run bench:matching            (or: npx tsx bench/matching-vs-nodejs-order-book.ts [ops] [deepPrefix])
 */
import { cpus, loadavg } from 'node:os';
import { Dec } from '@halyard/money';
import { OrderBook as TheirBook } from 'nodejs-order-book';
import {
  type BookCommand,
  type BookEvent,
  OrderBook,
  type PairPrecision,
} from '../packages/matching/src/index.ts';
import { mulberry32 } from '../packages/matching/test-support/random-commands.ts';

const OPERATIONS = Number(process.argv[2] ?? 1_000_000);
const DEEP_PREFIX = Number(process.argv[3] ?? 100_000);
const LATENCY_SAMPLE_EVERY = 4;

const PAIR: PairPrecision = { priceAccuracy: 2, amountAccuracy: 3, minNumber: Dec.parse('0.001') };
const MID_TICKS = 10_000; // 100.00
const USER_COUNT = 997;

/** One command in both engines' input types, converted before any timing. */
interface DualCommand {
  ours: BookCommand;
  theirs: () => unknown;
}

interface FlowShape {
  name: string;
  limitShare: number;
  cancelShare: number;
  /** Passive limit prices sit 1..levelSpread ticks away from the mid on their own side. */
  levelSpread: number;
  /** When set, a limit crosses the book whenever more orders than this rest. */
  restingTarget: number | null;
}

const SHALLOW: FlowShape = {
  name: 'shallow',
  limitShare: 0.6,
  cancelShare: 0.3,
  levelSpread: 150,
  restingTarget: 1_000,
};
const DEEP: FlowShape = {
  name: 'deep',
  limitShare: 0.7,
  cancelShare: 0.2,
  levelSpread: 50,
  restingTarget: null,
};

/** Resting order ids (and their owners) with O(1) insert, delete and uniform pick. */
class LiveIds {
  private readonly ids: string[] = [];
  private readonly indexById = new Map<string, number>();
  readonly ownerById = new Map<string, string>();

  get size(): number {
    return this.ids.length;
  }

  add(id: string, owner: string): void {
    this.ownerById.set(id, owner);
    this.indexById.set(id, this.ids.length);
    this.ids.push(id);
  }

  delete(id: string): void {
    const index = this.indexById.get(id);
    if (index === undefined) return;
    const last = this.ids.pop()!;
    this.indexById.delete(id);
    this.ownerById.delete(id);
    if (last !== id) {
      this.ids[index] = last;
      this.indexById.set(last, index);
    }
  }

  pick(random: () => number): string | undefined {
    return this.ids[Math.floor(random() * this.ids.length)];
  }
}

function trackResting(live: LiveIds, events: BookEvent[]): void {
  for (const event of events) {
    if (event.type === 'accepted' && event.orderType === 'limit') live.add(event.orderId, event.userId);
    else if (event.type === 'done') live.delete(event.orderId);
  }
}

function ticksToPrice(ticks: number): { dec: Dec; num: number } {
  return { dec: Dec.parse((ticks / 100).toFixed(2)), num: ticks / 100 };
}

function lotsToAmount(lots: number): { dec: Dec; num: number } {
  return { dec: Dec.parse((lots / 1000).toFixed(3)), num: lots / 1000 };
}

/** The flow's commands, replayed through our book as they are drawn so cancels hit resting orders. */
function generateFlow(
  shape: FlowShape,
  seed: number,
  count: number,
  theirs: { book: TheirBook },
): DualCommand[] {
  const random = mulberry32(seed);
  const int = (lowest: number, highest: number): number =>
    lowest + Math.floor(random() * (highest - lowest + 1));
  const model = new OrderBook(PAIR);
  const live = new LiveIds();
  const commands: DualCommand[] = [];
  for (let sequence = 1; sequence <= count; sequence++) {
    const roll = random();
    const userId = `u${int(0, USER_COUNT - 1)}`;
    const side = random() < 0.5 ? 'buy' : 'sell';
    const amount = lotsToAmount(int(1, 100));
    let command: DualCommand;
    const cancelled =
      roll >= shape.limitShare && roll < shape.limitShare + shape.cancelShare ? live.pick(random) : undefined;
    if (cancelled !== undefined) {
      const owner = live.ownerById.get(cancelled)!;
      command = {
        ours: { kind: 'cancel', orderId: cancelled, userId: owner },
        theirs: () => theirs.book.cancel(cancelled),
      };
    } else if (roll >= shape.limitShare + shape.cancelShare) {
      const orderId = `m${sequence}`;
      command = {
        ours: { kind: 'market', side, orderId, userId, sequence, amount: amount.dec },
        theirs: () => theirs.book.market({ side: side as never, size: amount.num }),
      };
    } else {
      const orderId = `o${sequence}`;
      const crosses = shape.restingTarget !== null && live.size > shape.restingTarget;
      // A crossing limit is priced beyond the whole opposite side, so it takes like a market order.
      const offset = crosses ? -(shape.levelSpread + 50) : int(1, shape.levelSpread);
      const price = ticksToPrice(side === 'buy' ? MID_TICKS - offset : MID_TICKS + offset);
      command = {
        ours: { kind: 'limit', side, orderId, userId, sequence, price: price.dec, amount: amount.dec },
        theirs: () =>
          theirs.book.limit({ id: orderId, side: side as never, price: price.num, size: amount.num }),
      };
    }
    trackResting(live, model.apply(command.ours));
    commands.push(command);
  }
  const depth = model.depth(Number.MAX_SAFE_INTEGER);
  const levels = depth.bids.length + depth.asks.length;
  console.log(
    `${shape.name} flow: ${format(count)} ops; the book ends with ${format(model.orderCount)} resting orders on ${levels} levels (${format(model.orderCount / levels)} per level)`,
  );
  return commands;
}

interface Measured {
  /** Operations per second of wall-clock time, best run. */
  opsPerS: number;
  /** Operations per second of this process's CPU time, best run: steadier when other work shares the machine. */
  cpuOpsPerS: number;
  p50Us: number;
  p99Us: number;
}

interface Rates {
  wall: number;
  cpu: number;
}

function timed(operations: number, run: () => void): Rates {
  const started = process.hrtime.bigint();
  const startedCpu = process.cpuUsage();
  run();
  const cpu = process.cpuUsage(startedCpu);
  return {
    wall: operations / (Number(process.hrtime.bigint() - started) / 1e9),
    cpu: operations / ((cpu.user + cpu.system) / 1e6),
  };
}

function timeOurs(commands: DualCommand[]): Rates {
  const book = new OrderBook(PAIR);
  return timed(commands.length, () => {
    for (const command of commands) book.apply(command.ours);
  });
}

function timeTheirs(commands: DualCommand[], fresh: () => void): Rates {
  fresh();
  return timed(commands.length, () => {
    for (const command of commands) command.theirs();
  });
}

function best(runs: Rates[]): { opsPerS: number; cpuOpsPerS: number } {
  return {
    opsPerS: Math.max(...runs.map((run) => run.wall)),
    cpuOpsPerS: Math.max(...runs.map((run) => run.cpu)),
  };
}

/** Per-operation latency on a fresh book, timing every LATENCY_SAMPLE_EVERY-th operation. */
function latencies(commands: DualCommand[], run: (command: DualCommand) => unknown): Float64Array {
  const sample = new Float64Array(Math.ceil(commands.length / LATENCY_SAMPLE_EVERY));
  let taken = 0;
  for (let index = 0; index < commands.length; index++) {
    const command = commands[index]!;
    if (index % LATENCY_SAMPLE_EVERY !== 0) {
      run(command);
      continue;
    }
    const started = process.hrtime.bigint();
    run(command);
    sample[taken++] = Number(process.hrtime.bigint() - started) / 1000;
  }
  return sample.subarray(0, taken).sort();
}

function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

function measureOurs(commands: DualCommand[]): Measured {
  const rates = best([timeOurs(commands), timeOurs(commands), timeOurs(commands)]);
  const book = new OrderBook(PAIR);
  const sorted = latencies(commands, (command) => book.apply(command.ours));
  return { ...rates, p50Us: percentile(sorted, 0.5), p99Us: percentile(sorted, 0.99) };
}

function measureTheirs(commands: DualCommand[], holder: { book: TheirBook }, runs: number): Measured {
  const fresh = (): void => {
    holder.book = new TheirBook();
  };
  const rates = best(Array.from({ length: runs }, () => timeTheirs(commands, fresh)));
  fresh();
  const sorted = latencies(commands, (command) => command.theirs());
  return { ...rates, p50Us: percentile(sorted, 0.5), p99Us: percentile(sorted, 0.99) };
}

const format = (value: number): string => Math.round(value).toLocaleString('en-US');
const line = (label: string, measured: Measured): string =>
  `${label.padEnd(34)} ${format(measured.opsPerS).padStart(11)} ops/s (${format(measured.cpuOpsPerS)} per CPU-s)   p50 ${measured.p50Us.toFixed(2)} µs   p99 ${measured.p99Us.toFixed(2)} µs`;
const load = (): string =>
  `load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

console.log(`node ${process.version}, ${cpus().length} CPUs, ${load()}`);
/** The nodejs-order-book instance the commands' closures act on; replaced by a fresh one before each run. */
const holder = { book: new TheirBook() };

// Each flow is generated right before it is measured and dropped after, so the
// deep run does not carry the shallow commands in its heap.
function measureShallow(): { ours: Measured; theirs: Measured } {
  const shallow = generateFlow(SHALLOW, 20_261_123, OPERATIONS, holder);
  const ours = measureOurs(shallow);
  console.log(line('ours   shallow', ours), `  (${load()})`);
  const theirs = measureTheirs(shallow, holder, 2);
  console.log(line('theirs shallow', theirs), `  (${load()})`);
  return { ours, theirs };
}

function measureDeep(): { ours: Measured; oursPrefix: Measured; theirsPrefix: Measured } {
  const deep = generateFlow(DEEP, 20_261_124, OPERATIONS, holder);
  const prefix = deep.slice(0, Math.min(DEEP_PREFIX, deep.length));
  const ours = measureOurs(deep);
  console.log(line('ours   deep', ours), `  (${load()})`);
  const oursPrefix = measureOurs(prefix);
  console.log(line(`ours   deep, first ${format(prefix.length)}`, oursPrefix), `  (${load()})`);
  const theirsPrefix = measureTheirs(prefix, holder, 1);
  console.log(line(`theirs deep, first ${format(prefix.length)}`, theirsPrefix), `  (${load()})`);
  return { ours, oursPrefix, theirsPrefix };
}

const shallowRun = measureShallow();
const deepRun = measureDeep();
const ratioLine = (
  label: string,
  ratio: (pick: (measured: Measured) => number) => number,
  verdict: (value: number) => string,
): void => {
  const wall = ratio((measured) => measured.opsPerS);
  const cpu = ratio((measured) => measured.cpuOpsPerS);
  console.log(`${label}: ${wall.toFixed(2)}× wall, ${cpu.toFixed(2)}× CPU time ${verdict(wall)}`);
};
ratioLine(
  'ratio ours/nodejs-order-book, shallow (target ≥ 2×)',
  (pick) => pick(shallowRun.ours) / pick(shallowRun.theirs),
  (value) => (value >= 2 ? 'MET' : 'MISSED'),
);
ratioLine(
  `ratio ours/nodejs-order-book, deep first ${format(Math.min(DEEP_PREFIX, OPERATIONS))}`,
  (pick) => pick(deepRun.oursPrefix) / pick(deepRun.theirsPrefix),
  () => '',
);
ratioLine(
  'ours shallow rate / ours deep rate (target ≤ 2×)',
  (pick) => pick(shallowRun.ours) / pick(deepRun.ours),
  (value) => (value <= 2 ? 'MET' : 'MISSED'),
);
console.log(`finished at ${load()}`);
