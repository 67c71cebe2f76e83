import fs from 'node:fs/promises';
import path from 'node:path';
import { syncDirectory, writeFully } from './fs-durable.ts';
import {
  checkSnapshotSeq,
  choosePruned,
  corruptReporter,
  type ListedSnapshot,
  type LoadSnapshot,
  newestGood,
  seqOfSnapshotName,
  snapshotHeader,
  snapshotName,
  snapshotOrProblem,
} from './snapshot-store-shared.ts';

export interface Snapshot {
  seq: number;
  bytes: Uint8Array;
}

/** A stored snapshot that failed its check; latest() and prune() pass over it. */
export interface CorruptSnapshot {
  /** Its file's name, or its object's in a JetStream bucket. */
  file: string;
  reason: string;
}

export interface SnapshotStore {
  /**
   * Writes atomically: never leaves a half snapshot under a final name. The
   * file store writes a temp file, fsyncs, renames and fsyncs the directory.
   */
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

const TEMP_SUFFIX = '.tmp';

/** The snapshot store of a directory: one file per snapshot, in the form of snapshot-store-shared.ts. */
export function openSnapshotStore(dir: string, options: SnapshotStoreOptions = {}): SnapshotStore {
  const onCorrupt = corruptReporter(options);
  const writing = new Set<string>();

  async function finalNamesNewestFirst(): Promise<ListedSnapshot[]> {
    const names = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const found: ListedSnapshot[] = [];
    for (const name of names) {
      const seq = seqOfSnapshotName(name);
      if (seq !== null) found.push({ name, seq });
    }
    return found.sort((a, b) => b.seq - a.seq);
  }

  const load: LoadSnapshot = async ({ name, seq }) =>
    snapshotOrProblem(name, seq, await fs.readFile(path.join(dir, name)));

  return {
    async write(seq, bytes) {
      checkSnapshotSeq(seq);
      await fs.mkdir(dir, { recursive: true });
      const name = snapshotName(seq);
      const temp = path.join(dir, name + TEMP_SUFFIX);
      writing.add(name + TEMP_SUFFIX);
      try {
        const handle = await fs.open(temp, 'w');
        try {
          await writeFully(handle, Buffer.concat([snapshotHeader(seq, bytes), bytes]), 0);
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
      return newestGood(await finalNamesNewestFirst(), atMost, load, onCorrupt);
    },

    async prune(keep, keepAtOrBelow = Number.POSITIVE_INFINITY) {
      const finals = await finalNamesNewestFirst();
      const { kept, doomed } = await choosePruned(finals, keep, keepAtOrBelow, load, onCorrupt);
      // A temp file is dead once a newer snapshot is final (snapshots are written in order). One above the
      // newest may still be being written by another store on this directory (the worker's snapshot sink).
      const newest = finals[0]?.seq ?? -1;
      const leftovers = (await fs.readdir(dir).catch(() => [])).filter((name) => {
        const seq = name.endsWith(TEMP_SUFFIX) ? seqOfSnapshotName(name.slice(0, -TEMP_SUFFIX.length)) : null;
        return seq !== null && seq < newest && !writing.has(name);
      });
      const removed = [...doomed.map((listed) => listed.name), ...leftovers];
      for (const name of removed) await fs.rm(path.join(dir, name), { force: true });
      if (removed.length > 0) await syncDirectory(dir);
      return kept;
    },
  };
}
