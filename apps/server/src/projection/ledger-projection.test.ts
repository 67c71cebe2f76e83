import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Dec } from '@halyard/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalTruncatedError } from '../core/journal/index.ts';
import type { Sequencer, StartedSequencer } from '../core/sequencer/index.ts';
import { commandStream } from '../core/state/command-stream.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
  moneyStateHash,
} from '../core/state/index.ts';
import { ledgerProjectionWriter } from '../ledger/projection.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { auditLedgerProjection } from './audit.ts';
import { Projector } from './projector.ts';
import { journalTruncationBound, pruneAndTruncate, startProjected } from './start.ts';

/**
 * One scenario on one store and one data directory, test after test: a
 * seeded stream of mixed money commands through a real sequencer and the
 * ledger's projector; a restart with the projector behind the newest
 * snapshot; a truncation of the journal and a start after it. At every step
 * SQL must equal the state and pass the ledger audit, and hold each
 * published transfer exactly once.
 */
type MoneySequencer = Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;
type Started = StartedSequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;

const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });
const stream = commandStream({ seed: 20_261_128, users: 200, traders: 20 });
const JOURNAL = { segmentBytes: 64 * 1024 };
let store: Store;
let dir: string;
/** Every transfer the sequencers published, live, in every phase. */
const published: string[] = [];

beforeAll(async () => {
  store = await openTestStore();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'halyard-projection-'));
});
afterAll(async () => {
  await store.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function openProjector(): Promise<Projector<MoneyEvent>> {
  return Projector.open({ db: store.db, writer: ledgerProjectionWriter(store.dialect), batchMax: 512 });
}

async function start(projector: Projector<MoneyEvent>): Promise<Started> {
  const started = await startProjected(machine, dir, [projector], JOURNAL);
  started.sequencer.subscribe((batch) => {
    for (const { events } of batch)
      for (const event of events)
        if (event.type === 'transfers') published.push(...event.transfers.map((transfer) => transfer.id));
  });
  return started;
}

/** The next `count` commands of the stream, in waves, with a snapshot taken mid-wave now and then. */
async function submit(sequencer: MoneySequencer, count: number, snapshotEvery = 0): Promise<number[]> {
  const snapshots: Promise<number>[] = [];
  for (let done = 0; done < count; ) {
    const wave: Promise<MoneyResult>[] = [];
    for (let index = 0; index < 500 && done < count; index++, done++) {
      wave.push(sequencer.submit(stream.next().value as MoneyCommand));
      if (snapshotEvery > 0 && done > 0 && done % snapshotEvery === 0) snapshots.push(sequencer.snapshot());
    }
    await Promise.all(wave);
  }
  return Promise.all(snapshots);
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
  const rows = await store.db.selectFrom('ledger_transfers').select('id').execute();
  expect(rows.length).toBe(published.length);
  expect(new Set(rows.map((row) => row.id))).toEqual(new Set(published));
}

describe('the ledger projection behind a real sequencer', () => {
  let started: Started;
  let projector: Projector<MoneyEvent>;
  let firstWatermark = 0;
  let firstSnapshot = 0;
  let hashAtStop = '';

  it('writes the transfers of a seeded stream: SQL equals the state and the ledger audit holds', async () => {
    projector = await openProjector();
    started = await start(projector);
    firstSnapshot = (await submit(started.sequencer, 3_000, 1_500))[0] ?? 0;
    expect(firstSnapshot).toBeGreaterThan(0);
    await expectProjectionEqualsState(projector, started.sequencer);
    expect(published.length).toBeGreaterThan(1_000);
    expect(started.sequencer.state.orders.size).toBeGreaterThan(0);

    // The comparison can fail: one account's total changed in SQL is found, as such and by the audit.
    const account = await store.db
      .selectFrom('ledger_accounts')
      .selectAll()
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const update = (value: string) =>
      store.db
        .updateTable('ledger_accounts')
        .set({ credits_posted: value })
        .where('id', '=', account.id)
        .execute();
    await update(Dec.parse(account.credits_posted).add(Dec.parse('0.000001')).toString());
    const { report } = await auditLedgerProjection({
      db: store.db,
      projector,
      source: started.sequencer,
      timeoutMs: 30_000,
    });
    expect(new Set(report.breaches.map((breach) => breach.rule))).toEqual(
      new Set(['projection', 'account-totals', 'asset-balance']),
    );
    await update(account.credits_posted);
  });

  it('after a restart, catches up from a snapshot at or below its watermark and writes nothing twice', async () => {
    // The projector stops; the sequencer goes on, past a snapshot newer than the watermark, and stops.
    await projector.close();
    firstWatermark = projector.watermark();
    expect(firstWatermark).toBe(started.sequencer.lastSequence());
    const [newer] = await submit(started.sequencer, 2_000, 1_000);
    expect(newer).toBeGreaterThan(firstWatermark);
    hashAtStop = moneyStateHash(started.sequencer.state);
    await started.sequencer.close();
    await started.journal.close();

    projector = await openProjector();
    expect(projector.watermark()).toBe(firstWatermark);
    started = await start(projector);
    expect((await started.snapshots.latest())?.seq).toBe(newer);
    expect(started.recovered.snapshotSeq).toBe(firstSnapshot);
    expect(moneyStateHash(started.sequencer.state)).toBe(hashAtStop);
    await submit(started.sequencer, 2_000);
    await expectProjectionEqualsState(projector, started.sequencer);
  });

  it('truncates the journal only below what a catch-up can still need, and starts again after it', async () => {
    expect(journalTruncationBound([], 50)).toBe(0);
    expect(journalTruncationBound([90, 30], 50)).toBe(30);
    expect(journalTruncationBound([90, 70], 50)).toBe(0);

    const latest = await started.sequencer.snapshot();
    await projector.waitFor(latest, 30_000);
    // A projector still at the first watermark keeps the snapshot below it, and the journal after that.
    const behind = { watermark: () => firstWatermark };
    const kept = await pruneAndTruncate({ ...started, keep: 1, projectors: [projector, behind] });
    expect(kept).toBe(firstSnapshot);
    expect((await started.snapshots.latest(firstWatermark))?.seq).toBe(firstSnapshot);
    // Once every projector has passed the newest snapshot, the journal goes up to it.
    expect(await pruneAndTruncate({ ...started, keep: 1, projectors: [projector] })).toBe(latest);
    expect(await started.snapshots.latest(firstWatermark)).toBeNull();
    await expect(consume(started.journal.read(0))).rejects.toBeInstanceOf(JournalTruncatedError);

    await projector.close();
    await started.sequencer.close();
    await started.journal.close();
    projector = await openProjector();
    started = await start(projector);
    expect(started.recovered.snapshotSeq).toBe(latest);
    await submit(started.sequencer, 500);
    await expectProjectionEqualsState(projector, started.sequencer);
    await projector.close();
    await started.sequencer.close();
    await started.journal.close();
  });
});

async function consume(records: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of records) break;
}
