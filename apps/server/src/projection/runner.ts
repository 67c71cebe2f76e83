import type { Published } from '../core/sequencer/index.ts';
import type { Db } from '../store/database.ts';
import { watermarkStore } from './store.ts';
import type { ProjectionWriter } from './writer.ts';

/** The projector was closed, or found its watermark moved backwards (the database was restored). */
export class ProjectorStoppedError extends Error {
  override readonly name = 'ProjectorStoppedError';
}

/** Another projector of the same name moved the watermark: this one reloads it and skips what is written. */
class WatermarkMovedError extends Error {}

/** Sequences with events written in one transaction, at most, unless told otherwise. */
export const DEFAULT_BATCH_MAX = 4096;
/** How long a runner waits before trying a failed batch again, in ms, unless told otherwise. */
export const DEFAULT_RETRY_MS = 1000;
/**
 * A transaction begins at most once in this many ms, unless told otherwise
 * (a full batch, a waiter, or closing go at once): see `coalesceMs`.
 */
export const DEFAULT_COALESCE_MS = 100;

export interface RunnerOptions<Event> {
  db: Db;
  writer: ProjectionWriter<Event>;
  /** Sequences with events written in one transaction, at most. */
  batchMax: number;
  /** After a failed write, wait this long before trying the same batch again, in ms. */
  retryMs: number;
  /**
   * A transaction begins at most once in this many ms, so that events that
   * arrive close together share one: each commit rewrites every page it
   * touched (the ledger's, the orders', their indexes'), and a transaction a
   * turn of the event loop rewrote the same pages for a few sequences each.
   * The pause is skipped when a full batch waits, when someone waits for a
   * sequence received (`hurry`: read-your-writes, the audit's hold), and
   * when closing; 0 never pauses.
   */
  coalesceMs: number;
}

/** What a runner tells the projector it works for (on the same thread, or across a worker's port). */
export interface RunnerReports {
  /** Every sequence up to `seq` is committed. */
  written(seq: number): void;
  /** A write failed and was rolled back; the same batch is tried again after `retryMs`. */
  failed(error: unknown): void;
  /** The runner stopped for good: nothing more will be written. */
  stopped(error: ProjectorStoppedError): void;
}

/**
 * What a projector hands its runner: the same three calls whether the runner
 * is on the projector's thread (`ProjectionRunner` itself) or in a worker
 * thread (projection/worker-transport.ts posts them).
 */
export interface ProjectionTransport<Event> {
  /** The events of the sequences after the last ones handed over, up to `through`. */
  accept(published: readonly Published<Event>[], through: number): void;
  /** Writes nothing past `seq` until called again with null. */
  hold(seq: number | null): void;
  /** Someone waits for `seq`: write what is received up to it without the coalescing pause. */
  hurry(seq: number): void;
  /** Resolves once what was handed over is written, or at once when writes are failing. */
  close(): Promise<void>;
}

/**
 * The projector's write loop (docs/core.md, "The projector"): events queue
 * in memory, and one loop at a time writes them in sequence order, up to
 * `batchMax` sequences with events a transaction. Each transaction first
 * moves the writer's watermark row from where this runner last left it to
 * the batch's last sequence (compare-and-set), then writes the rows: both
 * commit, or neither. Whatever is at or below the watermark is skipped, so
 * nothing is written twice, across restarts too. A failed write is retried
 * after `retryMs`, never skipped.
 *
 * It runs wherever its database connection is: on the sequencer's thread
 * (`Projector.open`) or in a worker thread of its own (projection/worker.ts).
 */
export class ProjectionRunner<Event> implements ProjectionTransport<Event> {
  /** Events received and not written yet are `queue[head..]`. */
  private queue: Published<Event>[] = [];
  private head = 0;
  /** Every sequence up to this one was handed in. */
  private received: number;
  /** Every sequence up to this one is written and committed. */
  private written: number;
  private running = false;
  private closed = false;
  private failure: ProjectorStoppedError | null = null;
  private retry: { wake(): void } | null = null;
  /** The pause before a transaction (`coalesceMs`), while it lasts. */
  private coalescing: { wake(): void } | null = null;
  /** When the last transaction began (performance.now()). */
  private lastBegan = Number.NEGATIVE_INFINITY;
  /** Someone waits for the sequences up to this one (`hurry`). */
  private hurriedTo = 0;
  /** Woken after each write or failure: `close` waits on it. */
  private progress: (() => void)[] = [];
  /** While set (`hold`), nothing past this sequence is written. */
  private stopAt: number | null = null;
  private readonly name: string;

  constructor(
    private readonly options: RunnerOptions<Event>,
    watermark: number,
    private readonly reports: RunnerReports,
  ) {
    this.name = options.writer.name;
    this.received = watermark;
    this.written = watermark;
  }

  /**
   * Queues the events of the sequences after the last ones received, up to
   * `through`. Sequences already received are skipped (a repeated delivery
   * changes nothing); an event past `through` is a bug upstream and throws.
   */
  accept(published: readonly Published<Event>[], through: number): void {
    if (this.closed || through <= this.received) return;
    for (const entry of published) {
      if (entry.seq <= this.received) continue;
      if (entry.seq > through)
        throw new Error(`projector ${this.name}: event at ${entry.seq} past ${through}`);
      this.queue.push(entry);
    }
    this.received = through;
    if (this.mustHurry()) this.coalescing?.wake();
    void this.run();
  }

  hold(seq: number | null): void {
    this.stopAt = seq;
    if (seq === null) void this.run();
  }

  hurry(seq: number): void {
    if (seq <= this.hurriedTo) return;
    this.hurriedTo = seq;
    if (this.mustHurry()) this.coalescing?.wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.retry?.wake();
    this.coalescing?.wake();
    while (this.running) await new Promise<void>((resolve) => this.progress.push(resolve));
    this.stop(new ProjectorStoppedError(`projector ${this.name} closed at ${this.written}`));
  }

  /** One write loop at a time: batches in order, each retried until it commits. */
  private async run(): Promise<void> {
    if (this.running || this.failure) return;
    this.running = true;
    try {
      while (this.written < this.limit() && !this.failure) {
        await this.beforeTransaction();
        if (this.failure) break;
        const { batch, through } = this.nextBatch();
        this.lastBegan = performance.now();
        try {
          await this.write(batch, through);
          this.written = through;
          this.head += batch.length;
          this.compactQueue();
          this.reports.written(through);
        } catch (error) {
          if (error instanceof WatermarkMovedError) await this.reloadWatermark();
          else if (this.closed) break;
          else {
            this.reports.failed(error);
            await this.pause();
          }
        }
        this.wakeProgress();
      }
    } finally {
      this.running = false;
      this.wakeProgress();
    }
  }

  /**
   * Lets what arrived during the last transaction queue first (a worker's
   * messages, the sequencer's batches): better-sqlite3 runs a whole
   * transaction without yielding, and each message alone would otherwise
   * become a transaction of its own, with its own commit. Then, unless the
   * runner must hurry, waits until `coalesceMs` after the last transaction
   * began.
   */
  private async beforeTransaction(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    const wait = this.lastBegan + this.options.coalesceMs - performance.now();
    if (wait <= 0 || this.mustHurry()) return;
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.coalescing = null;
        resolve();
      };
      const timer = setTimeout(wake, wait);
      this.coalescing = { wake };
    });
  }

  /** Closing, someone waits for a sequence received and not written, or a full batch waits. */
  private mustHurry(): boolean {
    return (
      this.closed ||
      Math.min(this.hurriedTo, this.limit()) > this.written ||
      this.queue.length - this.head >= this.options.batchMax
    );
  }

  /** How far the loop may write: everything received, or up to where `hold` holds it. */
  private limit(): number {
    return this.stopAt === null ? this.received : Math.min(this.received, this.stopAt);
  }

  /** The queue's next `batchMax` sequences up to the limit, and the last sequence the batch covers. */
  private nextBatch(): { batch: Published<Event>[]; through: number } {
    const limit = this.limit();
    let end = this.head;
    while (
      end < this.queue.length &&
      end - this.head < this.options.batchMax &&
      this.queue[end]!.seq <= limit
    )
      end += 1;
    // Everything before the next queued event has no events of its own: the batch covers it too.
    const through = end < this.queue.length ? Math.min(this.queue[end]!.seq - 1, limit) : limit;
    return { batch: this.queue.slice(this.head, end), through };
  }

  private async write(batch: Published<Event>[], through: number): Promise<void> {
    await this.options.db.transaction().execute(async (trx) => {
      if (!(await watermarkStore.advance(trx, this.name, this.written, through)))
        throw new WatermarkMovedError();
      if (batch.length > 0) await this.options.writer.write(trx, batch);
    });
  }

  /** Another writer of this name went on: skip what it wrote; a watermark that went back stops the runner. */
  private async reloadWatermark(): Promise<void> {
    const stored = await watermarkStore.read(this.options.db, this.name);
    if (stored < this.written) {
      this.stop(
        new ProjectorStoppedError(
          `projector ${this.name}: the watermark went back from ${this.written} to ${stored} (was the database restored?)`,
        ),
      );
      return;
    }
    this.written = stored;
    this.received = Math.max(this.received, stored);
    while (this.head < this.queue.length && this.queue[this.head]!.seq <= stored) this.head += 1;
    this.compactQueue();
    this.reports.written(stored);
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.retry = null;
        resolve();
      };
      const timer = setTimeout(wake, this.options.retryMs);
      this.retry = { wake };
    });
  }

  private compactQueue(): void {
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  private wakeProgress(): void {
    for (const wake of this.progress.splice(0)) wake();
  }

  private stop(failure: ProjectorStoppedError): void {
    if (this.failure) return;
    this.failure = failure;
    this.closed = true;
    this.queue = [];
    this.head = 0;
    this.wakeProgress();
    this.reports.stopped(failure);
  }
}
