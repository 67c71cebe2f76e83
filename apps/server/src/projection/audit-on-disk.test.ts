import { Dec } from '@halyard/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileJournal, openSnapshotStore } from '../core/journal/index.ts';
import { useTempDirs } from '../core/journal/test-support.ts';
import type { Sequencer } from '../core/sequencer/index.ts';
import { commandStream } from '../core/state/command-stream.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
} from '../core/state/index.ts';
import { ledgerProjectionWriter } from '../ledger/projection.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { auditLedgerProjectionOnDisk } from './audit.ts';
import { Projector } from './projector.ts';
import { startProjected } from './start.ts';

/**
 * The audit the CLI runs with the server stopped: the state derived again
 * from the data directory up to the projection's watermark, which is behind
 * the journal's end and behind its newest snapshot, equals SQL; a total
 * changed in SQL is found.
 */
const tempDir = useTempDirs();
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });
let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

type MoneySequencer = Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;
const stream = commandStream({ seed: 20_261_131, users: 200, traders: 20 });
async function submit(sequencer: MoneySequencer, count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, () => sequencer.submit(stream.next().value as MoneyCommand)),
  );
}

describe('the projection audit on disk', () => {
  it('replays to the watermark exactly, from a snapshot at or below it, and compares with SQL', async () => {
    const dir = await tempDir();
    const projector = await Projector.open({ db: store.db, writer: ledgerProjectionWriter(store.dialect) });
    const started = await startProjected(machine, dir, [projector]);
    await submit(started.sequencer, 1_500);
    const older = await started.sequencer.snapshot();
    await submit(started.sequencer, 1_000);
    await projector.waitFor(started.sequencer.lastSequence(), 30_000);
    await projector.close();
    const watermark = projector.watermark();
    await submit(started.sequencer, 1_000);
    const newer = await started.sequencer.snapshot();
    await started.sequencer.close();
    await started.journal.close();
    expect(newer).toBeGreaterThan(watermark);

    const journal = await openFileJournal(`${dir}/journal`);
    const audit = () =>
      auditLedgerProjectionOnDisk({
        db: store.db,
        machine,
        journal,
        snapshots: openSnapshotStore(`${dir}/snapshots`),
        name: projector.name,
      });
    const clean = await audit();
    expect(clean.seq).toBe(watermark);
    expect(clean.snapshotSeq).toBe(older);
    expect(clean.report.breaches).toEqual([]);
    expect(clean.report.transfers).toBeGreaterThan(500);

    const account = await store.db
      .selectFrom('ledger_accounts')
      .select(['id', 'debits_posted'])
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await store.db
      .updateTable('ledger_accounts')
      .set({ debits_posted: Dec.parse(account.debits_posted).add(Dec.parse('1')).toString() })
      .where('id', '=', account.id)
      .execute();
    const broken = await audit();
    expect(broken.report.breaches.map((breach) => breach.rule)).toContain('projection');
    await journal.close();
  });
});
