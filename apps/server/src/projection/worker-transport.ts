import type { Worker } from 'node:worker_threads';
import type { Published } from '../core/sequencer/index.ts';
import { startWorker, workerModule } from '../core/worker-entry.ts';
import { Projector, type ProjectorTuning } from './projector.ts';
import {
  DEFAULT_BATCH_MAX,
  DEFAULT_COALESCE_MS,
  DEFAULT_RETRY_MS,
  type ProjectionTransport,
  ProjectorStoppedError,
  type RunnerReports,
} from './runner.ts';
import { type ProjectionWriterSpec, wireOf } from './writer.ts';

/** The database a worker opens a connection of its own to: a SQLite file (WAL), or PostgreSQL. */
export type WorkerStore = { sqliteFile: string } | { postgresUrl: string; schema?: string };

export interface WorkerProjectorOptions<Event, Wire = unknown> extends ProjectorTuning {
  writer: ProjectionWriterSpec<Event, Wire>;
  store: WorkerStore;
}

/** What projection/worker.ts is started with. */
export interface WorkerSetup {
  module: string;
  exportName: string;
  store: WorkerStore;
  batchMax: number;
  retryMs: number;
  coalesceMs: number;
}

export type ToWorker =
  | { type: 'accept'; published: Published<unknown>[]; through: number }
  | { type: 'hold'; seq: number | null }
  | { type: 'hurry'; seq: number }
  | { type: 'close' };

/** An error as it crosses the port: its name and message (a class does not survive the copy). */
export interface ErrorText {
  name: string;
  message: string;
}

export type FromWorker =
  | { type: 'ready'; watermark: number }
  | { type: 'written'; seq: number }
  | { type: 'failed'; error: ErrorText }
  | { type: 'stopped'; message: string }
  | { type: 'fatal'; error: ErrorText }
  | { type: 'closed' };

export function errorText(error: unknown): ErrorText {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

function errorOf(text: ErrorText): Error {
  const error = new Error(text.message);
  error.name = text.name;
  return error;
}

/**
 * A projector whose runner works in a worker thread (projection/worker.ts)
 * with a database connection of its own: the SQL, and the clone of the
 * events on the worker's side, leave the sequencer's thread. This thread
 * keeps the Projector (watermark, lag, waitFor, holdAt, the bound); it
 * posts each published batch's events that the writer reads, and the worker
 * reports each watermark it commits. Resolves once the worker has opened its
 * connection and read the writer's watermark.
 */
export async function openWorkerProjector<Event, Wire>(
  options: WorkerProjectorOptions<Event, Wire>,
): Promise<Projector<Event>> {
  const setup: WorkerSetup = {
    module: options.writer.module,
    exportName: options.writer.exportName,
    store: options.store,
    batchMax: options.batchMax ?? DEFAULT_BATCH_MAX,
    retryMs: options.retryMs ?? DEFAULT_RETRY_MS,
    coalesceMs: options.coalesceMs ?? DEFAULT_COALESCE_MS,
  };
  const worker = startProjectionWorker(setup);
  const name = options.writer.name;
  let reports: RunnerReports | null = null;
  let closing: (() => void) | null = null;
  let exited = false;
  const watermark = await new Promise<number>((resolve, reject) => {
    const failed = (error: Error) => {
      exited = true;
      if (reports)
        reports.stopped(new ProjectorStoppedError(`projector ${name}: its worker failed: ${error.message}`));
      else {
        reject(error);
        void worker.terminate();
      }
      closing?.();
    };
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'ready':
          return resolve(message.watermark);
        case 'fatal':
          return failed(errorOf(message.error));
        case 'written':
          return reports?.written(message.seq);
        case 'failed':
          return reports?.failed(errorOf(message.error));
        case 'stopped':
          return reports?.stopped(new ProjectorStoppedError(message.message));
        case 'closed':
          return closing?.();
      }
    });
    worker.on('error', failed);
    worker.on('exit', (code) => {
      if (!exited) failed(new Error(`exited with code ${code}`));
    });
  });

  const post = (message: ToWorker) => {
    if (!exited) worker.postMessage(message);
  };
  // The batches published in one turn of the event loop go in one message, in the next check phase: the
  // copy and the post are then off the path of the replies those batches answer, and paid once a turn.
  let accepted: { published: Published<unknown>[]; through: number } | null = null;
  const postAccepted = () => {
    if (accepted === null) return;
    post({ type: 'accept', ...accepted });
    accepted = null;
  };
  const transport: ProjectionTransport<Event> = {
    accept(published, through) {
      if (accepted === null) {
        accepted = { published: [], through };
        setImmediate(postAccepted);
      }
      for (const entry of eventsRead(options.writer, published)) accepted.published.push(entry);
      accepted.through = through;
    },
    hold(seq) {
      postAccepted();
      post({ type: 'hold', seq });
    },
    hurry(seq) {
      postAccepted();
      post({ type: 'hurry', seq });
    },
    async close() {
      postAccepted();
      if (!exited) {
        const closed = new Promise<void>((resolve) => {
          closing = resolve;
        });
        post({ type: 'close' });
        await closed;
      }
      exited = true;
      await worker.terminate();
    },
  };
  return new Projector<Event>(name, watermark, options, (runnerReports) => {
    reports = runnerReports;
    return transport;
  });
}

/**
 * The entries with the events the writer reads, each as it crosses (`wireOf`), and only those: the rest need
 * not be copied to the worker.
 */
function eventsRead<Event, Wire>(
  spec: ProjectionWriterSpec<Event, Wire>,
  published: readonly Published<Event>[],
): Published<unknown>[] {
  const kept: Published<unknown>[] = [];
  for (const entry of published) {
    const events: unknown[] = [];
    for (const event of entry.events) if (spec.reads(event)) events.push(wireOf(spec, event));
    if (events.length > 0) kept.push({ seq: entry.seq, events });
  }
  return kept;
}

function startProjectionWorker(setup: WorkerSetup): Worker {
  const entry = workerModule(new URL('./worker.ts', import.meta.url).href, 'projection-worker');
  return startWorker(entry, { workerData: setup });
}
