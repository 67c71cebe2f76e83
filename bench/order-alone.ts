/**
 * One order alone (issue #19's target: ≤ 2 ms at the median on a quiet
 * machine): the real server on the sequenced core (bench/support/bench-server.ts,
 * BENCH_MONEY_CORE=1) in a child process, one signed-in user placing BTC/USDT
 * limit orders one after the other. The first WARMUP orders are not counted.
 *
 * Anchor: the same client's request to a bare Fastify route (bench:http's
 * ceiling server) in the same rounds.
 *
 * BENCH_COMPARE=DIR also runs the core of another checkout (a git worktree of
 * an earlier commit, its node_modules linked), and the rounds alternate between
 * the two running servers. bench:http measures one order alone too, but right
 * after each server's users register, one server after the other, and the one
 * measured second printed 0.1 to 0.4 ms more whichever version it was: a
 * comparison of two versions needs them in turns, as here.
 *
 *   node --import tsx bench/order-alone.ts [rounds]   (default 5; 600 orders a round)
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import {
  call,
  fundedUser,
  loadText,
  orderBodyAt,
  startBenchServer,
  startCeilingChild,
  stopChild,
} from './support/http-load.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const ORDERS = 600;
const WARMUP = 100;
const HERE = path.dirname(new URL(import.meta.url).pathname);
const COMPARE_DIR = process.env.BENCH_COMPARE;

interface Server {
  label: string;
  base: string;
  child: ChildProcess;
  dataDir: string | null;
  token: string;
  /** Each round's p50 and p90, in ms. */
  p50s: number[];
  p90s: number[];
}

const servers: Server[] = [];
try {
  servers.push(await coreServer('this checkout', path.dirname(HERE), 18_441));
  if (COMPARE_DIR) servers.push(await coreServer(COMPARE_DIR, COMPARE_DIR, 18_442));
  servers.push(await ceilingServer(servers[0]!.token));
  for (let round = 0; round < ROUNDS; round++) for (const server of servers) await measureRound(server);
  report();
} finally {
  for (const server of servers) await stop(server);
}

async function coreServer(label: string, checkout: string, port: number): Promise<Server> {
  const { child, base, dataDir } = await startBenchServer({ checkout, port, onCore: true });
  const token = await fundedUser(base, 0);
  return { label: `the core of ${label}`, base, child, dataDir, token, p50s: [], p90s: [] };
}

async function ceilingServer(token: string): Promise<Server> {
  const { child, base } = await startCeilingChild();
  return { label: 'a bare Fastify route (anchor)', base, child, dataDir: null, token, p50s: [], p90s: [] };
}

/** ORDERS requests one after the other; the round's p50 and p90 of those after the first WARMUP. */
async function measureRound(server: Server): Promise<void> {
  const times: number[] = [];
  for (let index = 0; index < ORDERS; index++) {
    // Buys and sells a few cents either side of one level, as bench:http places them.
    const body = orderBodyAt(((index % 11) - 5) / 100);
    const side = index % 2 === 0 ? 'buy' : 'sell';
    const started = performance.now();
    await call(server.base, 'POST', `/trad/${side}Limit`, body, server.token);
    if (index >= WARMUP) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  server.p50s.push(times[times.length >> 1]!);
  server.p90s.push(times[Math.floor(times.length * 0.9)]!);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

function report(): void {
  const anchor = servers.at(-1)!;
  const anchorP50 = median(anchor.p50s);
  console.log(
    `${ROUNDS} rounds of ${ORDERS - WARMUP} orders each (after ${WARMUP} not counted), ${loadText()}`,
  );
  for (const server of servers) {
    const p50 = median(server.p50s);
    const rounds = server.p50s.map((value) => value.toFixed(2)).join(', ');
    const target = server === anchor ? '' : ` (target ≤ 2 ms) ${p50 <= 2 ? 'MET' : 'MISSED'}`;
    console.log(
      `${server.label}: p50 ${p50.toFixed(2)} ms${target}, ${(p50 / anchorP50).toFixed(1)}× the anchor; p90 ${median(server.p90s).toFixed(2)} ms; each round's p50: ${rounds}`,
    );
  }
}

async function stop(server: Server): Promise<void> {
  await stopChild(server.child);
  if (server.dataDir !== null) rmSync(server.dataDir, { recursive: true, force: true });
}
