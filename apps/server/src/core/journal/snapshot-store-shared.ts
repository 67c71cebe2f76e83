import { crc32 } from 'node:zlib';
import { readSeq, writeSeq } from './format.ts';
import type { CorruptSnapshot, Snapshot, SnapshotStoreOptions } from './snapshot-store.ts';

/**
 * What every snapshot store shares (docs/core.md, "Snapshots"): the stored
 * form of a snapshot and its check, its name, and the choice of the snapshot
 * latest() answers and of those prune() keeps. The file store keeps
 * snapshots as files of a directory; cluster mode's store keeps them as
 * objects of a JetStream bucket (journal-jetstream/object-snapshot-store.ts).
 *
 * A stored snapshot: magic "HLYDSNAP" (8 bytes) | format version u32 LE |
 * crc32 u32 LE of everything after it | seq u64 LE | length u64 LE | bytes.
 */
const MAGIC = Buffer.from('HLYDSNAP', 'latin1');
const VERSION = 1;
export const SNAPSHOT_HEADER_BYTES = 32;
const NAME = /^snapshot-(\d{20})\.snap$/;

export function snapshotName(seq: number): string {
  return `snapshot-${String(seq).padStart(20, '0')}.snap`;
}

/** The sequence a snapshot's name carries, or null for any other name. */
export function seqOfSnapshotName(name: string): number | null {
  const match = NAME.exec(name);
  return match ? Number(match[1]) : null;
}

export function checkSnapshotSeq(seq: number): void {
  if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`snapshot sequence ${seq}`);
}

/** The header that goes before `bytes`; its checksum covers the rest of the header and the bytes, which it does not copy. */
export function snapshotHeader(seq: number, bytes: Uint8Array): Buffer {
  const header = Buffer.alloc(SNAPSHOT_HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(VERSION, 8);
  writeSeq(header, 16, seq);
  writeSeq(header, 24, bytes.length);
  header.writeUInt32LE(crc32(bytes, crc32(header.subarray(16))), 12);
  return header;
}

/** Why a stored snapshot named for seq cannot be trusted, or null when its check holds. */
export function snapshotProblem(stored: Buffer, seq: number): string | null {
  if (stored.length < SNAPSHOT_HEADER_BYTES) return `only ${stored.length} bytes, shorter than a header`;
  if (!stored.subarray(0, 8).equals(MAGIC)) return 'not a snapshot file';
  if (stored.readUInt32LE(8) !== VERSION) return `format version ${stored.readUInt32LE(8)}`;
  if (readSeq(stored, 24) !== stored.length - SNAPSHOT_HEADER_BYTES)
    return 'length does not match the file size';
  if (crc32(stored.subarray(16)) !== stored.readUInt32LE(12)) return 'checksum mismatch';
  if (readSeq(stored, 16) !== seq) return `holds sequence ${readSeq(stored, 16)}, its name says ${seq}`;
  return null;
}

/** The snapshot a stored one holds, or why it cannot be trusted. */
export function snapshotOrProblem(name: string, seq: number, stored: Buffer): Snapshot | CorruptSnapshot {
  const reason = snapshotProblem(stored, seq);
  if (reason) return { file: name, reason };
  return { seq, bytes: stored.subarray(SNAPSHOT_HEADER_BYTES) };
}

export function corruptReporter(options: SnapshotStoreOptions): (corrupt: CorruptSnapshot) => void {
  return (
    options.onCorrupt ??
    ((corrupt) => console.warn(`snapshot ${corrupt.file} passed over: ${corrupt.reason}`))
  );
}

export interface ListedSnapshot {
  name: string;
  seq: number;
}

/** Loads a listed snapshot: null when it is gone meanwhile (another store pruned it). */
export type LoadSnapshot = (listed: ListedSnapshot) => Promise<Snapshot | CorruptSnapshot | null>;

/** latest(atMost): the newest snapshot at or below atMost whose check holds; newer ones that fail are reported. */
export async function newestGood(
  newestFirst: readonly ListedSnapshot[],
  atMost: number,
  load: LoadSnapshot,
  onCorrupt: (corrupt: CorruptSnapshot) => void,
): Promise<Snapshot | null> {
  for (const listed of newestFirst) {
    if (listed.seq > atMost) continue;
    const loaded = await load(listed);
    if (loaded === null) continue;
    if ('bytes' in loaded) return loaded;
    onCorrupt(loaded);
  }
  return null;
}

/**
 * prune(keep, keepAtOrBelow): keeps the newest `keep` good snapshots and the
 * newest good one at or below keepAtOrBelow; the rest, and the corrupt ones,
 * are doomed. Answers the sequences kept, newest first, and the doomed.
 */
export async function choosePruned(
  newestFirst: readonly ListedSnapshot[],
  keep: number,
  keepAtOrBelow: number,
  load: LoadSnapshot,
  onCorrupt: (corrupt: CorruptSnapshot) => void,
): Promise<{ kept: number[]; doomed: ListedSnapshot[] }> {
  if (!Number.isSafeInteger(keep) || keep < 1)
    throw new RangeError(`prune must keep at least 1, not ${keep}`);
  const doomed: ListedSnapshot[] = [];
  const kept: number[] = [];
  let keptAtOrBelow = false;
  for (const listed of newestFirst) {
    if (kept.length >= keep && (keptAtOrBelow || listed.seq > keepAtOrBelow)) {
      doomed.push(listed);
      continue;
    }
    const loaded = await load(listed);
    if (loaded === null) continue;
    if ('bytes' in loaded) {
      kept.push(listed.seq);
      if (listed.seq <= keepAtOrBelow) keptAtOrBelow = true;
    } else {
      onCorrupt(loaded);
      doomed.push(listed);
    }
  }
  return { kept, doomed };
}
