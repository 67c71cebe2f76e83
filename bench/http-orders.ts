/**
 * HTTP order placement end to end: autocannon, 50 connections, each signed in
 * as its own user, alternating authenticated POST /trad/buyLimit and
 * /trad/sellLimit on USDT/BTC with prices around one level so some cross. The
 * server is the real one (bench/support/bench-server.ts: SQLite default, demo
 * seeds, group commit, durable before the reply) in a child process on a temp
 * data directory.
 *
 * Anchor (the ceiling): a bare Fastify route answering {code:200} to the same
 * requests, in its own child process, measured the same way. Target: order
 * placement at ≥ 25% of the ceiling's requests/s.
 *
 * Each server first takes the same load for WARMUP_SECONDS, unmeasured: the
 * real server has much more code for V8 to optimise than the bare route.
 *
 * The three servers run side by side, and the measured seconds of each are
 * cut into ROUNDS slices taken in turns (SQL, core, ceiling, SQL, …), each
 * after the servers have settled (the core's projector catching up on the
 * slice before). This machine's speed drifts over minutes: measured one
 * after the other, the ceiling ran minutes after the orders, and the same
 * code printed ratios from 14 % to 32 %. In turns, each round's ratio is
 * printed too, and the rounds of one run agree within a few points.
 *
 * The machine is shared, and requests/s move with its load. Each server's CPU
 * time (user + system, from /proc) per answered request is printed too: it
 * moves much less, and their ratio says what the orders would reach against
 * the ceiling if both servers got the same share of a core.
 *
 * The server on SQL also reports the time its thread spent inside SQLite
 * statements (commits included) per order, beside the time per order that
 * the target leaves: what SQLite alone takes of that budget. Each server
 * also answers orders placed one at a time: the target for one order alone
 * is ≤ 2 ms at the median.
 *
 *   npm run bench:http          (or: npx tsx bench/http-orders.ts [seconds])
 *
 * BENCH_KEEP_DATA=1 keeps each server's data directory and prints where it is,
 * to count the rows an order leaves in SQL (any SQLite client on its
 * halyard.sqlite).
 *
 * BENCH_COMPARE=DIR runs, in the SQL server's place, the core of another
 * checkout (DIR: a git worktree of an earlier commit, its node_modules
 * linked): two versions of the core measured in the same rounds, which the
 * machine's drift leaves comparable where two runs are not.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import {
  CEILING_PORT,
  call,
  cpuMs,
  fundedUser,
  limitOrderRequests,
  loadText,
  mainThreadCpuMs,
  orderBodyAt,
  startBenchServer,
  startCeilingChild,
  stopChild,
} from './support/http-load.ts';

const SECONDS = Number(process.argv[2] ?? 15);
const WARMUP_SECONDS = 3;
const CONNECTIONS = 50;
const SQL_PORT = 18_431;
const CORE_PORT = 18_433;
/** The measured seconds of each server are cut into this many slices, taken in turns: SQL, core, ceiling. */
const ROUNDS = 5;
/** Before each slice, the servers are let settle (below a tenth of a core) for at most this long. */
const QUIET_MAX_MS = 5_000;
const QUIET_PROBE_MS = 100;
const HERE = path.dirname(new URL(import.meta.url).pathname);
/** Node flags for the server children, to try one without editing the bench. */
const CHILD_NODE_ARGS = process.env.BENCH_CHILD_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
/** Another checkout whose core runs in the SQL server's place (none: the SQL server). */
const COMPARE_DIR = process.env.BENCH_COMPARE;
/** Where each real server writes a CPU profile of its main thread over the measured run (none: no profile). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** BENCH_KEEP_DATA=1: each server's data directory stays after the run. */
const KEEP_DATA = process.env.BENCH_KEEP_DATA === '1';
/** Orders placed one by one for the single order's latency. */
const SAMPLE_ORDERS = 50;

if (process.argv[2] === '--ceiling-server') {
  const http = Fastify();
  http.post('/trad/:route', async () => ({ code: 200 }));
  await http.listen({ port: CEILING_PORT, host: '127.0.0.1' });
  process.send?.('listening');
} else {
  await main();
}

async function main(): Promise<void> {
  const servers: BenchServer[] = [];
  try {
    const onSql = COMPARE_DIR
      ? await startRealServer(`orders on the core of ${COMPARE_DIR}`, true, SQL_PORT, COMPARE_DIR)
      : await startRealServer('orders on SQL (today)', false, SQL_PORT);
    servers.push(onSql);
    const onCore = await startRealServer('orders on the core', true, CORE_PORT);
    servers.push(onCore);
    const ceiling = await startCeilingServer(onSql.tokens);
    servers.push(ceiling);
    for (const server of servers) await measure(server, WARMUP_SECONDS);
    if (PROFILE_DIR)
      for (const server of [onSql, onCore]) await ask(server.child, 'profile-start', 'profiling');
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of servers) {
        await quiet(servers);
        server.slices.push(await measure(server, SECONDS / ROUNDS));
      }
    }
    if (PROFILE_DIR) {
      for (const server of [onSql, onCore]) {
        const file = path.join(
          PROFILE_DIR,
          `${server === onCore ? 'core' : COMPARE_DIR ? 'compare' : 'sql'}.cpuprofile`,
        );
        await ask(server.child, { profileTo: file }, 'profiled');
        console.log(`the main thread of ${server.label} during its runs (idle between them): ${file}`);
      }
    }
    // The same client's round trip to a route that does nothing: what of one order's time is not the server's.
    const bareAlone = await medianMs(() =>
      call(ceiling.base, 'POST', '/trad/buyLimit', orderBodyAt(0), onSql.tokens[0]),
    );
    report(onSql, onCore, ceiling, bareAlone);
  } finally {
    for (const server of servers) await stop(server);
  }
}

function report(onSql: BenchServer, onCore: BenchServer, ceiling: BenchServer, bareAlone: number): void {
  for (const server of [onSql, onCore, ceiling]) print(server);
  console.log(`measured ending at ${loadText()}`);
  console.log(`one bare request alone, p50 of ${SAMPLE_ORDERS}: ${bareAlone.toFixed(2)} ms`);
  for (const server of [onSql, onCore]) {
    const alone = server.alone!;
    console.log(
      `one order alone ${server.label}: ${alone.toFixed(2)} ms (target ≤ 2 ms) ${alone <= 2 ? 'MET' : 'MISSED'}, ${(alone / bareAlone).toFixed(1)}× the bare request`,
    );
  }
  const ceilingFigures = totalsOf(ceiling);
  for (const server of [onSql, onCore]) {
    const figures = totalsOf(server);
    const ratio = figures.rate / ceilingFigures.rate;
    const rounds = server.slices.map(
      (slice, round) => `${((100 * rateOf(slice)) / rateOf(ceiling.slices[round]!)).toFixed(1)}%`,
    );
    console.log(
      `ratio ${server.label}/ceiling: ${(ratio * 100).toFixed(1)}% (target ≥ 25%) ${ratio >= 0.25 ? 'MET' : 'MISSED'}; round by round ${rounds.join(', ')}`,
    );
    if (figures.cpuMsPerRequest !== null && ceilingFigures.cpuMsPerRequest !== null) {
      const cpuRatio = ceilingFigures.cpuMsPerRequest / figures.cpuMsPerRequest;
      console.log(`  by server CPU per request (ceiling/orders): ${(cpuRatio * 100).toFixed(1)}%`);
    }
  }
  const sqlFigures = totalsOf(onSql);
  if (sqlFigures.sqliteMsPerRequest !== null) {
    const budgetMs = 1000 / (0.25 * ceilingFigures.rate);
    console.log(
      `the target leaves ${budgetMs.toFixed(3)} ms of one core per order; on SQL, SQLite statements alone took ${sqlFigures.sqliteMsPerRequest.toFixed(3)} ms per order`,
    );
  }
}

/** A server under measure: a real one (its own users, one order alone) or the ceiling, and its measured slices. */
interface BenchServer {
  label: string;
  base: string;
  child: ChildProcess;
  tokens: string[];
  /** One order alone, p50 (ms); null for the ceiling. */
  alone: number | null;
  /** The real server's data directory; null for the ceiling. */
  dataDir: string | null;
  slices: Slice[];
}

/** One autocannon run of a server, with the server's CPU time and its time in SQLite statements over it. */
interface Slice {
  seconds: number;
  requests: number;
  failed: number;
  p50: number;
  p99: number;
  cpuMs: number | null;
  /** Of that, the main thread's (the event loop: HTTP, the sequencer); the rest is the other threads'. */
  mainThreadMs: number | null;
  /** null for the ceiling, which has none. */
  sqliteMs: number | null;
}

/**
 * A real server (on SQL, or with BENCH_MONEY_CORE on the core) in a child: its users, and one order alone. `checkout`:
 * the repository whose server it is (this one by default).
 */
async function startRealServer(
  label: string,
  onCore: boolean,
  port: number,
  checkout = path.dirname(HERE),
): Promise<BenchServer> {
  const { child, base, dataDir } = await startBenchServer({
    checkout,
    port,
    onCore,
    nodeArgs: CHILD_NODE_ARGS,
  });
  const server: BenchServer = { label, base, child, tokens: [], alone: null, dataDir, slices: [] };
  for (let index = 0; index < CONNECTIONS; index++) server.tokens.push(await fundedUser(base, index));
  console.log(`${label}: ${server.tokens.length} users registered and funded (${loadText()})`);
  server.alone = await sampleOrders(base, server.tokens[0]!);
  return server;
}

async function startCeilingServer(tokens: string[]): Promise<BenchServer> {
  const { child, base } = await startCeilingChild(CHILD_NODE_ARGS);
  return {
    label: 'ceiling (bare Fastify route)',
    base,
    child,
    tokens,
    alone: null,
    dataDir: null,
    slices: [],
  };
}

async function stop(server: BenchServer): Promise<void> {
  await stopChild(server.child);
  if (server.dataDir === null) return;
  if (KEEP_DATA) console.log(`${server.label}: its data directory, kept: ${server.dataDir}`);
  else rmSync(server.dataDir, { recursive: true, force: true });
}

/**
 * Waits until the servers use less than a tenth of a core (the core's
 * projector catching up on the run before, say), at most QUIET_MAX_MS, so
 * that no slice pays for the one before it.
 */
async function quiet(servers: readonly BenchServer[]): Promise<void> {
  const total = () => servers.reduce((sum, server) => sum + (cpuMs(server.child.pid) ?? 0), 0);
  const started = performance.now();
  let before = total();
  while (performance.now() - started < QUIET_MAX_MS) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_PROBE_MS));
    const now = total();
    if (now - before <= QUIET_PROBE_MS / 10) return;
    before = now;
  }
}

function rateOf(slice: Slice): number {
  return slice.requests / slice.seconds;
}

/** A server's slices together: requests/s over all of them, the median p50, the worst p99, CPU per request. */
function totalsOf(server: BenchServer) {
  const sum = (pick: (slice: Slice) => number) =>
    server.slices.reduce((total, slice) => total + pick(slice), 0);
  const requests = sum((slice) => slice.requests);
  const perRequest = (pick: (slice: Slice) => number | null) =>
    server.slices.some((slice) => pick(slice) === null) || requests === 0
      ? null
      : sum((slice) => pick(slice)!) / requests;
  const p50s = server.slices.map((slice) => slice.p50).sort((a, b) => a - b);
  return {
    requests,
    rate: requests / sum((slice) => slice.seconds),
    failed: sum((slice) => slice.failed),
    p50: p50s[p50s.length >> 1]!,
    p99: Math.max(...server.slices.map((slice) => slice.p99)),
    cpuMsPerRequest: perRequest((slice) => slice.cpuMs),
    mainThreadMsPerRequest: perRequest((slice) => slice.mainThreadMs),
    sqliteMsPerRequest: perRequest((slice) => slice.sqliteMs),
  };
}

function print(server: BenchServer): void {
  const figures = totalsOf(server);
  const cpu =
    figures.cpuMsPerRequest === null ? '' : `   server CPU ${figures.cpuMsPerRequest.toFixed(3)} ms/req`;
  const mainThread =
    figures.mainThreadMsPerRequest === null
      ? ''
      : ` (main thread ${figures.mainThreadMsPerRequest.toFixed(3)})`;
  const sqlite =
    figures.sqliteMsPerRequest === null ? '' : ` (in SQLite ${figures.sqliteMsPerRequest.toFixed(3)})`;
  console.log(
    `${server.label.padEnd(30)} ${Math.round(figures.rate).toLocaleString('en-US').padStart(7)} req/s   p50 ${figures.p50} ms   p99 ${figures.p99} ms   (${figures.requests} requests, ${figures.failed} failed)${cpu}${mainThread}${sqlite}`,
  );
}

/**
 * Orders one at a time before the run, to show that orders are accepted
 * (autocannon sees only HTTP statuses) and what one costs alone: the first
 * (cold), then the median of the next SAMPLE_ORDERS.
 */
async function sampleOrders(base: string, token: string): Promise<number> {
  const started = performance.now();
  const placed = await call<unknown>(base, 'POST', '/trad/buyLimit', orderBodyAt(0), token);
  console.log(
    `  the first order alone: ${(performance.now() - started).toFixed(1)} ms, answered ${JSON.stringify(placed)}`,
  );
  const p50 = await medianMs((index) =>
    call<unknown>(base, 'POST', '/trad/buyLimit', orderBodyAt(index + 1), token),
  );
  console.log(`  one order alone, p50 of the next ${SAMPLE_ORDERS}: ${p50.toFixed(2)} ms (target ≤ 2 ms)`);
  return p50;
}

/** The median time of SAMPLE_ORDERS requests made one after the other. */
async function medianMs(request: (index: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < SAMPLE_ORDERS; index++) {
    const started = performance.now();
    await request(index);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

/** The bench's orders (limitOrderRequests) for `seconds`; each connection is one of the signed-in users. */
async function measure(server: BenchServer, seconds: number): Promise<Slice> {
  let nextUser = 0;
  const { pid } = server.child;
  const real = server.dataDir !== null;
  const cpuBefore = cpuMs(pid);
  const mainBefore = mainThreadCpuMs(pid);
  const sqliteBefore = real ? await sqliteMsOf(server.child) : null;
  const result = await autocannon({
    url: server.base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: limitOrderRequests(() => server.tokens[nextUser++ % server.tokens.length]!),
  });
  const cpuAfter = cpuMs(pid);
  const mainAfter = mainThreadCpuMs(pid);
  const sqliteAfter = real ? await sqliteMsOf(server.child) : null;
  const spent = (before: number | null, after: number | null) =>
    before === null || after === null ? null : after - before;
  return {
    seconds,
    requests: result.requests.total,
    failed: result.non2xx + result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: spent(cpuBefore, cpuAfter),
    mainThreadMs: spent(mainBefore, mainAfter),
    sqliteMs: spent(sqliteBefore, sqliteAfter),
  };
}

/** Sends the server child a message and waits for its answer. */
function ask(server: ChildProcess, message: unknown, answer: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (reply: unknown) => {
      if (reply !== answer) return;
      server.off('message', onMessage);
      resolve();
    };
    server.on('message', onMessage);
    server.send(message as string);
  });
}

/** What the server says it spent in SQLite statements so far, in ms; null from a server that does not answer within a second (the ceiling). */
function sqliteMsOf(server: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(null), 1000);
    const onMessage = (message: unknown) => {
      const { sqliteMs } = message as { sqliteMs?: unknown };
      if (typeof sqliteMs === 'number') done(sqliteMs);
    };
    function done(value: number | null): void {
      clearTimeout(timer);
      server.off('message', onMessage);
      resolve(value);
    }
    server.on('message', onMessage);
    server.send('sqlite-ms');
  });
}
