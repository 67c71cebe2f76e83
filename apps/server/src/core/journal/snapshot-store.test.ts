import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CorruptSnapshot, openSnapshotStore } from './index.ts';
import { asText, text, useTempDirs } from './test-support.ts';

const tempDir = useTempDirs();
const fileOf = (seq: number) => `snapshot-${String(seq).padStart(20, '0')}.snap`;

function storeIn(dir: string) {
  const corrupt: CorruptSnapshot[] = [];
  const store = openSnapshotStore(dir, { onCorrupt: (found) => corrupt.push(found) });
  return { store, corrupt };
}

describe('snapshot store', () => {
  it('answers null before any snapshot, even without a directory', async () => {
    const { store } = storeIn(path.join(await tempDir(), 'absent'));
    expect(await store.latest()).toBeNull();
  });

  it('answers the newest snapshot, named by its sequence, with no temp file left', async () => {
    const dir = await tempDir();
    const { store } = storeIn(dir);
    await store.write(10, text('state at 10'));
    await store.write(250, text('state at 250'));
    await store.write(40, text('state at 40'));
    const latest = await store.latest();
    expect(latest?.seq).toBe(250);
    expect(asText(latest!.bytes)).toBe('state at 250');
    expect((await fs.readdir(dir)).sort()).toEqual([fileOf(10), fileOf(250), fileOf(40)].sort());
  });

  it('passes over a temp file a crash left behind mid-write', async () => {
    const dir = await tempDir();
    const { store, corrupt } = storeIn(dir);
    await store.write(5, text('five'));
    await fs.writeFile(path.join(dir, `${fileOf(9)}.tmp`), 'half a snaps');
    expect((await store.latest())?.seq).toBe(5);
    expect(corrupt).toEqual([]);
    // It may still be being written by another store on the directory (a worker's): kept until a newer one is final.
    await store.prune(3);
    expect((await fs.readdir(dir)).sort()).toEqual([fileOf(5), `${fileOf(9)}.tmp`].sort());
    await store.write(12, text('twelve'));
    await store.prune(3);
    expect((await fs.readdir(dir)).sort()).toEqual([fileOf(5), fileOf(12)].sort());
  });

  it('reports a corrupt newest snapshot and answers the one before it', async () => {
    const dir = await tempDir();
    const { store, corrupt } = storeIn(dir);
    await store.write(5, text('five'));
    await store.write(9, text('nine'));
    const newest = path.join(dir, fileOf(9));
    const bytes = await fs.readFile(newest);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    await fs.writeFile(newest, bytes);
    const latest = await store.latest();
    expect(latest?.seq).toBe(5);
    expect(corrupt).toEqual([{ file: fileOf(9), reason: 'checksum mismatch' }]);
  });

  it('passes over a truncated snapshot and one renamed to another sequence', async () => {
    const dir = await tempDir();
    const { store, corrupt } = storeIn(dir);
    await store.write(3, text('three'));
    await store.write(7, text('seven'));
    await fs.copyFile(path.join(dir, fileOf(7)), path.join(dir, fileOf(8)));
    const truncated = path.join(dir, fileOf(9));
    await fs.writeFile(truncated, (await fs.readFile(path.join(dir, fileOf(7)))).subarray(0, 20));
    expect((await store.latest())?.seq).toBe(7);
    expect(corrupt.map((found) => found.file)).toEqual([fileOf(9), fileOf(8)]);
    expect(corrupt[1]?.reason).toBe('holds sequence 7, its name says 8');
  });

  it('prunes to the newest good snapshots, removing corrupt ones', async () => {
    const dir = await tempDir();
    const { store } = storeIn(dir);
    for (const seq of [1, 2, 3, 4, 5]) await store.write(seq, text(`state ${seq}`));
    await fs.writeFile(path.join(dir, fileOf(6)), 'garbage');
    await store.prune(2);
    expect((await fs.readdir(dir)).sort()).toEqual([fileOf(4), fileOf(5)]);
    expect((await store.latest())?.seq).toBe(5);
    await expect(store.prune(0)).rejects.toThrow(RangeError);
  });

  it('overwrites a snapshot of the same sequence atomically', async () => {
    const dir = await tempDir();
    const { store } = storeIn(dir);
    await store.write(4, text('first'));
    await store.write(4, text('second'));
    expect(asText((await store.latest())!.bytes)).toBe('second');
  });
});
