import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { readSeq, writeSeq } from './format.ts';
import { syncDirectory, writeFully } from './fs-durable.ts';

export interface Snapshot {
  seq: number;
  bytes: Uint8Array;
}

/** A snapshot file that failed its check; latest() and prune() pass over it. */
export interface CorruptSnapshot {
  file: string;
  reason: string;
}

export interface SnapshotStore {
  /** Writes atomically: temp file, fsync, rename, fsync of the directory. Never leaves a half snapshot under a final name. */
  write(seq: number, bytes: Uint8Array): Promise<void>;
  /**
   * The newest snapshot whose check holds, or null. A newer one that fails is
   * reported to onCorrupt and passed over: replay then starts further back,
   * and the journal's read refuses if it no longer holds those records.
   * With `atMost`, the newest at or below that sequence (a projector's
   * catch-up replays from one it has passed: see docs/core.md).
   */
  latest(atMost?: number): Promise<Snapshot | null>;
  /**
   * Keeps the newest `keep` good snapshots, and with `keepAtOrBelow` also the
   * newest good one at or below that sequence (the projector's watermark);
   * removes older ones, the corrupt ones and leftover temp files. Answers the
   * sequences kept, newest first.
   */
  prune(keep: number, keepAtOrBelow?: number): Promise<number[]>;
}

export interface SnapshotStoreOptions {
  /** Told about each corrupt snapshot latest() or prune() passes over (default: console.warn). */
  onCorrupt?: (corrupt: CorruptSnapshot) => void;
}

/**
 * A snapshot file: magic "HLYDSNAP" (8 bytes) | format version u32 LE |
 * crc32 u32 LE of everything after it | seq u64 LE | length u64 LE | bytes.
 */
const MAGIC = Buffer.from('HLYDSNAP', 'latin1');
const VERSION = 1;
const HEADER_BYTES = 32;
const FINAL_NAME = /^snapshot-(\d{20})\.snap$/;
const TEMP_SUFFIX = '.tmp';

function snapshotFileName(seq: number): string {
  return `snapshot-${String(seq).padStart(20, '0')}.snap`;
}

export function openSnapshotStore(dir: string, options: SnapshotStoreOptions = {}): SnapshotStore {
  const onCorrupt =
    options.onCorrupt ??
    ((corrupt) => console.warn(`snapshot ${corrupt.file} passed over: ${corrupt.reason}`));
  const writing = new Set<string>();

  async function finalNamesNewestFirst(): Promise<{ name: string; seq: number }[]> {
    const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const found: { name: string; seq: number }[] = [];
    for (const name of names) {
      const match = FINAL_NAME.exec(name);
      if (match) found.push({ name, seq: Number(match[1]) });
    }
    return found.sort((a, b) => b.seq - a.seq);
  }

  /** The snapshot in a file, or why it cannot be trusted. */
  async function load(name: string, seq: number): Promise<Snapshot | CorruptSnapshot> {
    const file = await fs.readFile(path.join(dir, name));
    const reason = problemOf(file, seq);
    if (reason) return { file: name, reason };
    return { seq, bytes: file.subarray(HEADER_BYTES) };
  }

  return {
    async write(seq, bytes) {
      if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`snapshot sequence ${seq}`);
      await fs.mkdir(dir, { recursive: true });
      const name = snapshotFileName(seq);
      const temp = path.join(dir, name + TEMP_SUFFIX);
      writing.add(name + TEMP_SUFFIX);
      try {
        const handle = await fs.open(temp, 'w');
        try {
          await writeFully(handle, encodeSnapshot(seq, bytes), 0);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.rename(temp, path.join(dir, name));
        await syncDirectory(dir);
      } finally {
        writing.delete(name + TEMP_SUFFIX);
      }
    },

    async latest(atMost = Number.POSITIVE_INFINITY) {
      for (const { name, seq } of await finalNamesNewestFirst()) {
        if (seq > atMost) continue;
        const loaded = await load(name, seq);
        if ('bytes' in loaded) return loaded;
        onCorrupt(loaded);
      }
      return null;
    },

    async prune(keep, keepAtOrBelow = Number.POSITIVE_INFINITY) {
      if (!Number.isSafeInteger(keep) || keep < 1)
        throw new RangeError(`prune must keep at least 1, not ${keep}`);
      const doomed: string[] = [];
      const kept: number[] = [];
      let keptAtOrBelow = false;
      const finals = await finalNamesNewestFirst();
      for (const { name, seq } of finals) {
        if (kept.length >= keep && (keptAtOrBelow || seq > keepAtOrBelow)) {
          doomed.push(name);
          continue;
        }
        const loaded = await load(name, seq);
        if ('bytes' in loaded) {
          kept.push(seq);
          if (seq <= keepAtOrBelow) keptAtOrBelow = true;
        } else {
          onCorrupt(loaded);
          doomed.push(name);
        }
      }
      // A temp file is dead once a newer snapshot is final (snapshots are written in order). One above the
      // newest may still be being written by another store on this directory (the worker's snapshot sink).
      const newest = finals[0]?.seq ?? -1;
      const leftovers = (await fs.readdir(dir).catch(() => [])).filter((name) => {
        const match = name.endsWith(TEMP_SUFFIX) ? FINAL_NAME.exec(name.slice(0, -TEMP_SUFFIX.length)) : null;
        return match !== null && Number(match[1]) < newest && !writing.has(name);
      });
      for (const name of [...doomed, ...leftovers]) await fs.rm(path.join(dir, name), { force: true });
      if (doomed.length + leftovers.length > 0) await syncDirectory(dir);
      return kept;
    },
  };
}

function encodeSnapshot(seq: number, bytes: Uint8Array): Buffer {
  const file = Buffer.allocUnsafe(HEADER_BYTES + bytes.length);
  MAGIC.copy(file, 0);
  file.writeUInt32LE(VERSION, 8);
  writeSeq(file, 16, seq);
  writeSeq(file, 24, bytes.length);
  file.set(bytes, HEADER_BYTES);
  file.writeUInt32LE(crc32(file.subarray(16)), 12);
  return file;
}

/** Why a snapshot file named for seq cannot be trusted, or null when its check holds. */
function problemOf(file: Buffer, seq: number): string | null {
  if (file.length < HEADER_BYTES) return `only ${file.length} bytes, shorter than a header`;
  if (!file.subarray(0, 8).equals(MAGIC)) return 'not a snapshot file';
  if (file.readUInt32LE(8) !== VERSION) return `format version ${file.readUInt32LE(8)}`;
  if (readSeq(file, 24) !== file.length - HEADER_BYTES) return 'length does not match the file size';
  if (crc32(file.subarray(16)) !== file.readUInt32LE(12)) return 'checksum mismatch';
  if (readSeq(file, 16) !== seq) return `holds sequence ${readSeq(file, 16)}, its name says ${seq}`;
  return null;
}
