import type { CatchUp, Listener, Published } from '../core/sequencer/index.ts';
import type { Db } from '../store/database.ts';
import {
  DEFAULT_BATCH_MAX,
  DEFAULT_COALESCE_MS,
  DEFAULT_RETRY_MS,
  ProjectionRunner,
  type ProjectionTransport,
  ProjectorStoppedError,
  type RunnerReports,
} from './runner.ts';
import { watermarkStore } from './store.ts';
import type { ProjectionWriter } from './writer.ts';

export { ProjectorStoppedError } from './runner.ts';

/** How a projector batches, retries and bounds its queue, on either transport. */
export interface ProjectorTuning {
  /** Sequences with events written in one transaction, at most (default 4,096). */
  batchMax?: number;
  /** After a failed write, wait this long before trying the same batch again, in ms (default 1,000). */
  retryMs?: number;
  /**
   * A transaction begins at most once in this many ms, unless a full batch
   * or a waiter is there (default 100; 0 never pauses): see the runner's
   * `coalesceMs`.
   */
  coalesceMs?: number;
  /**
   * Sequences received and not yet written past which the followed
   * sequencer's intake waits (`pauseIntake`), until half of them are
   * written (default 4,096). The lag it allows is this over the projection's
   * rate: under a second down to 4,096 sequences a second. See docs/core.md,
   * "The projector".
   */
  queueMax?: number;
  /** Told of each failed write (default: console.error). The projector retries; it never skips. */
  onError?: (error: unknown) => void;
}

export interface ProjectorOptions<Event> extends ProjectorTuning {
  db: Db;
  writer: ProjectionWriter<Event>;
}

/**
 * What the projector follows: the sequencer (its events, how far it has
 * applied, and its intake, which it asks to wait when its queue is full).
 */
export interface ProjectionSource<Event> {
  subscribe(listener: Listener<Event>): () => void;
  lastSequence(): number;
  pauseIntake?(holder: object): void;
  resumeIntake?(holder: object): void;
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
 * and hands them to its runner (projection/runner.ts), which writes them in
 * sequence order, many sequences a transaction, each with the writer's
 * watermark. The runner runs on this thread (`Projector.open`, with the
 * caller's connection) or in a worker thread with a connection of its own
 * (`openWorkerProjector`, projection/worker-transport.ts): this class is the
 * same for both, and keeps the watermark the runner reports, the waiters,
 * the hold and the bound on what is queued.
 *
 * Events wait until written. Past `queueMax` sequences received and not
 * written, the followed sequencer's intake waits for the projector (its own
 * queue then fills, and refuses with SequencerBusyError once full), so
 * memory stays bounded; a failed write is retried after `retryMs`, never
 * skipped.
 */
export class Projector<Event> {
  /** Every sequence up to this one was handed to the runner. */
  private received: number;
  /** The watermark the runner last reported: every sequence up to it is committed. */
  private written: number;
  private closed = false;
  private failure: ProjectorStoppedError | null = null;
  private waiters: Waiter[] = [];
  /** Woken after each write or failure: catch-up waits on it while the queue is long. */
  private progress: (() => void)[] = [];
  private readonly stopListeners = new Set<(error: ProjectorStoppedError) => void>();
  /** While set (`holdAt`), nothing past this sequence is written. */
  private stopAt: number | null = null;
  private source: ProjectionSource<Event> | null = null;
  private unsubscribe: (() => void) | null = null;
  /** The highest sequence a waiter asked the runner to hurry to. */
  private hurriedTo = 0;
  /** Whether this projector has asked the source's intake to wait. */
  private pausing = false;
  private readonly batchMax: number;
  private readonly queueMax: number;
  private readonly onError: (error: unknown) => void;
  private readonly transport: ProjectionTransport<Event>;

  /**
   * A projector at `watermark` whose runner `connect` makes, given where to
   * report. `Projector.open` and `openWorkerProjector` call it.
   */
  constructor(
    readonly name: string,
    watermark: number,
    tuning: ProjectorTuning,
    connect: (reports: RunnerReports) => ProjectionTransport<Event>,
  ) {
    this.batchMax = tuning.batchMax ?? DEFAULT_BATCH_MAX;
    this.queueMax = tuning.queueMax ?? 4_096;
    this.onError =
      tuning.onError ?? ((error) => console.error(`projector ${this.name}: write failed, retrying`, error));
    this.received = watermark;
    this.written = watermark;
    this.transport = connect({
      written: (seq) => this.advanced(seq),
      failed: (error) => {
        this.onError(error);
        this.wakeProgress();
      },
      stopped: (error) => this.stop(error),
    });
  }

  /** A projector on this thread, writing through `db`, resuming from the writer's watermark in SQL. */
  static async open<Event>(options: ProjectorOptions<Event>): Promise<Projector<Event>> {
    const watermark = await watermarkStore.open(options.db, options.writer.name);
    const runnerOptions = {
      db: options.db,
      writer: options.writer,
      batchMax: options.batchMax ?? DEFAULT_BATCH_MAX,
      retryMs: options.retryMs ?? DEFAULT_RETRY_MS,
      coalesceMs: options.coalesceMs ?? DEFAULT_COALESCE_MS,
    };
    return new Projector<Event>(
      options.writer.name,
      watermark,
      options,
      (reports) => new ProjectionRunner(runnerOptions, watermark, reports),
    );
  }

  /** The last sequence whose rows are committed. */
  watermark(): number {
    return this.written;
  }

  /** Sequences applied by the followed sequencer and not written yet (received ones before `follow`). */
  lag(): number {
    return (this.source?.lastSequence() ?? this.received) - this.written;
  }

  /** Sequences received and not written yet: what `queueMax` bounds. */
  queued(): number {
    return this.received - this.written;
  }

  /**
   * Recovery's hook (`recover` / `startFromDisk`): the events above the
   * watermark, derived again by replay. Each delivery is queued like a live
   * batch; it resolves once fewer than two transactions' worth of sequences
   * wait, so replay never gets far ahead of the writes and start-up does not
   * wait for the last of them.
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
   * Hands the runner the events of the sequences after the last ones
   * received, up to `through`. Sequences already received are skipped (a
   * repeated delivery changes nothing). Past `queueMax` sequences not yet
   * written, the followed sequencer's intake is asked to wait.
   */
  accept(published: readonly Published<Event>[], through: number): void {
    if (this.closed || through <= this.received) return;
    const last = published.at(-1);
    if (last && last.seq > through)
      throw new Error(`projector ${this.name}: event at ${last.seq} past ${through}`);
    // The runner skips the sequences it has (a repeated delivery), wherever it runs.
    this.transport.accept(published, through);
    this.received = through;
    if (!this.pausing && this.queued() > this.queueMax && this.source?.pauseIntake) {
      this.pausing = true;
      this.source.pauseIntake(this);
      // The intake waits for the writes: they must not wait to coalesce.
      this.transport.hurry(through);
    }
  }

  /**
   * Resolves once every sequence up to `seq` is written (read-your-writes:
   * a reply's sequence, then a read of SQL); rejects with
   * ProjectionTimeoutError after `timeoutMs`, or when the projector stops.
   */
  waitFor(seq: number, timeoutMs: number): Promise<void> {
    if (seq <= this.written) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    if (seq > this.hurriedTo) {
      this.hurriedTo = seq;
      this.transport.hurry(seq);
    }
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
    // Sent before any event past `seq`: the runner (here or in a worker) gets it in that order.
    this.transport.hold(seq);
    try {
      await this.waitFor(seq, timeoutMs);
      return await work();
    } finally {
      this.stopAt = null;
      if (!this.closed) this.transport.hold(null);
    }
  }

  /**
   * Called once, if the projector stops for good other than by `close` (its
   * worker died, its watermark went back): SQL then falls behind the state
   * until a restart catches it up. Answers a function that unsubscribes.
   */
  onStopped(listener: (error: ProjectorStoppedError) => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  /**
   * Stops following and resolves once what was received is written, or at
   * once when writes are failing (what is left is derived again by the next
   * start's catch-up). Waiters still waiting are rejected.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    this.resumeSource();
    await this.transport.close();
    this.stop(new ProjectorStoppedError(`projector ${this.name} closed at ${this.written}`));
  }

  /** The runner committed up to `seq` (or found another projector of this name had). */
  private advanced(seq: number): void {
    if (seq <= this.written) return;
    this.written = seq;
    this.received = Math.max(this.received, seq);
    this.settleWaiters();
    if (this.pausing && this.queued() <= this.queueMax / 2) this.resumeSource();
    this.wakeProgress();
  }

  private resumeSource(): void {
    if (!this.pausing) return;
    this.pausing = false;
    this.source?.resumeIntake?.(this);
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
    const unexpected = this.failure === null && !this.closed;
    this.failure ??= failure;
    this.closed = true;
    this.unsubscribe?.();
    this.resumeSource();
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(this.failure);
    }
    this.wakeProgress();
    if (unexpected) for (const listener of this.stopListeners) listener(this.failure);
  }
}
