import { parentPort, workerData } from 'node:worker_threads';
import { openSnapshotStore } from '../journal/index.ts';

/** The thread of workerSnapshotSink: joins the pieces of each snapshot and writes it atomically. */
const store = openSnapshotStore((workerData as { dir: string }).dir);
parentPort!.on('message', async ({ id, seq, chunks }: { id: number; seq: number; chunks: Uint8Array[] }) => {
  try {
    await store.write(seq, Buffer.concat(chunks));
    parentPort!.postMessage({ id });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
