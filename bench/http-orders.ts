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
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import {
  cpuMs,
  limitOrderRequests,
  loadText,
  mainThreadCpuMs,
  orderBodyAt,
  startChild,
} from './support/http-load.ts';

const SECONDS = Number(process.argv[2] ?? 15);
const WARMUP_SECONDS = 3;
const CONNECTIONS = 50;
const SERVER_PORT = 18_431;
const CEILING_PORT = 18_432;
const HERE = path.dirname(new URL(import.meta.url).pathname);
/** Node flags for the server children, to try one without editing the bench. */
const CHILD_NODE_ARGS = process.env.BENCH_CHILD_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const PASSWORD = 'abc12345';
/** Where each real server writes a CPU profile of its main thread over the measured run (none: no profile). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
/** BENCH_KEEP_DATA=1: each server's data directory stays after the run. */
const KEEP_DATA = process.env.BENCH_KEEP_DATA === '1';
/** Orders placed one by one for the single order's latency. */
const SAMPLE_ORDERS = 50;
/**
 * The bench's own client: node:http with one kept-alive socket. fetch (undici)
 * adds about half a millisecond of its own to each request on this machine,
 * which the single order's latency would count as the server's.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

if (process.argv[2] === '--ceiling-server') {
  const http = Fastify();
  http.post('/trad/:route', async () => ({ code: 200 }));
  await http.listen({ port: CEILING_PORT, host: '127.0.0.1' });
  process.send?.('listening');
} else {
  await main();
}

async function main(): Promise<void> {
  const onSql = await measureServer('orders on SQL (today)', false);
  const onCore = await measureServer('orders on the core', true);
  const ceilingServer = await startChild(
    path.join(HERE, 'http-orders.ts'),
    ['--ceiling-server'],
    {},
    CHILD_NODE_ARGS,
  );
  let ceiling: Measured;
  let bareAlone: number;
  try {
    const ceilingBase = `http://127.0.0.1:${CEILING_PORT}`;
    await measure(ceilingBase, onSql.tokens, ceilingServer, WARMUP_SECONDS);
    ceiling = await measure(ceilingBase, onSql.tokens, ceilingServer, SECONDS);
    // The same client's round trip to a route that does nothing: what of one order's time is not the server's.
    bareAlone = await medianMs(() =>
      call(ceilingBase, 'POST', '/trad/buyLimit', orderBodyAt(0), onSql.tokens[0]),
    );
  } finally {
    ceilingServer.kill('SIGTERM');
  }
  print('ceiling (bare Fastify route)', ceiling);
  console.log(`ceiling measured at ${loadText()}`);
  console.log(`one bare request alone, p50 of ${SAMPLE_ORDERS}: ${bareAlone.toFixed(2)} ms`);
  for (const server of [onSql, onCore]) {
    console.log(
      `one order alone ${server.label}: ${server.alone.toFixed(2)} ms (target ≤ 2 ms) ${server.alone <= 2 ? 'MET' : 'MISSED'}, ${(server.alone / bareAlone).toFixed(1)}× the bare request`,
    );
  }
  for (const server of [onSql, onCore]) {
    const ratio = server.orders.requests.average / ceiling.requests.average;
    console.log(
      `ratio ${server.label}/ceiling: ${(ratio * 100).toFixed(1)}% (target ≥ 25%) ${ratio >= 0.25 ? 'MET' : 'MISSED'}`,
    );
    if (server.orders.cpuMsPerRequest !== null && ceiling.cpuMsPerRequest !== null) {
      const cpuRatio = ceiling.cpuMsPerRequest / server.orders.cpuMsPerRequest;
      console.log(`  by server CPU per request (ceiling/orders): ${(cpuRatio * 100).toFixed(1)}%`);
    }
  }
  if (onSql.orders.sqliteMsPerRequest !== null) {
    const budgetMs = 1000 / (0.25 * ceiling.requests.average);
    console.log(
      `the target leaves ${budgetMs.toFixed(3)} ms of one core per order; on SQL, SQLite statements alone took ${onSql.orders.sqliteMsPerRequest.toFixed(3)} ms per order`,
    );
  }
}

/** One real server (on SQL, or with BENCH_MONEY_CORE on the core) in a child: its users, one order alone, then the load. */
async function measureServer(
  label: string,
  onCore: boolean,
): Promise<{ label: string; tokens: string[]; orders: Measured; alone: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'halyard-bench-http-'));
  const server = await startChild(
    path.join(HERE, 'support/bench-server.ts'),
    [],
    {
      PORT: String(SERVER_PORT),
      HALYARD_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      BENCH_MONEY_CORE: onCore ? '1' : '0',
    },
    CHILD_NODE_ARGS,
  );
  try {
    const base = `http://127.0.0.1:${SERVER_PORT}`;
    const tokens: string[] = [];
    for (let index = 0; index < CONNECTIONS; index++) tokens.push(await fundedUser(base, index));
    console.log(`${label}: ${tokens.length} users registered and funded (${loadText()})`);
    const alone = await sampleOrders(base, tokens[0]!);
    await measure(base, tokens, server, WARMUP_SECONDS);
    if (PROFILE_DIR) await ask(server, 'profile-start', 'profiling');
    const orders = await measure(base, tokens, server, SECONDS);
    if (PROFILE_DIR) {
      const file = path.join(PROFILE_DIR, `${onCore ? 'core' : 'sql'}.cpuprofile`);
      await ask(server, { profileTo: file }, 'profiled');
      console.log(`  the server's main thread during the run: ${file}`);
    }
    print(label, orders);
    console.log(`  measured at ${loadText()}`);
    return { label, tokens, orders, alone };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    if (KEEP_DATA) console.log(`  its data directory, kept: ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * An autocannon run, the server's CPU time per answered request (null where
 * /proc is missing) and its time in SQLite statements per answered request
 * (null for the ceiling, which has none).
 */
type Measured = autocannon.Result & {
  cpuMsPerRequest: number | null;
  /** Of that, the main thread's (the event loop: HTTP, the sequencer); the rest is the other threads'. */
  mainThreadMsPerRequest: number | null;
  sqliteMsPerRequest: number | null;
};

function print(label: string, result: Measured): void {
  const failed = result.non2xx + result.errors + result.timeouts;
  const cpu =
    result.cpuMsPerRequest === null ? '' : `   server CPU ${result.cpuMsPerRequest.toFixed(3)} ms/req`;
  const mainThread =
    result.mainThreadMsPerRequest === null
      ? ''
      : ` (main thread ${result.mainThreadMsPerRequest.toFixed(3)})`;
  const sqlite =
    result.sqliteMsPerRequest === null ? '' : ` (in SQLite ${result.sqliteMsPerRequest.toFixed(3)})`;
  console.log(
    `${label.padEnd(30)} ${Math.round(result.requests.average).toLocaleString('en-US').padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   (${result.requests.total} requests, ${failed} failed)${cpu}${mainThread}${sqlite}`,
  );
}

function call<T>(base: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(url, base),
      {
        method,
        agent,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(token ? { token } : {}),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          const envelope = JSON.parse(text) as Envelope<T>;
          if (envelope.code === 200) resolve(envelope.data);
          else reject(new Error(`${method} ${url}: ${text}`));
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** Registers a user by email the way a person does (the demo code /user/getCode shows) and funds it from the demo faucet. */
async function fundedUser(base: string, index: number): Promise<string> {
  const email = `bench${index}.${process.pid}@example.com`;
  const query = new URLSearchParams({ account: email, purpose: 'register' });
  const { demoCode: code } = await call<{ demoCode?: string }>(base, 'GET', `/user/getCode?${query}`);
  if (code === undefined) throw new Error(`no demo code for ${email}`);
  const registered = await call<{ token: string }>(base, 'POST', '/member/register', {
    account: email,
    code,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    agreed: true,
  });
  await call(base, 'POST', '/account/demoFaucet', undefined, registered.token);
  return registered.token;
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
async function measure(
  base: string,
  tokens: string[],
  server: ChildProcess,
  seconds: number,
): Promise<Measured> {
  let nextUser = 0;
  const cpuBefore = cpuMs(server.pid);
  const mainBefore = mainThreadCpuMs(server.pid);
  const sqliteBefore = await sqliteMsOf(server);
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: limitOrderRequests(() => tokens[nextUser++ % tokens.length]!),
  });
  const cpuAfter = cpuMs(server.pid);
  const mainAfter = mainThreadCpuMs(server.pid);
  const sqliteAfter = await sqliteMsOf(server);
  const answered = result.requests.total;
  const perRequest = (before: number | null, after: number | null) =>
    before === null || after === null || answered === 0 ? null : (after - before) / answered;
  return {
    ...result,
    cpuMsPerRequest: perRequest(cpuBefore, cpuAfter),
    mainThreadMsPerRequest: perRequest(mainBefore, mainAfter),
    sqliteMsPerRequest: perRequest(sqliteBefore, sqliteAfter),
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
