/**
 * What the HTTP order benches (bench/http-orders.ts, bench/sequencer.bench.ts)
 * share: their server child processes, the figures taken beside each run
 * (the machine's load, a process's CPU time) and the limit orders they send.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';

/** The price the orders gather around, so some of them cross. */
const PRICE_LEVEL = 60_000;

/** The machine's load averages, printed beside a figure: the machine is shared and the figures move with it. */
export const loadText = (): string =>
  `load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

/** A tsx child process running `file`, resolved once it says it is listening. */
export function startChild(
  file: string,
  args: string[],
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ChildProcess> {
  const child = fork(file, args, {
    execArgv: [...nodeArgs, '--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) =>
      reject(new Error(`${[path.basename(file), ...args].join(' ')} exited with ${code} before listening`)),
    );
  });
}

/** User + system CPU time of a process (all its threads) so far, in ms (Linux /proc; null elsewhere). */
export function cpuMs(pid: number | undefined): number | null {
  return statCpuMs(`/proc/${pid}/stat`);
}

/**
 * The same for the process's main thread alone (its event loop, where the
 * HTTP server and the sequencer run): the rest is the projector's worker,
 * libuv's pool (fsync) and the garbage collector's helpers.
 */
export function mainThreadCpuMs(pid: number | undefined): number | null {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(file: string): number | null {
  try {
    const stat = readFileSync(file, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in ticks of 10 ms.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export interface OrderBody {
  tradcoin: string;
  maincoin: string;
  price: string;
  number: string;
}

/** A BTC/USDT limit order of 0.0001 BTC, its price `offset` USDT from PRICE_LEVEL. */
export function orderBodyAt(offset: number): OrderBody {
  return { tradcoin: 'BTC', maincoin: 'USDT', price: (PRICE_LEVEL + offset).toFixed(2), number: '0.0001' };
}

/**
 * Buy and sell limit orders in turn, prices a few cents either side of
 * PRICE_LEVEL; each connection is one user, its `token` header drawn from
 * `nextToken` on its first request.
 */
export function limitOrderRequests(nextToken: () => string): autocannon.Request[] {
  let nextPrice = 0;
  const order = (side: 'buy' | 'sell'): autocannon.Request => ({
    method: 'POST',
    path: `/trad/${side}Limit`,
    setupRequest: (request, context) => {
      context.token ??= nextToken();
      return {
        ...request,
        headers: { 'content-type': 'application/json', token: context.token as string },
        body: JSON.stringify(orderBodyAt(((nextPrice++ % 11) - 5) / 100)),
      };
    },
  });
  return [order('buy'), order('sell')];
}

/**
 * The benches' own client: node:http with one kept-alive socket per server. fetch (undici) adds about half a
 * millisecond of its own to each request on this machine, which a single order's latency would count as the
 * server's.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const PASSWORD = 'abc12345';

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** One request to `base`; resolves with the envelope's data, rejects on any other code than 200. */
export function call<T>(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<T> {
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
export async function fundedUser(base: string, index: number): Promise<string> {
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

/** The port bench:http's bare Fastify route (`http-orders.ts --ceiling-server`) listens on. */
export const CEILING_PORT = 18_432;

/** bench:http's bare Fastify route in a child, the anchor of the HTTP benches. */
export function startCeilingChild(nodeArgs: string[] = []): Promise<{ child: ChildProcess; base: string }> {
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'http-orders.ts');
  return startChild(file, ['--ceiling-server'], {}, nodeArgs).then((child) => ({
    child,
    base: `http://127.0.0.1:${CEILING_PORT}`,
  }));
}

/**
 * The real server (`bench/support/bench-server.ts` of `checkout`: this repository, or a worktree of another
 * commit) in a child on `port`, on a fresh data directory: on SQL, or on the sequenced core with `onCore`.
 */
export async function startBenchServer(options: {
  checkout: string;
  port: number;
  onCore: boolean;
  nodeArgs?: string[];
}): Promise<{ child: ChildProcess; base: string; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'halyard-bench-http-'));
  const child = await startChild(
    path.join(options.checkout, 'bench/support/bench-server.ts'),
    [],
    {
      PORT: String(options.port),
      HALYARD_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      BENCH_MONEY_CORE: options.onCore ? '1' : '0',
    },
    options.nodeArgs,
  );
  return { child, base: `http://127.0.0.1:${options.port}`, dataDir };
}

/** Stops a child with SIGTERM and resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
