import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../core/journal-jetstream/test-support.ts';
import type { Published } from '../core/sequencer/index.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { ProjectionTimeoutError, Projector, ProjectorStoppedError } from './projector.ts';
import { catchUpAll } from './start.ts';
import { watermarkStore } from './store.ts';
import type { ProjectionWriter } from './writer.ts';

/**
 * The runner alone, with a writer that records what it is handed: order,
 * batching, the watermark moving in the writer's transaction, repeated and
 * stale deliveries skipped, failed writes retried, waiting and holding.
 * Each test uses a writer name of its own on the file's one store.
 */
let store: Store;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

interface Recorder extends ProjectionWriter<string> {
  /** Sequences written, per transaction. */
  transactions: number[][];
  /** Throws on the next `failures` writes. */
  failures: number;
  /** Per call, the watermark row as the writer's transaction saw it. */
  watermarksSeen: number[];
}

function recorder(name: string): Recorder {
  const writer: Recorder = {
    name,
    transactions: [],
    failures: 0,
    watermarksSeen: [],
    async write(trx, published) {
      writer.watermarksSeen.push(await watermarkStore.read(trx, name));
      if (writer.failures > 0) {
        writer.failures -= 1;
        throw new Error('disk full');
      }
      writer.transactions.push(published.map((entry) => entry.seq));
    },
  };
  return writer;
}

const events = (...seqs: number[]): Published<string>[] => seqs.map((seq) => ({ seq, events: [`e${seq}`] }));

describe('the projector', () => {
  it('writes in order, in batches of at most batchMax, each with its watermark, and skips what is at or below it', async () => {
    const writer = recorder('order');
    const projector = await Projector.open({ db: store.db, writer, batchMax: 3 });
    expect(projector.watermark()).toBe(0);
    projector.accept(events(1, 2, 4), 5);
    projector.accept([], 6);
    projector.accept(events(7, 8, 9), 10);
    await projector.waitFor(10, 10_000);
    expect(writer.transactions.flat()).toEqual([1, 2, 4, 7, 8, 9]);
    expect(Math.max(...writer.transactions.map((batch) => batch.length))).toBeLessThanOrEqual(3);
    expect(await watermarkStore.read(store.db, 'order')).toBe(10);
    expect(projector.lag()).toBe(0);

    // Delivered again, to this projector or to a new one: nothing is written twice.
    projector.accept(events(4, 7, 8, 9), 10);
    const reopened = await Projector.open({ db: store.db, writer });
    expect(reopened.watermark()).toBe(10);
    reopened.accept(events(9, 11), 11);
    await reopened.waitFor(11, 10_000);
    expect(writer.transactions.flat()).toEqual([1, 2, 4, 7, 8, 9, 11]);
  });

  it('a projector whose watermark another one moved reloads it and writes only what is left', async () => {
    const first = recorder('shared');
    const second = recorder('shared');
    const ahead = await Projector.open({ db: store.db, writer: first });
    const behind = await Projector.open({ db: store.db, writer: second });
    ahead.accept(events(1, 2, 3, 4, 5), 5);
    await ahead.waitFor(5, 10_000);
    behind.accept(events(1, 2, 3, 4, 5, 6, 7, 8), 8);
    await behind.waitFor(8, 10_000);
    expect(first.transactions.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(second.transactions.flat()).toEqual([6, 7, 8]);
    expect(await watermarkStore.read(store.db, 'shared')).toBe(8);
  });

  it('rolls a failed write back, rows and watermark, reports it and writes it again', async () => {
    const writer = recorder('failing');
    writer.failures = 2;
    const errors: unknown[] = [];
    const watermarksAfterFailure: Promise<number>[] = [];
    const projector = await Projector.open({
      db: store.db,
      writer,
      retryMs: 0,
      onError(error) {
        errors.push(error);
        watermarksAfterFailure.push(watermarkStore.read(store.db, 'failing'));
      },
    });
    projector.accept(events(1, 2), 3);
    await projector.waitFor(3, 10_000);
    expect(errors.map((error) => (error as Error).message)).toEqual(['disk full', 'disk full']);
    expect(await Promise.all(watermarksAfterFailure)).toEqual([0, 0]);
    // Each attempt saw the watermark moved to 3 in its own transaction; the failed ones were rolled back.
    expect(writer.watermarksSeen).toEqual([3, 3, 3]);
    expect(writer.transactions).toEqual([[1, 2]]);
    expect(await watermarkStore.read(store.db, 'failing')).toBe(3);
  });

  it('coalesces events that arrive close together into one transaction, and goes at once for a waiter, a full batch or a close', async () => {
    const writer = recorder('coalescing');
    // A pause far longer than the test: whatever is written before it ends was written for a reason.
    const projector = await Projector.open({ db: store.db, writer, batchMax: 3, coalesceMs: 600_000 });
    const turns = async (count: number) => {
      for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
    };
    // After a quiet spell, the first event goes at once: nobody has to wait for it.
    projector.accept(events(1), 1);
    await eventually(() => projector.watermark() === 1);
    projector.accept(events(2), 2);
    await turns(5);
    projector.accept(events(3), 3);
    await turns(20);
    expect(writer.transactions).toEqual([[1]]);
    // A read that must see sequence 3 hurries the runner: 2 and 3 share one transaction.
    await projector.waitFor(3, 10_000);
    expect(writer.transactions).toEqual([[1], [2, 3]]);
    // A full batch (batchMax sequences with events) does not wait either.
    projector.accept(events(4, 5), 5);
    await turns(20);
    expect(writer.transactions).toHaveLength(2);
    projector.accept(events(6), 6);
    await eventually(() => projector.watermark() === 6);
    expect(writer.transactions).toEqual([[1], [2, 3], [4, 5, 6]]);
    // Closing writes what is left at once.
    projector.accept(events(7), 7);
    await projector.close();
    expect(writer.transactions.at(-1)).toEqual([7]);
    expect(await watermarkStore.read(store.db, 'coalescing')).toBe(7);
  });

  it('tells onStopped once when it stops for good (its watermark went back), and not when it is closed', async () => {
    const rewound = await Projector.open({ db: store.db, writer: recorder('rewound') });
    const told: Error[] = [];
    rewound.onStopped((error) => told.push(error));
    rewound.accept(events(1, 2, 3), 3);
    await rewound.waitFor(3, 10_000);
    // The database restored from an older backup: SQL no longer holds what the projector wrote.
    await store.db
      .updateTable('projection_watermarks')
      .set({ seq: 1 })
      .where('name', '=', 'rewound')
      .execute();
    rewound.accept(events(4), 4);
    await expect(rewound.waitFor(4, 10_000)).rejects.toBeInstanceOf(ProjectorStoppedError);
    expect(told.map((error) => error.message)).toEqual([expect.stringMatching(/went back from 3 to 1/)]);

    const closed = await Projector.open({ db: store.db, writer: recorder('closed') });
    closed.onStopped((error) => told.push(error));
    closed.accept(events(1), 1);
    await closed.close();
    expect(told).toHaveLength(1);
  });

  it('waitFor answers at once below the watermark, and times out above what will come', async () => {
    const projector = await Projector.open({ db: store.db, writer: recorder('waiting') });
    projector.accept(events(1), 2);
    await projector.waitFor(2, 10_000);
    await expect(projector.waitFor(1, 0)).resolves.toBeUndefined();
    await expect(projector.waitFor(3, 1)).rejects.toBeInstanceOf(ProjectionTimeoutError);
  });

  it('holdAt keeps the watermark at a sequence while events queue, and lets it go after', async () => {
    const writer = recorder('held');
    const projector = await Projector.open({ db: store.db, writer });
    projector.accept(events(1, 2), 2);
    const held = projector.holdAt(4, 10_000, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { memory: projector.watermark(), sql: await watermarkStore.read(store.db, 'held') };
    });
    // Received after the hold began, as the sequencer goes on: written up to 4 only, until the work is done.
    projector.accept(events(3, 5), 6);
    expect(await held).toEqual({ memory: 4, sql: 4 });
    await expect(projector.holdAt(1, 10_000, async () => 'late')).rejects.toThrow(/received up to 6/);
    await projector.waitFor(6, 10_000);
    expect(writer.transactions.flat()).toEqual([1, 2, 3, 5]);
  });

  it('catches several projectors up from the lowest watermark, each skipping what it has', async () => {
    const slow = recorder('catch-up-slow');
    const fast = recorder('catch-up-fast');
    const behind = await Projector.open({ db: store.db, writer: slow });
    const ahead = await Projector.open({ db: store.db, writer: fast });
    behind.accept(events(1), 1);
    ahead.accept(events(1, 2, 3), 4);
    await Promise.all([behind.waitFor(1, 10_000), ahead.waitFor(4, 10_000)]);
    const catchUp = catchUpAll([behind, ahead]);
    expect(catchUp.after).toBe(1);
    await catchUp.deliver(events(2, 3), 4);
    await catchUp.deliver(events(5), 6);
    await Promise.all([behind.waitFor(6, 10_000), ahead.waitFor(6, 10_000)]);
    expect(slow.transactions.flat()).toEqual([1, 2, 3, 5]);
    expect(fast.transactions.flat()).toEqual([1, 2, 3, 5]);
  });

  it('follows only a sequencer at the sequence it has received', async () => {
    const projector = await Projector.open({ db: store.db, writer: recorder('follow') });
    const source = { subscribe: () => () => undefined, lastSequence: () => 7 };
    expect(() => projector.follow(source)).toThrow(/catch up first/);
  });
});
