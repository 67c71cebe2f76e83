import { Worker } from 'node:worker_threads';
import type { SnapshotStore } from '../journal/index.ts';

/**
 * Where the sequencer's snapshots go: the encoded state arrives in the pieces
 * it was read in, between batches. Joining a few hundred megabytes into one
 * buffer and checksumming it takes the thread for a second or more, so the
 * sink decides on which thread that happens.
 */
export interface SnapshotSink {
  write(seq: number, chunks: readonly Uint8Array[]): Promise<void>;
}

/** Joins and writes on this thread: for small states and tests. */
export function inlineSnapshotSink(store: Pick<SnapshotStore, 'write'>): SnapshotSink {
  return { write: (seq, chunks) => store.write(seq, Buffer.concat(chunks)) };
}

interface WriteDone {
  id: number;
  error?: string;
}

/**
 * Joins, checksums and writes in a worker thread, through a snapshot store of
 * its own on `dir`: the pieces are moved to it, not copied, so the
 * sequencer's thread spends nothing on them. The worker is started on the
 * first write and kept; `close` ends it.
 */
export function workerSnapshotSink(dir: string): SnapshotSink & { close(): Promise<void> } {
  let worker: Worker | null = null;
  let nextId = 0;
  const waiting = new Map<number, { resolve(): void; reject(error: Error): void }>();

  function started(): Worker {
    if (worker) return worker;
    const entry = new URL('./snapshot-sink-worker.ts', import.meta.url).href;
    // Node 20 loads a worker's entry before any --import hook: the worker registers tsx itself, then loads it.
    const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
    worker = new Worker(boot, { eval: true, workerData: { dir } });
    worker.on('message', ({ id, error }: WriteDone) => {
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
    write(seq, chunks) {
      const id = nextId++;
      // Only a piece that owns its whole buffer can be moved; a pooled one is copied (they are small).
      const moved = chunks.filter(
        (chunk) => chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength,
      );
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        started().postMessage(
          { id, seq, chunks },
          moved.map((chunk) => chunk.buffer as ArrayBuffer),
        );
      });
    },
    async close() {
      await worker?.terminate();
      worker = null;
    },
  };
}
