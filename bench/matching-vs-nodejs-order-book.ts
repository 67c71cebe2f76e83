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
 * Each run prints wall time, this process's CPU time (process.cpuUsage: all its
 * threads, so the garbage collector's helpers too) and the garbage collector's
 * pauses (PerformanceObserver 'gc'). The machine is shared: CPU time is the
 * steadier figure, and the ratios are printed by both. Every timed run starts
 * from a full collection, so that it does not pay for the garbage of the run
 * before it (a dropped deep book is hundreds of thousands of dead objects).
 * The commands are plain data (no closure per command), so the harness keeps
 * as little alive beside the books as it can.
 *
 *   npm run bench:matching            (or: npx tsx bench/matching-vs-nodejs-order-book.ts [ops] [deepPrefix])
 */
import { cpus, loadavg } from 'node:os';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Dec } from '@halyard/money';
import { OrderBook as TheirBook, Side as TheirSide } from 'nodejs-order-book';
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

/** A command in nodejs-order-book's terms (JavaScript numbers), converted before any timing. */
type TheirCommand =
  | { kind: 'limit'; id: string; side: TheirSide; price: number; size: number }
  | { kind: 'market'; side: TheirSide; size: number }
  | { kind: 'cancel'; id: string };

/** The same flow for both engines, index by index. */
interface Flow {
  ours: BookCommand[];
  theirs: TheirCommand[];
}

function applyTheirs(book: TheirBook, command: TheirCommand): void {
  switch (command.kind) {
    case 'limit':
      book.limit({ id: command.id, side: command.side, price: command.price, size: command.size });
      return;
    case 'market':
      book.market({ side: command.side, size: command.size });
      return;
    case 'cancel':
      book.cancel(command.id);
      return;
  }
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
function generateFlow(shape: FlowShape, seed: number, count: number): Flow {
  const random = mulberry32(seed);
  const int = (lowest: number, highest: number): number =>
    lowest + Math.floor(random() * (highest - lowest + 1));
  const model = new OrderBook(PAIR);
  const live = new LiveIds();
  const flow: Flow = { ours: [], theirs: [] };
  for (let sequence = 1; sequence <= count; sequence++) {
    const roll = random();
    const userId = `u${int(0, USER_COUNT - 1)}`;
    const side = random() < 0.5 ? 'buy' : 'sell';
    const theirSide = side === 'buy' ? TheirSide.BUY : TheirSide.SELL;
    const amount = lotsToAmount(int(1, 100));
    let ours: BookCommand;
    let theirs: TheirCommand;
    const cancelled =
      roll >= shape.limitShare && roll < shape.limitShare + shape.cancelShare ? live.pick(random) : undefined;
    if (cancelled !== undefined) {
      ours = { kind: 'cancel', orderId: cancelled, userId: live.ownerById.get(cancelled)! };
      theirs = { kind: 'cancel', id: cancelled };
    } else if (roll >= shape.limitShare + shape.cancelShare) {
      ours = { kind: 'market', side, orderId: `m${sequence}`, userId, sequence, amount: amount.dec };
      theirs = { kind: 'market', side: theirSide, size: amount.num };
    } else {
      const orderId = `o${sequence}`;
      const crosses = shape.restingTarget !== null && live.size > shape.restingTarget;
      // A crossing limit is priced beyond the whole opposite side, so it takes like a market order.
      const offset = crosses ? -(shape.levelSpread + 50) : int(1, shape.levelSpread);
      const price = ticksToPrice(side === 'buy' ? MID_TICKS - offset : MID_TICKS + offset);
      ours = { kind: 'limit', side, orderId, userId, sequence, price: price.dec, amount: amount.dec };
      theirs = { kind: 'limit', id: orderId, side: theirSide, price: price.num, size: amount.num };
    }
    trackResting(live, model.apply(ours));
    flow.ours.push(ours);
    flow.theirs.push(theirs);
  }
  const depth = model.depth(Number.MAX_SAFE_INTEGER);
  const levels = depth.bids.length + depth.asks.length;
  console.log(
    `${shape.name} flow: ${format(count)} ops; the book ends with ${format(model.orderCount)} resting orders on ${levels} levels (${format(model.orderCount / levels)} per level)`,
  );
  return flow;
}

/** The first `count` commands of a flow. */
function prefixOf(flow: Flow, count: number): Flow {
  return { ours: flow.ours.slice(0, count), theirs: flow.theirs.slice(0, count) };
}

/** One timed run over a whole flow. */
interface Run {
  wallS: number;
  /** This process's CPU time, all threads (the collector's helpers too). */
  cpuS: number;
  /** Garbage collector pauses on the main thread, summed. */
  gcS: number;
  gcPauses: number;
}

interface Measured {
  operations: number;
  /** The run that took the least CPU time: the one least disturbed by the rest of the machine. */
  best: Run;
  p50Us: number;
  p99Us: number;
}

/** GC pauses reported since the last reset (the observer hears of them only after the run yields). */
const gcSeen = { seconds: 0, pauses: 0, since: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.startTime < gcSeen.since) continue;
    gcSeen.seconds += entry.duration / 1000;
    gcSeen.pauses += 1;
  }
}).observe({ entryTypes: ['gc'] });

/** GC entries reach JavaScript through two immediates (the native callback's, then the observer's). */
async function gcEntriesDelivered(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}

// A full collection on demand, without asking for --expose-gc on the command line.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * A full collection, then a wait until this process is idle: the collector
 * goes on sweeping on helper threads after gc() returns, and that CPU time
 * belongs to no run.
 */
async function startClean(): Promise<void> {
  collectGarbage();
  for (let waits = 0; waits < 40; waits++) {
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const used = process.cpuUsage(before);
    if (used.user + used.system < 5_000) break;
  }
  await gcEntriesDelivered();
}

async function timed(run: () => void): Promise<Run> {
  await startClean();
  gcSeen.seconds = 0;
  gcSeen.pauses = 0;
  gcSeen.since = performance.now();
  const started = process.hrtime.bigint();
  const startedCpu = process.cpuUsage();
  run();
  const cpu = process.cpuUsage(startedCpu);
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  await gcEntriesDelivered();
  return { wallS, cpuS: (cpu.user + cpu.system) / 1e6, gcS: gcSeen.seconds, gcPauses: gcSeen.pauses };
}

function timeOurs(commands: readonly BookCommand[]): Promise<Run> {
  const book = new OrderBook(PAIR);
  return timed(() => {
    for (const command of commands) book.apply(command);
  });
}

function timeTheirs(commands: readonly TheirCommand[]): Promise<Run> {
  const book = new TheirBook();
  return timed(() => {
    for (const command of commands) applyTheirs(book, command);
  });
}

async function leastCpu(runs: number, run: () => Promise<Run>): Promise<Run> {
  let best: Run | undefined;
  for (let index = 0; index < runs; index++) {
    const measured = await run();
    if (best === undefined || measured.cpuS < best.cpuS) best = measured;
  }
  return best!;
}

/** Per-operation latency on a fresh book, timing every LATENCY_SAMPLE_EVERY-th operation. */
function latencies<Command>(commands: readonly Command[], run: (command: Command) => void): Float64Array {
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

async function measureOurs(commands: readonly BookCommand[]): Promise<Measured> {
  const best = await leastCpu(3, () => timeOurs(commands));
  const book = new OrderBook(PAIR);
  const sorted = latencies(commands, (command) => book.apply(command));
  return {
    operations: commands.length,
    best,
    p50Us: percentile(sorted, 0.5),
    p99Us: percentile(sorted, 0.99),
  };
}

async function measureTheirs(commands: readonly TheirCommand[], runs: number): Promise<Measured> {
  const best = await leastCpu(runs, () => timeTheirs(commands));
  const book = new TheirBook();
  const sorted = latencies(commands, (command) => applyTheirs(book, command));
  return {
    operations: commands.length,
    best,
    p50Us: percentile(sorted, 0.5),
    p99Us: percentile(sorted, 0.99),
  };
}

const wallRate = (measured: Measured): number => measured.operations / measured.best.wallS;
const cpuRate = (measured: Measured): number => measured.operations / measured.best.cpuS;

const format = (value: number): string => Math.round(value).toLocaleString('en-US');
const line = (label: string, measured: Measured): string => {
  const { wallS, cpuS, gcS, gcPauses } = measured.best;
  return [
    `${label.padEnd(34)} ${format(wallRate(measured)).padStart(9)} ops/s wall`,
    `${format(cpuRate(measured)).padStart(9)} ops/CPU-s`,
    `wall ${wallS.toFixed(2)} s, CPU ${cpuS.toFixed(2)} s, GC ${gcS.toFixed(2)} s in ${gcPauses} pauses (${percent(gcS / wallS)} of wall)`,
    `p50 ${measured.p50Us.toFixed(2)} µs, p99 ${measured.p99Us.toFixed(2)} µs`,
    `(${load()})`,
  ].join('   ');
};
const percent = (fraction: number): string => `${(fraction * 100).toFixed(0)}%`;
const load = (): string =>
  `load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

console.log(`node ${process.version}, ${cpus().length} CPUs, ${load()}`);

// Each flow is generated right before it is measured and dropped after, so the
// deep run does not carry the shallow commands in its heap.
async function measureShallow(): Promise<{ ours: Measured; theirs: Measured }> {
  const shallow = generateFlow(SHALLOW, 20_261_123, OPERATIONS);
  const ours = await measureOurs(shallow.ours);
  console.log(line('ours   shallow', ours));
  const theirs = await measureTheirs(shallow.theirs, 2);
  console.log(line('theirs shallow', theirs));
  return { ours, theirs };
}

async function measureDeep(): Promise<{ ours: Measured; oursPrefix: Measured; theirsPrefix: Measured }> {
  const deep = generateFlow(DEEP, 20_261_124, OPERATIONS);
  const prefix = prefixOf(deep, Math.min(DEEP_PREFIX, OPERATIONS));
  const ours = await measureOurs(deep.ours);
  console.log(line('ours   deep', ours));
  const oursPrefix = await measureOurs(prefix.ours);
  console.log(line(`ours   deep, first ${format(prefix.ours.length)}`, oursPrefix));
  const theirsPrefix = await measureTheirs(prefix.theirs, 1);
  console.log(line(`theirs deep, first ${format(prefix.ours.length)}`, theirsPrefix));
  return { ours, oursPrefix, theirsPrefix };
}

const shallowRun = await measureShallow();
const deepRun = await measureDeep();
const ratioLine = (
  label: string,
  ratio: (rate: (measured: Measured) => number) => number,
  verdict: (value: number) => string,
): void => {
  const wall = ratio(wallRate);
  const cpu = ratio(cpuRate);
  const verdicts = verdict(cpu) === '' ? '' : ` — ${verdict(cpu)} by CPU time, ${verdict(wall)} by wall`;
  console.log(`${label}: ${cpu.toFixed(2)}× CPU time, ${wall.toFixed(2)}× wall${verdicts}`);
};
ratioLine(
  'ratio ours/nodejs-order-book, shallow (target ≥ 2×)',
  (rate) => rate(shallowRun.ours) / rate(shallowRun.theirs),
  (value) => (value >= 2 ? 'MET' : 'MISSED'),
);
ratioLine(
  `ratio ours/nodejs-order-book, deep first ${format(Math.min(DEEP_PREFIX, OPERATIONS))}`,
  (rate) => rate(deepRun.oursPrefix) / rate(deepRun.theirsPrefix),
  () => '',
);
ratioLine(
  'ours shallow rate / ours deep rate (target ≤ 2×)',
  (rate) => rate(shallowRun.ours) / rate(deepRun.ours),
  (value) => (value <= 2 ? 'MET' : 'MISSED'),
);
console.log(`finished at ${load()}`);
