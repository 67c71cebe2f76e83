/**
 * The projector behind the sequencer at its full rate (issue #19: projection
 * lag p99 < 1 s).
 *
 * A seeded stream of mixed money commands (deposits, transfers, holds posted
 * and voided, retries, spot orders and cancels) is submitted by IN_FLIGHT
 * concurrent submitters, for SECONDS, to a sequencer on a journal in a
 * temporary directory (fsync before every reply). The ledger's projector
 * writes the transfers behind it into a SQLite file (WAL, synchronous =
 * FULL), or into a fresh PostgreSQL schema when BENCH_DATABASE_URL is set.
 * BENCH_PROJECTOR says where its runner works: `worker` (default: a worker
 * thread with its own connection), `thread` (the sequencer's thread), or
 * `thread,worker` for both, one after the other, in the same run; BENCH_QUEUE_MAX
 * sets the projector's bound (default: the projector's).
 *
 * The lag of a durable batch is the time from its publication (the
 * sequencer's subscribers are called) to the projector's watermark passing
 * its last sequence (its rows committed, and, for the worker, reported back).
 * The figure is the p99 of those lags, beside its anchor, the 1 s target.
 * Beside them: the command rate of the same flow without a projector,
 * measured just before in the same run (the anchor), and with it; how long the projector's
 * bound kept the sequencer's intake waiting; the lag in sequences; and, once
 * the flow stops, the ledger audit of SQL against the state. The machine is
 * shared: load averages are printed beside the figures.
 *
 *   node --max-semi-space-size=64 --import tsx bench/projection.bench.ts [seconds]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Sequencer, startFromDisk } from '../apps/server/src/core/sequencer/index.ts';
import { commandStream } from '../apps/server/src/core/state/command-stream.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
} from '../apps/server/src/core/state/index.ts';
import { ledgerProjection, ledgerProjectionWriter } from '../apps/server/src/ledger/projection.ts';
import {
  auditLedgerProjection,
  openWorkerProjector,
  Projector,
  startProjected,
  type WorkerStore,
} from '../apps/server/src/projection/index.ts';
import {
  createTestSchema,
  dropTestSchema,
  openPostgres,
  openStore,
  type Store,
} from '../apps/server/src/store/connect.ts';
import { loadText } from './support/http-load.ts';

const SECONDS = Number(process.argv[2] ?? 15);
const MODES = (process.env.BENCH_PROJECTOR ?? 'worker').split(',') as ('thread' | 'worker')[];
/** The projector's bound (its default when unset). */
const QUEUE_MAX = process.env.BENCH_QUEUE_MAX ? Number(process.env.BENCH_QUEUE_MAX) : undefined;
const IN_FLIGHT = 512;
const TARGET_MS = 1_000;
const STREAM = { users: 20_000, traders: 2_000 };
type MoneySequencer = Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;

const machine = moneyMachine();

/** Submits the stream with IN_FLIGHT commands in flight for `seconds`; answers the commands answered. */
async function runFlow(sequencer: MoneySequencer, seed: number, seconds: number): Promise<number> {
  const stream = commandStream({ seed, ...STREAM, idPrefix: `b${seed}` });
  const until = performance.now() + seconds * 1_000;
  let answered = 0;
  async function submitter(): Promise<void> {
    while (performance.now() < until) {
      await sequencer.submit(stream.next().value as MoneyCommand);
      answered += 1;
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, submitter));
  return answered;
}

interface Database {
  store: Store;
  /** The same database, for a worker's own connection. */
  where: WorkerStore;
  drop(): Promise<void>;
  name: string;
}

async function openDatabase(dir: string): Promise<Database> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const sqliteFile = path.join(dir, 'halyard.sqlite');
    const store = await openStore({ databaseUrl: null, sqliteFile });
    return { store, where: { sqliteFile }, drop: async () => undefined, name: 'SQLite file' };
  }
  const schema = await createTestSchema(url);
  return {
    store: openPostgres(url, schema),
    where: { postgresUrl: url, schema },
    drop: () => dropTestSchema(url, schema),
    name: 'PostgreSQL',
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** Counts how long the sequencer's intake waited for the projector (its bound). */
function timePauses(sequencer: MoneySequencer): () => number {
  let pausedMs = 0;
  let since: number | null = null;
  const pause = sequencer.pauseIntake.bind(sequencer);
  const resume = sequencer.resumeIntake.bind(sequencer);
  sequencer.pauseIntake = (holder) => {
    since ??= performance.now();
    pause(holder);
  };
  sequencer.resumeIntake = (holder) => {
    if (since !== null) pausedMs += performance.now() - since;
    since = null;
    resume(holder);
  };
  return () => pausedMs + (since === null ? 0 : performance.now() - since);
}

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'halyard-projection-bench-'));
  dirs.push(dir);
  return dir;
};

/** The flow with the ledger's projector behind the sequencer, its runner on this thread or in a worker. */
async function withProjector(mode: 'thread' | 'worker', aloneRate: number, seed: number): Promise<void> {
  const dir = tempDir();
  const database = await openDatabase(dir);
  const { store } = database;
  try {
    const projector =
      mode === 'worker'
        ? await openWorkerProjector({ writer: ledgerProjection, store: database.where, queueMax: QUEUE_MAX })
        : await Projector.open({
            db: store.db,
            writer: ledgerProjectionWriter(store.dialect),
            queueMax: QUEUE_MAX,
          });
    const { sequencer, journal } = await startProjected(machine, dir, [projector]);
    const pausedMs = timePauses(sequencer);
    const lags: number[] = [];
    let maxSeqLag = 0;
    sequencer.subscribe((_published, through) => {
      const at = performance.now();
      void projector.waitFor(through, 600_000).then(() => lags.push(performance.now() - at));
    });
    const sampler = setInterval(() => {
      maxSeqLag = Math.max(maxSeqLag, projector.lag());
    }, 50);
    const loadStart = loadText();
    const flowStarted = performance.now();
    const commands = await runFlow(sequencer, seed, SECONDS);
    const rate = commands / ((performance.now() - flowStarted) / 1_000);
    const loadEnd = loadText();
    const drainStarted = performance.now();
    await projector.waitFor(sequencer.lastSequence(), 600_000);
    const drainMs = performance.now() - drainStarted;
    clearInterval(sampler);

    lags.sort((a, b) => a - b);
    const p99 = percentile(lags, 99);
    const where = mode === 'worker' ? 'worker thread' : "sequencer's thread";
    const label = `${database.name}, ${where}, bound ${QUEUE_MAX ?? 'default'}`;
    console.log(
      `with the projector (${label}): ${Math.round(rate)} commands/s, ${(rate / aloneRate).toFixed(2)}× the sequencer alone; ` +
        `intake paused by the bound ${(pausedMs() / 1_000).toFixed(1)} s (${loadStart} → ${loadEnd})`,
    );
    console.log(
      `projection lag over ${lags.length} batches: p50 ${percentile(lags, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${(lags[lags.length - 1] ?? 0).toFixed(1)} ms; ` +
        `p99 / ${TARGET_MS} ms target = ${(p99 / TARGET_MS).toFixed(3)}; most sequences behind ${maxSeqLag}; drained ${drainMs.toFixed(0)} ms after the flow stopped`,
    );
    const { report } = await auditLedgerProjection({
      db: store.db,
      projector,
      source: sequencer,
      timeoutMs: 60_000,
    });
    console.log(
      `audit of SQL against the state at ${sequencer.lastSequence()}: ${report.accounts} accounts, ${report.transfers} transfers, ${report.breaches.length} breaches (${loadText()})`,
    );
    await projector.close();
    await sequencer.close();
    await journal.close();
  } finally {
    await store.close();
    await database.drop();
  }
}

/** The anchor: the same flow on a sequencer alone, measured just before each projector run (the load moves). */
async function aloneRate(seed: number): Promise<number> {
  const alone = await startFromDisk(machine, tempDir());
  const loadBefore = loadText();
  const started = performance.now();
  const commands = await runFlow(alone.sequencer, seed, SECONDS);
  const rate = commands / ((performance.now() - started) / 1_000);
  await alone.sequencer.close();
  await alone.journal.close();
  console.log(`sequencer alone: ${Math.round(rate)} commands/s (${loadBefore} → ${loadText()})`);
  return rate;
}

try {
  for (const [index, mode] of MODES.entries()) {
    const rate = await aloneRate(1 + 2 * index);
    await withProjector(mode, rate, 2 + 2 * index);
  }
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
