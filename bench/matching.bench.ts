/**
 * Order book throughput and latency on a mixed command stream (limit orders
 * that rest or take, cancels, market orders, rejections; the oracle test's
 * seeded stream), on one pair, one thread.
 *
 * Anchor: 1,000,000 commands/s. exchange-core (Java, LMAX disruptor) publishes
 * several million operations/s on one order book on a server-class CPU, so a
 * million a second is a fair bar for a TypeScript book on bigint decimals.
 *
 *   npx tsx bench/matching.bench.ts [commandCount]
 */
import { OrderBook } from '../packages/matching/src/index.ts';
import { RANDOM_PAIR, randomCommands } from '../packages/matching/test-support/random-commands.ts';

const ANCHOR_COMMANDS_PER_S = 1_000_000;
const commandCount = Number(process.argv[2] ?? 500_000);
const WARM_UP_COMMANDS = 200_000;

// Generated up front so the timing covers the book only.
const warmUp = Array.from(randomCommands(1, WARM_UP_COMMANDS));
const commands = Array.from(randomCommands(20_261_123, commandCount));

interface Throughput {
  /** Commands per second of wall-clock time. */
  wallPerS: number;
  /** Commands per second of this process's CPU time: steadier when other work shares the machine. */
  cpuPerS: number;
}

function measureThroughput(): Throughput {
  const book = new OrderBook(RANDOM_PAIR);
  const startedMs = performance.now();
  const startedCpu = process.cpuUsage();
  for (const command of commands) book.apply(command);
  const cpu = process.cpuUsage(startedCpu);
  const wallS = (performance.now() - startedMs) / 1000;
  return { wallPerS: commands.length / wallS, cpuPerS: commands.length / ((cpu.user + cpu.system) / 1e6) };
}

/** Per-command latency in µs, sorted (includes the cost of reading the timer, ~0.05 µs). */
function sortedLatenciesUs(): Float64Array {
  const book = new OrderBook(RANDOM_PAIR);
  const latencies = new Float64Array(commands.length);
  for (let index = 0; index < commands.length; index++) {
    const startedNs = process.hrtime.bigint();
    book.apply(commands[index]!);
    latencies[index] = Number(process.hrtime.bigint() - startedNs) / 1000;
  }
  return latencies.sort();
}

function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

const warmBook = new OrderBook(RANDOM_PAIR);
for (const command of warmUp) warmBook.apply(command);

const runs = [measureThroughput(), measureThroughput(), measureThroughput()];
const wall = runs.map((run) => run.wallPerS).sort((a, b) => a - b);
const cpu = runs.map((run) => run.cpuPerS).sort((a, b) => a - b);
const latencies = sortedLatenciesUs();
const mix = new Map<string, number>();
for (const command of commands) mix.set(command.kind, (mix.get(command.kind) ?? 0) + 1);
const perS = (value: number | undefined): string => Math.round(value ?? 0).toLocaleString('en');

console.log(
  `matching: ${commands.length} mixed commands on one book (${[...mix].map(([kind, n]) => `${kind} ${n}`).join(', ')})`,
);
console.log(
  `  throughput ${perS(wall[1])} commands/s wall clock (median of 3; min ${perS(wall[0])}, max ${perS(wall[2])})`,
);
console.log(
  `             ${perS(cpu[1])} commands/s of process CPU time (median of 3; less disturbed when other work shares the machine)`,
);
console.log(
  `  ratio to the anchor of ${perS(ANCHOR_COMMANDS_PER_S)} commands/s: ${(wall[1]! / ANCHOR_COMMANDS_PER_S).toFixed(2)} wall, ${(cpu[1]! / ANCHOR_COMMANDS_PER_S).toFixed(2)} CPU`,
);
console.log('  (exchange-core publishes several million/s on one pair on a server CPU)');
console.log(
  `  latency per command: p50 ${percentile(latencies, 0.5).toFixed(2)} µs, p99 ${percentile(latencies, 0.99).toFixed(2)} µs, p99.9 ${percentile(latencies, 0.999).toFixed(2)} µs`,
);
