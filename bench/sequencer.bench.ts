/**
 * The sequenced core against the targets of issue #19, in one run:
 *
 * (a) HTTP order placement: autocannon, 50 connections, each its own user,
 *     alternating POST /trad/buyLimit and /trad/sellLimit around one price
 *     level so that some cross, against Fastify → sequencer (journal on disk,
 *     fsync before the reply) → money state → reply; and, with the same
 *     client, a bare Fastify route (the ceiling). Each server is a child
 *     process (bench/support/sequencer-server.ts) warmed up first.
 *     Target: ≥ 25 % of the ceiling.
 * (b) One order alone: sequential requests on one keep-alive connection, p50.
 *     Target: ≤ 2 ms (the journal's fsync is most of it).
 * (c) Replay: a large state is built and snapshotted, 1,000,000 mixed
 *     commands (transfers, holds, spot orders and cancels) are journaled
 *     after it through the sequencer, and recover() loads the snapshot and
 *     replays them. Target: < 5 s, and the recovered state hash equal to the
 *     live one.
 * (d) The longest pause of the event loop while a snapshot of the large
 *     state (~1M accounts, 100k open holds and orders, ~1.1M transfers in the
 *     retry window) is written with orders flowing, beside the longest pause
 *     of the same flow without a snapshot. Target: ≤ 50 ms.
 *
 * The machine is shared: `uptime` load averages are printed beside the figures.
 *
 *   npm run bench:sequencer
 *   (or: node --max-semi-space-size=64 --import tsx bench/sequencer.bench.ts [seconds] [--state])
 *
 * `--state` measures (c) and (d) only; BENCH_REPLAY_COMMANDS sets the size of (c).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { openFileJournal, openSnapshotStore } from '../apps/server/src/core/journal/index.ts';
import { recover, Sequencer, workerSnapshotSink } from '../apps/server/src/core/sequencer/index.ts';
import { commandStream } from '../apps/server/src/core/state/command-stream.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
  moneyStateHash,
} from '../apps/server/src/core/state/index.ts';
import { tuneGarbageCollector } from '../apps/server/src/garbage-collector.ts';
import { cpuMs, limitOrderRequests, loadText, orderBodyAt, startChild } from './support/http-load.ts';
import { largeStateBootstrap } from './support/large-state.ts';

// The server's collector setting (main.ts), so the figures are the server's.
tuneGarbageCollector();

const STATE_ONLY = process.argv.includes('--state');
const SECONDS = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 10);
const WARMUP_SECONDS = 3;
const CONNECTIONS = 50;
const PORT = 18_441;
const CEILING_PORT = 18_442;
const HERE = path.dirname(new URL(import.meta.url).pathname);
const ALONE_REQUESTS = 400;
const REPLAY_COMMANDS = Number(process.env.BENCH_REPLAY_COMMANDS ?? 1_000_000);
/** Bootstrap: 100,000 commands of 10 deposits make 1,000,000 accounts (5 coins × 200,000 users); then resting orders, each an open hold. */
const BOOT_USERS = 200_000;
const RESTING_ORDERS = 100_000;

async function httpFigures(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'halyard-bench-sequencer-'));
  const server = await startServer(['sequencer'], { PORT: String(PORT), HALYARD_BENCH_DIR: dataDir });
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await measure(base, WARMUP_SECONDS);
    const orders = await measure(base, SECONDS);
    const ordersLoad = loadText();
    const alone = await aloneP50(base);
    const aloneLoad = loadText();
    server.kill('SIGTERM');
    const ceilingServer = await startServer(['ceiling'], { PORT: String(CEILING_PORT) });
    let ceiling: Measured;
    let ceilingAlone: number;
    try {
      const ceilingBase = `http://127.0.0.1:${CEILING_PORT}`;
      await measure(ceilingBase, WARMUP_SECONDS);
      ceiling = await measure(ceilingBase, SECONDS);
      ceilingAlone = await aloneP50(ceilingBase);
    } finally {
      ceilingServer.kill('SIGTERM');
    }
    print('(a) orders via the sequencer', orders, ordersLoad);
    print('    ceiling (bare Fastify route)', ceiling, loadText());
    const ratio = orders.requests.average / ceiling.requests.average;
    console.log(
      `    ratio orders/ceiling: ${(ratio * 100).toFixed(1)}% (target ≥ 25%) ${ratio >= 0.25 ? 'MET' : 'MISSED'}`,
    );
    if (orders.cpuMsPerRequest !== null && ceiling.cpuMsPerRequest !== null)
      console.log(
        `    ratio by server CPU per request (ceiling/orders): ${((ceiling.cpuMsPerRequest / orders.cpuMsPerRequest) * 100).toFixed(1)}%`,
      );
    console.log(
      `(b) one order alone: p50 ${alone.toFixed(2)} ms over ${ALONE_REQUESTS} sequential requests (target ≤ 2 ms) ${alone <= 2 ? 'MET' : 'MISSED'}; the bare route alone: p50 ${ceilingAlone.toFixed(2)} ms   (${aloneLoad})`,
    );
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Measured = autocannon.Result & { cpuMsPerRequest: number | null };

function print(label: string, result: Measured, measuredAt: string): void {
  const failed = result.non2xx + result.errors + result.timeouts;
  const cpu =
    result.cpuMsPerRequest === null ? '' : `, server CPU ${result.cpuMsPerRequest.toFixed(3)} ms/req`;
  console.log(
    `${label.padEnd(34)} ${Math.round(result.requests.average).toLocaleString('en-US').padStart(7)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   (${result.requests.total} requests, ${failed} failed${cpu})   ${measuredAt}`,
  );
}

/** The bench's orders (limitOrderRequests) for `seconds`; each connection is one of the funded users. */
async function measure(base: string, seconds: number): Promise<Measured> {
  let nextUser = 0;
  const pid = childPids.get(base);
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: limitOrderRequests(() => String(1 + (nextUser++ % CONNECTIONS))),
  });
  const cpuAfter = cpuMs(pid);
  const answered = result.requests.total;
  return {
    ...result,
    cpuMsPerRequest:
      cpuBefore === null || cpuAfter === null || answered === 0 ? null : (cpuAfter - cpuBefore) / answered,
  };
}

/** p50 of one request at a time, in ms. */
async function aloneP50(base: string): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < ALONE_REQUESTS; index++) {
    const started = performance.now();
    const response = await fetch(`${base}/trad/${index % 2 === 0 ? 'buy' : 'sell'}Limit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: '1' },
      body: JSON.stringify(orderBodyAt(index % 2 === 0 ? -100 : 100)),
    });
    const body = (await response.json()) as { code: number };
    if (body.code !== 200) throw new Error(`order alone answered ${JSON.stringify(body)}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const childPids = new Map<string, number | undefined>();

/** A sequencer-server child process (its pid kept for cpuMs), resolved once it says it is listening. */
async function startServer(args: string[], env: Record<string, string>): Promise<ChildProcess> {
  // A young generation larger than V8's default: the state's short-lived objects die there instead of filling the old one.
  const child = await startChild(path.join(HERE, 'support/sequencer-server.ts'), args, env, [
    '--max-semi-space-size=64',
  ]);
  childPids.set(`http://127.0.0.1:${env.PORT}`, child.pid);
  return child;
}

async function stateFigures(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'halyard-bench-sequencer-state-'));
  try {
    // The live run ends before recovery starts: only one large state on the heap at a time.
    const liveHash = await liveRun(dir);
    const machine = moneyMachine();
    let loadSeconds = 0;
    let loadCpu = process.cpuUsage();
    const timedMachine = {
      ...machine,
      decodeState(bytes: Uint8Array) {
        const started = performance.now();
        const state = machine.decodeState(bytes);
        loadSeconds = (performance.now() - started) / 1000;
        loadCpu = process.cpuUsage();
        return state;
      },
    };
    const journal = await openFileJournal(`${dir}/journal`);
    const started = performance.now();
    const recovered = await recover(timedMachine, journal, openSnapshotStore(`${dir}/snapshots`));
    const recoverSeconds = (performance.now() - started) / 1000;
    const replaySeconds = recoverSeconds - loadSeconds;
    // CPU time moves far less with the load of a shared machine than wall time (all threads: GC helpers too).
    const replayCpu = process.cpuUsage(loadCpu);
    const replayCpuSeconds = (replayCpu.user + replayCpu.system) / 1e6;
    const same = moneyStateHash(recovered.state) === liveHash;
    console.log(
      `(c) recover: replay of ${recovered.replayed.toLocaleString('en-US')} commands after the snapshot at ${recovered.snapshotSeq} in ${replaySeconds.toFixed(2)} s (${((replaySeconds * 1e6) / recovered.replayed).toFixed(1)} µs each; target < 5 s) ${replaySeconds < 5 ? 'MET' : 'MISSED'} (CPU ${replayCpuSeconds.toFixed(2)} s), after ${loadSeconds.toFixed(2)} s loading the snapshot; state hash ${same ? 'equal to' : 'DIFFERENT from'} the live one   (${loadText()})`,
    );
    await journal.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds the large state, measures (d), journals the replay's commands after the snapshot; answers the live state hash. */
async function liveRun(dir: string): Promise<string> {
  const machine = moneyMachine();
  const journal = await openFileJournal(`${dir}/journal`);
  let snapshotBytes = 0;
  const sink = workerSnapshotSink(`${dir}/snapshots`);
  const sequencer = new Sequencer({
    machine,
    journal,
    snapshots: {
      open(seq) {
        const writer = sink.open(seq);
        snapshotBytes = 0;
        return {
          add(piece) {
            snapshotBytes += piece.length;
            writer.add(piece);
          },
          finish: () => writer.finish(),
          abandon: () => writer.abandon(),
        };
      },
    },
    start: { state: machine.initialState(), seq: 0 },
  });
  let started = performance.now();
  await submitAll(sequencer, largeStateBootstrap(BOOT_USERS, RESTING_ORDERS));
  const { ledger, orders } = sequencer.state;
  console.log(
    `large state built: ${ledger.accounts.size.toLocaleString('en-US')} accounts, ${ledger.holds.size.toLocaleString('en-US')} holds, ${orders.size.toLocaleString('en-US')} open orders, ${ledger.transfers.size.toLocaleString('en-US')} transfers in the retry window, in ${((performance.now() - started) / 1000).toFixed(1)} s (${loadText()})`,
  );

  // (d) The same flow of orders, first without a snapshot, then with one being written.
  const flow = commandStream({ seed: 4, users: BOOT_USERS, traders: 5_000, idPrefix: 'flow' });
  const without = await longestPause(sequencer, flow, null);
  started = performance.now();
  const withSnapshot = await longestPause(sequencer, flow, () => sequencer.snapshot());
  const snapshotSeconds = (performance.now() - started) / 1000;
  console.log(
    `(d) longest event-loop pause while a snapshot is written with orders flowing: ${withSnapshot.pauseMs.toFixed(1)} ms (target ≤ 50 ms) ${withSnapshot.pauseMs <= 50 ? 'MET' : 'MISSED'} (longest GC pause in it ${withSnapshot.gcMs.toFixed(1)} ms); the same flow without a snapshot: ${without.pauseMs.toFixed(1)} ms (GC ${without.gcMs.toFixed(1)} ms); snapshot of ${(snapshotBytes / 2 ** 20).toFixed(0)} MiB at seq ${withSnapshot.snapshotSeq} written in ${snapshotSeconds.toFixed(1)} s   (${loadText()})`,
  );

  // (c) A million commands journaled after the snapshot (recover() then loads it and replays them).
  started = performance.now();
  const replayStream = commandStream({ seed: 5, users: BOOT_USERS, traders: 5_000, idPrefix: 'replay' });
  await submitAll(sequencer, take(replayStream, REPLAY_COMMANDS));
  const liveSeconds = (performance.now() - started) / 1000;
  await sequencer.close();
  await sink.close();
  await journal.close();
  console.log(
    `    live: ${REPLAY_COMMANDS.toLocaleString('en-US')} commands through the sequencer in ${liveSeconds.toFixed(1)} s (${Math.round(REPLAY_COMMANDS / liveSeconds).toLocaleString('en-US')} commands/s, fsync'd)   (${loadText()})`,
  );
  return moneyStateHash(sequencer.state);
}

type MoneySequencer = Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;

/** Submits everything, at most 8,192 in flight. */
async function submitAll(sequencer: MoneySequencer, commands: Iterable<MoneyCommand>): Promise<void> {
  let inFlight: Promise<unknown>[] = [];
  for (const command of commands) {
    inFlight.push(sequencer.submit(command));
    if (inFlight.length >= 8_192) {
      await Promise.all(inFlight);
      inFlight = [];
    }
  }
  await Promise.all(inFlight);
}

function* take(stream: Iterator<MoneyCommand>, count: number): Generator<MoneyCommand> {
  for (let index = 0; index < count; index++) yield stream.next().value as MoneyCommand;
}

/**
 * Submits orders from the flow in waves of 256, for as long as `during` runs
 * (or 3 s without it), and answers the longest event-loop delay seen.
 */
async function longestPause(
  sequencer: MoneySequencer,
  flow: Iterator<MoneyCommand>,
  during: (() => Promise<number>) | null,
): Promise<{ pauseMs: number; gcMs: number; snapshotSeq: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let gcMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs = Math.max(gcMs, entry.duration);
  });
  gc.observe({ entryTypes: ['gc'] });
  let running = true;
  const work = during
    ? during().finally(() => {
        running = false;
      })
    : new Promise<number>((resolve) =>
        setTimeout(() => {
          running = false;
          resolve(0);
        }, 3_000),
      );
  histogram.enable();
  while (running) await Promise.all(Array.from({ length: 256 }, () => sequencer.submit(flow.next().value!)));
  const snapshotSeq = await work;
  histogram.disable();
  gc.disconnect();
  return { pauseMs: histogram.max / 1e6, gcMs, snapshotSeq };
}

if (!STATE_ONLY) await httpFigures();
await stateFigures();
