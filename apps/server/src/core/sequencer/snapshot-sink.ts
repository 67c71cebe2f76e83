import type { Worker } from 'node:worker_threads';
import type { SnapshotStore } from '../journal/index.ts';
import { startWorker, workerModule } from '../worker-entry.ts';

/**
 * Where the sequencer's snapshots go: the encoded state arrives in pieces, a
 * few per turn between batches, then `finish` writes it once every record up
 * to its sequence is durable. Joining a few hundred megabytes into one buffer
 * and checksumming it takes a thread for a second or more, so the sink
 * decides which thread holds the pieces and does that.
 */
export interface SnapshotSink {
  open(seq: number): SnapshotWriter;
}

export interface SnapshotWriter {
  add(piece: Uint8Array): void;
  finish(): Promise<void>;
  abandon(): void;
}

/** Keeps the pieces and writes on this thread: for small states and tests. */
export function inlineSnapshotSink(store: Pick<SnapshotStore, 'write'>): SnapshotSink {
  return {
    open(seq) {
      const pieces: Uint8Array[] = [];
      return {
        add: (piece) => pieces.push(piece),
        finish: () => store.write(seq, Buffer.concat(pieces)),
        abandon: () => pieces.splice(0),
      };
    },
  };
}

type ToWorker =
  | { id: number; piece: Uint8Array }
  | { id: number; finish: number }
  | { id: number; abandon: true };

/**
 * Moves each piece, as it is read, to a worker thread with a snapshot store
 * of its own on `dir`, which joins, checksums and writes them: the
 * sequencer's thread neither holds the snapshot nor copies it. The worker is
 * started on the first snapshot and kept; `close` ends it.
 */
export function workerSnapshotSink(dir: string): SnapshotSink & { close(): Promise<void> } {
  let worker: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve(): void; reject(error: Error): void }>();

  function started(): Worker {
    if (worker) return worker;
    const entry = workerModule(
      new URL('./snapshot-sink-worker.ts', import.meta.url).href,
      'snapshot-sink-worker',
    );
    worker = startWorker(entry, { workerData: { dir } });
    worker.on('message', ({ id, error }: { id: number; error?: string }) => {
      const done = waiting.get(id);
      waiting.delete(id);
      if (error === undefined) done?.resolve();
      else done?.reject(new Error(`snapshot write failed: ${error}`));
    });
    worker.on('error', (error) => {
      for (const done of waiting.values()) done.reject(error);
      waiting.clear();
      worker = null;
    });
    return worker;
  }

  return {
    open(seq) {
      const id = nextId++;
      const send = (message: ToWorker, moved: ArrayBuffer[] = []) => started().postMessage(message, moved);
      return {
        add(piece) {
          // Only a piece that owns its whole buffer can be moved; a pooled one is copied (they are small).
          const owns = piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength;
          send({ id, piece }, owns ? [piece.buffer as ArrayBuffer] : []);
        },
        finish() {
          return new Promise((resolve, reject) => {
            waiting.set(id, { resolve, reject });
            send({ id, finish: seq });
          });
        },
        abandon: () => send({ id, abandon: true }),
      };
    },
    async close() {
      await worker?.terminate();
      worker = null;
    },
  };
}
