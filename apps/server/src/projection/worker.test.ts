import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempDirs } from '../core/journal/test-support.ts';
import type { Sequencer, StartedSequencer } from '../core/sequencer/index.ts';
import { commandStream } from '../core/state/command-stream.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
} from '../core/state/index.ts';
import { ledgerProjection } from '../ledger/projection.ts';
import type { Store } from '../store/connect.ts';
import { auditLedgerProjection } from './audit.ts';
import type { Projector } from './projector.ts';
import { startProjected } from './start.ts';
import { watermarkStore } from './store.ts';
import { type SharedTestDatabase, sharedTestDatabase } from './test-support.ts';
import { openWorkerProjector, type WorkerStore } from './worker-transport.ts';

/**
 * The ledger's projector with its runner in a worker thread, on a database
 * both threads open (a SQLite file in WAL mode, or a PostgreSQL schema of
 * its own): behind a real sequencer SQL equals the state and passes the
 * audit, which holds the worker at the sequence it copied the state at; a
 * closed projector reopens at its watermark and writes nothing twice.
 */
type MoneySequencer = Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;
type Started = StartedSequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;

const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });
const stream = commandStream({ seed: 20_261_126, users: 200, traders: 20 });
const tempDir = useTempDirs();
let database: SharedTestDatabase;
let store: Store;
let where: WorkerStore;

beforeAll(async () => {
  database = await sharedTestDatabase(await tempDir());
  store = await database.open();
  where = database.where;
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

async function submit(sequencer: MoneySequencer, count: number): Promise<void> {
  for (let done = 0; done < count; ) {
    const wave: Promise<MoneyResult>[] = [];
    for (let index = 0; index < 500 && done < count; index++, done++)
      wave.push(sequencer.submit(stream.next().value as MoneyCommand));
    await Promise.all(wave);
  }
}

async function expectProjectionEqualsState(projector: Projector<MoneyEvent>, sequencer: MoneySequencer) {
  const { seq, report } = await auditLedgerProjection({
    db: store.db,
    projector,
    source: sequencer,
    timeoutMs: 30_000,
  });
  expect(report.breaches).toEqual([]);
  expect(seq).toBe(sequencer.lastSequence());
  expect(report.transfers).toBeGreaterThan(500);
}

describe('the projector in a worker thread', () => {
  it('writes SQL equal to the state, holds for the audit, and resumes from its watermark', async () => {
    const dir = await tempDir();
    let projector = await openWorkerProjector({ writer: ledgerProjection, store: where, batchMax: 512 });
    expect(projector.watermark()).toBe(0);
    let started: Started = await startProjected(machine, dir, [projector]);
    await submit(started.sequencer, 3_000);
    await expectProjectionEqualsState(projector, started.sequencer);
    expect(await watermarkStore.read(store.db, 'ledger')).toBe(3_000);

    // Closed mid-flow: what it received is written first; a new worker starts at the watermark.
    const flow = submit(started.sequencer, 1_000);
    await projector.waitFor(3_200, 30_000);
    await projector.close();
    await flow;
    const closedAt = projector.watermark();
    expect(closedAt).toBeGreaterThanOrEqual(3_200);
    expect(await watermarkStore.read(store.db, 'ledger')).toBe(closedAt);
    await expect(projector.waitFor(started.sequencer.lastSequence() + 1, 10_000)).rejects.toThrow(/closed/);
    await started.sequencer.close();
    await started.journal.close();

    projector = await openWorkerProjector({ writer: ledgerProjection, store: where });
    expect(projector.watermark()).toBe(closedAt);
    started = await startProjected(machine, dir, [projector]);
    await submit(started.sequencer, 1_000);
    await expectProjectionEqualsState(projector, started.sequencer);
    const rows = await store.db.selectFrom('ledger_transfers').select('id').execute();
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    await projector.close();
    await started.sequencer.close();
    await started.journal.close();
  });

  it('fails to open, with the reason, when the writer spec names no export', async () => {
    await expect(
      openWorkerProjector({ writer: { ...ledgerProjection, exportName: 'nothing' }, store: where }),
    ).rejects.toThrow(/exports no nothing/);
  });
});
