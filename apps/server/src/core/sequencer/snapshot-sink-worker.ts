import { parentPort, workerData } from 'node:worker_threads';
import { openSnapshotStore } from '../journal/index.ts';

/** The thread of workerSnapshotSink: gathers each snapshot's pieces, then joins them and writes it atomically. */
const store = openSnapshotStore((workerData as { dir: string }).dir);
const pieces = new Map<number, Uint8Array[]>();

type Message = { id: number; piece?: Uint8Array; finish?: number; abandon?: true };

parentPort!.on('message', async ({ id, piece, finish, abandon }: Message) => {
  if (piece !== undefined) {
    if (!pieces.has(id)) pieces.set(id, []);
    pieces.get(id)!.push(piece);
    return;
  }
  const gathered = pieces.get(id) ?? [];
  pieces.delete(id);
  if (abandon || finish === undefined) return;
  try {
    await store.write(finish, Buffer.concat(gathered));
    parentPort!.postMessage({ id });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
