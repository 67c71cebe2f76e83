import type { CatchUp, Listener, Published } from '../core/sequencer/index.ts';
import type { Db } from '../store/database.ts';
import { watermarkStore } from './store.ts';
import type { ProjectionWriter } from './writer.ts';

export interface ProjectorOptions<Event> {
  db: Db;
  writer: ProjectionWriter<Event>;
  /** Sequences with events written in one transaction, at most (default 4,096). */
  batchMax?: number;
  /** After a failed write, wait this long before trying the same batch again, in ms (default 1,000). */
  retryMs?: number;
  /** Told of each failed write (default: console.error). The projector retries; it never skips. */
  onError?: (error: unknown) => void;
}

/** What the projector follows: the sequencer (its events, and how far it has applied). */
export interface ProjectionSource<Event> {
  subscribe(listener: Listener<Event>): () => void;
  lastSequence(): number;
}

/** `waitFor` ran out of time: the projection had not passed that sequence. */
export class ProjectionTimeoutError extends Error {
  override readonly name = 'ProjectionTimeoutError';
  constructor(
    readonly seq: number,
    readonly watermark: number,
    timeoutMs: number,
  ) {
    super(`projection at ${watermark} did not pass ${seq} within ${timeoutMs} ms`);
  }
}

/** The projector was closed, or found its watermark moved backwards (the database was restored). */
export class ProjectorStoppedError extends Error {
  override readonly name = 'ProjectorStoppedError';
}

/** Another projector of the same name moved the watermark: this one reloads it and skips what is written. */
class WatermarkMovedError extends Error {}

interface Waiter {
  seq: number;
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * Writes a writer's rows behind the sequencer (docs/core.md, "The
 * projector"). It takes each durable batch's events as the sequencer
 * publishes them (`follow`), or as recovery derives them again (`catchUp`),
 * and writes them in sequence order, many sequences a transaction. Each
 * transaction first moves the writer's watermark row from where this
 * projector last left it to the batch's last sequence (compare-and-set), then
 * writes the rows: both commit, or neither. Whatever is at or below the
 * watermark is skipped, so nothing is written twice, across restarts too.
 *
 * Events wait in memory until written: a projector that cannot keep up
 * grows its queue (`queued()`) and its `lag()`; a failed write is retried
 * after `retryMs`, never skipped.
 */
export class Projector<Event> {
  readonly name: string;
  /** Events received and not written yet are `queue[head..]`. */
  private queue: Published<Event>[] = [];
  private head = 0;
  /** Every sequence up to this one was handed in. */
  private received: number;
  /** The watermark: every sequence up to this one is written and committed. */
  private written: number;
  private running = false;
  private closed = false;
  private failure: ProjectorStoppedError | null = null;
  private retry: { timer: NodeJS.Timeout; wake(): void } | null = null;
  private waiters: Waiter[] = [];
  /** Woken after each write or failure: catch-up waits on it while the queue is long. */
  private progress: (() => void)[] = [];
  /** While set (`holdAt`), nothing past this sequence is written. */
  private stopAt: number | null = null;
  private source: ProjectionSource<Event> | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly db: Db;
  private readonly writer: ProjectionWriter<Event>;
  private readonly batchMax: number;
  private readonly retryMs: number;
  private readonly onError: (error: unknown) => void;

  private constructor(options: ProjectorOptions<Event>, watermark: number) {
    this.name = options.writer.name;
    this.db = options.db;
    this.writer = options.writer;
    this.batchMax = options.batchMax ?? 4096;
    this.retryMs = options.retryMs ?? 1000;
    this.onError =
      options.onError ?? ((error) => console.error(`projector ${this.name}: write failed, retrying`, error));
    this.received = watermark;
    this.written = watermark;
  }

  /** A projector resuming from the writer's watermark in SQL (0 for a writer that never wrote). */
  static async open<Event>(options: ProjectorOptions<Event>): Promise<Projector<Event>> {
    return new Projector(options, await watermarkStore.open(options.db, options.writer.name));
  }

  /** The last sequence whose rows are committed. */
  watermark(): number {
    return this.written;
  }

  /** Sequences applied by the followed sequencer and not written yet (received ones before `follow`). */
  lag(): number {
    return (this.source?.lastSequence() ?? this.received) - this.written;
  }

  /** Sequences with events received and not written yet. */
  queued(): number {
    return this.queue.length - this.head;
  }

  /**
   * Recovery's hook (`recover` / `startFromDisk`): the events above the
   * watermark, derived again by replay. Each delivery is queued like a live
   * batch; it resolves once the queue is under two transactions' worth, so
   * replay never gets far ahead of the writes and start-up does not wait for
   * the last of them.
   */
  catchUp(): CatchUp<Event> {
    return {
      after: this.written,
      deliver: async (published, through) => {
        this.accept(published, through);
        while (this.queued() >= 2 * this.batchMax && !this.failure) await this.nextProgress();
        if (this.failure) throw this.failure;
      },
    };
  }

  /** Takes every batch the sequencer publishes from now on. Call it before the first command is submitted. */
  follow(source: ProjectionSource<Event>): void {
    if (this.source) throw new Error(`projector ${this.name} already follows a sequencer`);
    if (source.lastSequence() !== this.received)
      throw new Error(
        `projector ${this.name} has received up to ${this.received}, the sequencer is at ${source.lastSequence()}: catch up first`,
      );
    this.source = source;
    this.unsubscribe = source.subscribe((published, through) => this.accept(published, through));
  }

  /**
   * Queues the events of the sequences after the last ones received, up to
   * `through`. Sequences already received are skipped (a repeated delivery
   * changes nothing); an event past `through` is a bug upstream and throws.
   */
  accept(published: readonly Published<Event>[], through: number): void {
    if (this.closed) return;
    if (through <= this.received) return;
    for (const entry of published) {
      if (entry.seq <= this.received) continue;
      if (entry.seq > through)
        throw new Error(`projector ${this.name}: event at ${entry.seq} past ${through}`);
      this.queue.push(entry);
    }
    this.received = through;
    void this.run();
  }

  /**
   * Resolves once every sequence up to `seq` is written (read-your-writes:
   * a reply's sequence, then a read of SQL); rejects with
   * ProjectionTimeoutError after `timeoutMs`, or when the projector stops.
   */
  waitFor(seq: number, timeoutMs: number): Promise<void> {
    if (seq <= this.written) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        seq,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((other) => other !== waiter);
          reject(new ProjectionTimeoutError(seq, this.written, timeoutMs));
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /**
   * Runs `work` once every sequence up to `seq` is written and none after it:
   * the watermark stays at `seq` until `work` settles, while events keep
   * queueing. For a comparison with the state as it was at `seq` (the
   * audit): `seq` is the sequencer's last applied sequence, at or above
   * everything received. Rejects with ProjectionTimeoutError
   * when the projection does not reach `seq` within `timeoutMs`.
   */
  async holdAt<T>(seq: number, timeoutMs: number, work: () => Promise<T>): Promise<T> {
    if (this.stopAt !== null) throw new Error(`projector ${this.name} is held at ${this.stopAt} already`);
    // A batch already taken may reach as far as what was received: the hold must start there or later.
    if (seq < this.received)
      throw new Error(`projector ${this.name} has received up to ${this.received}, past ${seq}`);
    this.stopAt = seq;
    try {
      await this.waitFor(seq, timeoutMs);
      return await work();
    } finally {
      this.stopAt = null;
      void this.run();
    }
  }

  /**
   * Stops following and resolves once what was received is written, or at
   * once when writes are failing (what is left is derived again by the next
   * start's catch-up). Waiters still waiting are rejected.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    this.retry?.wake();
    while (this.running) await this.nextProgress();
    this.stop(new ProjectorStoppedError(`projector ${this.name} closed at ${this.written}`));
  }

  /** One write loop at a time: batches in order, each retried until it commits. */
  private async run(): Promise<void> {
    if (this.running || this.failure) return;
    this.running = true;
    try {
      while (this.written < this.limit() && !this.failure) {
        const { batch, through } = this.nextBatch();
        try {
          await this.write(batch, through);
          this.written = through;
          this.head += batch.length;
          this.compactQueue();
          this.settleWaiters();
        } catch (error) {
          if (error instanceof WatermarkMovedError) await this.reloadWatermark();
          else if (this.closed) break;
          else {
            this.onError(error);
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

  /** How far the loop may write: everything received, or up to where `holdAt` holds it. */
  private limit(): number {
    return this.stopAt === null ? this.received : Math.min(this.received, this.stopAt);
  }

  /** The queue's next `batchMax` sequences up to the limit, and the last sequence the batch covers. */
  private nextBatch(): { batch: Published<Event>[]; through: number } {
    const limit = this.limit();
    let end = this.head;
    while (end < this.queue.length && end - this.head < this.batchMax && this.queue[end]!.seq <= limit)
      end += 1;
    // Everything before the next queued event has no events of its own: the batch covers it too.
    const through = end < this.queue.length ? Math.min(this.queue[end]!.seq - 1, limit) : limit;
    return { batch: this.queue.slice(this.head, end), through };
  }

  private async write(batch: Published<Event>[], through: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await watermarkStore.advance(trx, this.name, this.written, through)))
        throw new WatermarkMovedError();
      if (batch.length > 0) await this.writer.write(trx, batch);
    });
  }

  /** Another writer of this name went on: skip what it wrote; a watermark that went back stops the projector. */
  private async reloadWatermark(): Promise<void> {
    const stored = await watermarkStore.read(this.db, this.name);
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
    this.settleWaiters();
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.retry = null;
        resolve();
      };
      const timer = setTimeout(wake, this.retryMs);
      this.retry = { timer, wake };
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

  private settleWaiters(): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.seq <= this.written) {
        clearTimeout(waiter.timer);
        waiter.resolve();
      } else still.push(waiter);
    }
    this.waiters = still;
  }

  private nextProgress(): Promise<void> {
    return new Promise((resolve) => this.progress.push(resolve));
  }

  private wakeProgress(): void {
    for (const wake of this.progress.splice(0)) wake();
  }

  private stop(failure: ProjectorStoppedError): void {
    this.failure ??= failure;
    this.closed = true;
    this.unsubscribe?.();
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(this.failure);
    }
    this.queue = [];
    this.head = 0;
    this.wakeProgress();
  }
}
