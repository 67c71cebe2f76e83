import { expect, it } from 'vitest';
import type { CorruptSnapshot, SnapshotStore } from './index.ts';
import { snapshotName } from './snapshot-store-shared.ts';
import { asText, text } from './test-support.ts';

/** A snapshot store on a place of its own that holds nothing yet, and a view of that place past the store. */
export interface SnapshotStoreHarness {
  store: SnapshotStore;
  /** What the store reported to onCorrupt. */
  corrupt: CorruptSnapshot[];
  /** The names of the snapshots stored under a final name (files, objects), sorted. */
  names(): Promise<string[]>;
  /** Leaves what a write of `seq` cut short by a crash leaves behind (a temp file, chunks with no object). */
  leaveHalfWritten(seq: number): Promise<void>;
  /** How many such leftovers there are. */
  halfWritten(): Promise<number>;
  /** The stored bytes of a snapshot, header and all. */
  readRaw(name: string): Promise<Buffer>;
  /** Stores bytes under a final name, as a bad disk or a bad copy would: the store does not check them. */
  writeRaw(name: string, bytes: Uint8Array): Promise<void>;
}

/**
 * The cases every snapshot store passes (docs/core.md, "Snapshots"): the
 * file store's and the JetStream Object Store's tests call this with their
 * own harness.
 */
export function snapshotStoreContract(open: () => Promise<SnapshotStoreHarness>): void {
  const nameOf = snapshotName;

  it('answers null before any snapshot, even where nothing was ever stored', async () => {
    const { store } = await open();
    expect(await store.latest()).toBeNull();
    expect(await store.prune(2)).toEqual([]);
  });

  it('answers the newest snapshot, named by its sequence, with nothing half written left', async () => {
    const { store, names, halfWritten } = await open();
    await store.write(10, text('state at 10'));
    await store.write(250, text('state at 250'));
    await store.write(40, text('state at 40'));
    const latest = await store.latest();
    expect(latest?.seq).toBe(250);
    expect(asText(latest!.bytes)).toBe('state at 250');
    expect(await names()).toEqual([nameOf(10), nameOf(40), nameOf(250)]);
    expect(await halfWritten()).toBe(0);
  });

  it('passes over what a write cut short left, and removes it once a newer snapshot is whole', async () => {
    const { store, corrupt, names, leaveHalfWritten, halfWritten } = await open();
    await store.write(5, text('five'));
    await leaveHalfWritten(9);
    expect((await store.latest())?.seq).toBe(5);
    expect(corrupt).toEqual([]);
    // It may still be being written by another store on the same place (a worker's): kept until a newer one is whole.
    await store.prune(3);
    expect(await halfWritten()).toBe(1);
    await store.write(12, text('twelve'));
    await store.prune(3);
    expect(await halfWritten()).toBe(0);
    expect(await names()).toEqual([nameOf(5), nameOf(12)]);
  });

  it('reports a corrupt newest snapshot and answers the one before it', async () => {
    const { store, corrupt, readRaw, writeRaw } = await open();
    await store.write(5, text('five'));
    await store.write(9, text('nine'));
    const bytes = await readRaw(nameOf(9));
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    await writeRaw(nameOf(9), bytes);
    expect((await store.latest())?.seq).toBe(5);
    expect(corrupt).toEqual([{ file: nameOf(9), reason: 'checksum mismatch' }]);
  });

  it('passes over a truncated snapshot and one stored under another sequence', async () => {
    const { store, corrupt, readRaw, writeRaw } = await open();
    await store.write(3, text('three'));
    await store.write(7, text('seven'));
    const seven = await readRaw(nameOf(7));
    await writeRaw(nameOf(8), seven);
    await writeRaw(nameOf(9), seven.subarray(0, 20));
    expect((await store.latest())?.seq).toBe(7);
    expect(corrupt).toEqual([
      { file: nameOf(9), reason: 'only 20 bytes, shorter than a header' },
      { file: nameOf(8), reason: 'holds sequence 7, its name says 8' },
    ]);
  });

  it('prunes to the newest good snapshots, removing corrupt ones', async () => {
    const { store, names, writeRaw } = await open();
    for (const seq of [1, 2, 3, 4, 5]) await store.write(seq, text(`state ${seq}`));
    await writeRaw(nameOf(6), text('garbage'));
    expect(await store.prune(2)).toEqual([5, 4]);
    expect(await names()).toEqual([nameOf(4), nameOf(5)]);
    expect((await store.latest())?.seq).toBe(5);
    await expect(store.prune(0)).rejects.toThrow(RangeError);
  });

  it('answers the newest at or below a sequence, and prune keeps one at or below a watermark', async () => {
    const { store, corrupt, names, readRaw, writeRaw } = await open();
    for (const seq of [10, 20, 30, 40]) await store.write(seq, text(`state ${seq}`));
    expect((await store.latest(25))?.seq).toBe(20);
    expect((await store.latest(30))?.seq).toBe(30);
    expect(await store.latest(5)).toBeNull();
    const twenty = await readRaw(nameOf(20));
    twenty.writeUInt8(twenty.readUInt8(35) ^ 1, 35);
    await writeRaw(nameOf(20), twenty);
    expect((await store.latest(25))?.seq).toBe(10);
    expect(corrupt).toEqual([{ file: nameOf(20), reason: 'checksum mismatch' }]);
    expect(await store.prune(1, 25)).toEqual([40, 10]);
    expect(await names()).toEqual([nameOf(10), nameOf(40)]);
  });

  it('overwrites a snapshot of the same sequence atomically', async () => {
    const { store, names } = await open();
    await store.write(4, text('first'));
    await store.write(4, text('second'));
    expect(asText((await store.latest())!.bytes)).toBe('second');
    expect(await names()).toEqual([nameOf(4)]);
  });

  it('keeps a snapshot of a few megabytes whole', async () => {
    const { store } = await open();
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let at = 0; at + 4 <= bytes.length; at += 4) bytes.writeUInt32LE((at * 2_654_435_761) >>> 0, at);
    await store.write(77, bytes);
    const latest = await store.latest();
    expect(latest?.seq).toBe(77);
    expect(Buffer.from(latest!.bytes).equals(bytes)).toBe(true);
  });
}
