import { parentPort, workerData } from 'node:worker_threads';
import { openPostgres, openStore, type Store } from '../store/connect.ts';
import { ProjectionRunner } from './runner.ts';
import { watermarkStore } from './store.ts';
import {
  errorText,
  type FromWorker,
  type ToWorker,
  type WorkerSetup,
  type WorkerStore,
} from './worker-transport.ts';
import type { ProjectionWriterSpec } from './writer.ts';

/**
 * The thread of openWorkerProjector (projection/worker-transport.ts): opens a
 * connection of its own, builds the writer from its spec, and runs the
 * projector's runner on the events the sequencer's thread posts, reporting
 * each watermark it commits.
 */
const setup = workerData as WorkerSetup;
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

function openOwnStore(where: WorkerStore): Promise<Store> | Store {
  // The sequencer's thread migrated the database already.
  if ('postgresUrl' in where) return openPostgres(where.postgresUrl, where.schema);
  return openStore({ databaseUrl: null, sqliteFile: where.sqliteFile });
}

async function main(): Promise<void> {
  const imported = (await import(setup.module)) as Record<string, ProjectionWriterSpec<unknown>>;
  const spec = imported[setup.exportName];
  if (!spec) throw new Error(`${setup.module} exports no ${setup.exportName}`);
  const store = await openOwnStore(setup.store);
  const writer = spec.create(store.dialect);
  const watermark = await watermarkStore.open(store.db, writer.name);
  const runner = new ProjectionRunner(
    { db: store.db, writer, batchMax: setup.batchMax, retryMs: setup.retryMs, coalesceMs: setup.coalesceMs },
    watermark,
    {
      written: (seq) => post({ type: 'written', seq }),
      failed: (error) => post({ type: 'failed', error: errorText(error) }),
      stopped: (error) => post({ type: 'stopped', message: error.message }),
    },
  );
  port.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'accept':
        for (const entry of message.published) entry.events = entry.events.map((event) => spec.revive(event));
        return runner.accept(message.published, message.through);
      case 'hold':
        return runner.hold(message.seq);
      case 'hurry':
        return runner.hurry(message.seq);
      case 'close':
        return void runner
          .close()
          .then(() => store.close())
          .finally(() => post({ type: 'closed' }));
    }
  });
  post({ type: 'ready', watermark });
}

main().catch((error: unknown) => post({ type: 'fatal', error: errorText(error) }));
