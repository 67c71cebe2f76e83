import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileJournal, openSnapshotStore } from '../core/journal/index.ts';
import { useTempDirs } from '../core/journal/test-support.ts';
import { inlineSnapshotSink, Sequencer } from '../core/sequencer/index.ts';
import { commandStream } from '../core/state/command-stream.ts';
import { type MoneyCommand, type MoneyEvent, moneyMachine } from '../core/state/index.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { Projector } from './projector.ts';
import type { ProjectionWriter } from './writer.ts';

/**
 * The bound on the projector's queue: a writer that cannot write (its
 * transactions wait on a gate) makes the followed sequencer's intake wait
 * once more than `queueMax` sequences are received and not written; the
 * submitters wait with it, and nothing is lost. Opening the gate lets the
 * projector drain and the intake resume.
 */
const tempDir = useTempDirs();
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });
let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

/** Until `open` is called, every write waits. */
function gatedWriter(): ProjectionWriter<MoneyEvent> & { open(): void } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { name: 'gated', write: () => gate, open };
}

const turns = async (count: number) => {
  for (let index = 0; index < count; index++) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe("the projector's bound", () => {
  it('pauses the sequencer past queueMax sequences not written, and resumes it as the projector writes', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(`${dir}/journal`);
    const sequencer = new Sequencer({
      machine,
      journal,
      snapshots: inlineSnapshotSink(openSnapshotStore(`${dir}/snapshots`)),
      start: { state: machine.initialState(), seq: 0 },
      batchMax: 64,
    });
    const writer = gatedWriter();
    const queueMax = 200;
    const projector = await Projector.open({ db: store.db, writer, batchMax: 50, queueMax });
    projector.follow(sequencer);

    const stream = commandStream({ seed: 20_261_127, users: 100, traders: 10 });
    const total = 3_000;
    let submitted = 0;
    let answered = 0;
    const submitter = async () => {
      while (submitted < total) {
        submitted += 1;
        await sequencer.submit(stream.next().value as MoneyCommand);
        answered += 1;
      }
    };
    const flow = Promise.all(Array.from({ length: 64 }, submitter));

    // The first transaction waits at the gate; the queue passes the bound and the intake stops.
    while (projector.queued() <= queueMax) await turns(1);
    await turns(20);
    const stalled = sequencer.lastSequence();
    // Sequences without events need no write, so the watermark may pass the first few of them, no more.
    const watermark = projector.watermark();
    await turns(20);
    expect(sequencer.lastSequence()).toBe(stalled);
    expect(projector.watermark()).toBe(watermark);
    expect(stalled - watermark).toBeGreaterThan(queueMax);
    expect(answered).toBeLessThanOrEqual(stalled);
    // What was applied past the bound is what was already in flight: a turn's batch or two.
    expect(stalled).toBeLessThan(queueMax + 4 * 64);

    writer.open();
    await flow;
    expect(answered).toBe(total);
    await projector.waitFor(total, 30_000);
    expect(projector.queued()).toBe(0);
    await projector.close();
    await sequencer.close();
    await journal.close();
  });
});
