import type { Journal } from '../journal/index.ts';
import { CommandThrewError, SequencerBusyError, SequencerStoppedError } from './errors.ts';
import { type Machine, type StateCapture, step } from './machine.ts';
import type { SnapshotSink, SnapshotWriter } from './snapshot-sink.ts';

export interface SequencerOptions<State, Command, Result, Event> {
  machine: Machine<State, Command, Result, Event>;
  /** The file journal, or any other with the same contract (the JetStream one). */
  journal: Pick<Journal, 'append' | 'lastSequence'>;
  /** Where snapshots go: inlineSnapshotSink(store), or workerSnapshotSink(dir) for large states. */
  snapshots: SnapshotSink;
  /** The state at the journal's end and its sequence, from `recover`. */
  start: { state: State; seq: number };
  /** Commands waiting beyond this are refused with SequencerBusyError (default 10,000). */
  queueMax?: number;
  /** Commands taken into one journal write, at most (default 1,024). */
  batchMax?: number;
  /** A turn stops taking commands once it has spent this long applying them, in ms (default 8). */
  turnMs?: number;
  /** How long a turn may spend encoding a snapshot, in ms (default 4); at least one piece is read a turn. */
  snapshotSliceMs?: number;
}

/** What one applied command published, once it was durable. */
export interface Published<Event> {
  seq: number;
  events: Event[];
}

/** A subscriber: a durable batch's events, and its last sequence. */
export type Listener<Event> = (published: Published<Event>[], through: number) => void;

interface Pending<Command, Result> {
  command: Command;
  payload: Uint8Array;
  resolve(result: Result, seq: number): void;
  reject(error: unknown): void;
}

interface SnapshotInProgress {
  seq: number;
  capture: StateCapture;
  writer: SnapshotWriter;
  /** Resolves once every record up to `seq` is durable. */
  durable: Promise<unknown>;
  done: { resolve(seq: number): void; reject(error: unknown): void };
  promise: Promise<number>;
}

/**
 * The one line every state-changing command goes through.
 *
 * Each turn of the event loop takes up to `batchMax` queued commands, hands
 * their encodings to the journal (which gives them consecutive sequences at
 * once and makes them durable with one write and one fsync, shared with any
 * other batch in flight), and applies them to the state in that order right
 * away, while the fsync runs (as LMAX does). Replies and events wait for the
 * journal to say the batch is durable: nobody learns of a command the disk
 * could still lose. The price is that the state in memory runs ahead of the
 * journal, so if a write fails the sequencer stops for good: restarting
 * recovers from what the disk holds.
 */
export class Sequencer<State, Command, Result, Event> {
  /** Commands waiting are `queue[head..]`: taking one moves `head`, not the array. */
  private queue: Pending<Command, Result>[] = [];
  private head = 0;
  private scheduled = false;
  private applied: number;
  private lastAppend: Promise<number>;
  private failure: SequencerStoppedError | null = null;
  private closing = false;
  private snapshotting: SnapshotInProgress | null = null;
  /** The last turn ran a batch: a snapshot being written has the next one. */
  private sliceNext = false;
  /** Who asked the intake to wait (`pauseIntake`): while anyone does, no queued command is applied. */
  private readonly intakePausedBy = new Set<object>();
  private readonly listeners = new Set<Listener<Event>>();
  private readonly stopListeners = new Set<(error: SequencerStoppedError) => void>();
  private readonly machine: Machine<State, Command, Result, Event>;
  private readonly queueMax: number;
  private readonly batchMax: number;
  private readonly turnMs: number;
  private readonly sliceMs: number;
  /** The state as applied so far: ahead of what is durable by the batches in flight. */
  readonly state: State;

  constructor(private readonly options: SequencerOptions<State, Command, Result, Event>) {
    const journalSeq = options.journal.lastSequence();
    if (options.start.seq !== journalSeq)
      throw new Error(`state at ${options.start.seq}, but the journal ends at ${journalSeq}: recover first`);
    this.machine = options.machine;
    this.state = options.start.state;
    this.applied = options.start.seq;
    this.lastAppend = Promise.resolve(journalSeq);
    this.queueMax = options.queueMax ?? 10_000;
    this.batchMax = options.batchMax ?? 1024;
    this.turnMs = options.turnMs ?? 8;
    this.sliceMs = options.snapshotSliceMs ?? 4;
  }

  /** Queues a command; resolves with its result once it is durable. */
  submit(command: Command): Promise<Result> {
    return this.enqueue(command, (resolve) => (result) => resolve(result));
  }

  /** As `submit`, with the sequence the command was journaled under (its events are published under it). */
  submitSequenced(command: Command): Promise<{ result: Result; seq: number }> {
    return this.enqueue(command, (resolve) => (result, seq) => resolve({ result, seq }));
  }

  private enqueue<Answer>(
    command: Command,
    answer: (resolve: (value: Answer) => void) => Pending<Command, Result>['resolve'],
  ): Promise<Answer> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closing) return Promise.reject(new SequencerStoppedError('closed'));
    if (this.queued() >= this.queueMax) return Promise.reject(new SequencerBusyError(this.queueMax));
    let payload: Uint8Array;
    try {
      payload = this.machine.encodeCommand(command);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ command, payload, resolve: answer(resolve), reject });
      this.schedule();
    });
  }

  /**
   * Called with each durable batch's events, in sequence order, and the
   * batch's last sequence (`through`): every sequence up to it has now been
   * published, those without events too (a batch of refusals is called with
   * no events), so a projector can count them as passed. Answers a function
   * that unsubscribes. A listener must not throw (as the modules'
   * `onCommitted`): it runs after the replies, and an error escaping it would
   * skip the listeners after it and surface as an unhandled rejection.
   */
  subscribe(listener: Listener<Event>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Called once, if the sequencer stops for good (a journal failure, a
   * machine that threw): the process must restart to recover from what the
   * disk holds. Not called by `close`. Answers a function that unsubscribes.
   */
  onStopped(listener: (error: SequencerStoppedError) => void): () => void {
    this.stopListeners.add(listener);
    return () => this.stopListeners.delete(listener);
  }

  /**
   * Backpressure from a consumer of the published events that fell behind (a
   * projector whose queue passed its bound): until `holder` calls
   * `resumeIntake`, no queued command is applied. Commands keep queueing up
   * to `queueMax`, then are refused with SequencerBusyError; snapshots go on;
   * `close` waits for the intake to resume.
   */
  pauseIntake(holder: object): void {
    this.intakePausedBy.add(holder);
  }

  resumeIntake(holder: object): void {
    if (this.intakePausedBy.delete(holder) && this.intakePausedBy.size === 0 && this.queued() > 0)
      this.schedule();
  }

  /** The last sequence applied (it may not be durable yet). */
  lastSequence(): number {
    return this.applied;
  }

  /**
   * Writes a snapshot of the state as of the last applied command, read a
   * slice per turn, in turns of its own between batches, and resolves with its sequence once it is
   * written (after the journal holds every record up to it). A call while one
   * is being written answers that one.
   */
  snapshot(): Promise<number> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.snapshotting) return this.snapshotting.promise;
    let done!: SnapshotInProgress['done'];
    const promise = new Promise<number>((resolve, reject) => {
      done = { resolve, reject };
    });
    this.snapshotting = {
      seq: this.applied,
      capture: this.machine.capture(this.state),
      writer: this.options.snapshots.open(this.applied),
      durable: this.lastAppend,
      done,
      promise,
    };
    this.schedule();
    return promise;
  }

  /** Takes no more commands; resolves once every queued one is answered and a running snapshot is written. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.queued() > 0 || this.snapshotting) {
      if (this.failure) throw this.failure;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await this.lastAppend.catch(() => undefined);
    if (this.failure) throw this.failure;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // The next turn, not a microtask: every request read in this poll of the sockets joins the batch.
    setImmediate(() => this.turn());
  }

  /** Commands taken and not applied yet. */
  queued(): number {
    return this.queue.length - this.head;
  }

  /** Drops the taken commands from the array once they are most of it. */
  private compactQueue(): void {
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * One turn does one thing: a batch, or a snapshot's slice. While both have
   * work they take turns, so the event loop (timers, sockets, the journal's
   * answers) runs between them and no turn holds it for both.
   */
  private turn(): void {
    this.scheduled = false;
    if (this.failure) return;
    const running = this.snapshotting;
    if (running && (this.sliceNext || !this.taking())) {
      this.sliceNext = false;
      this.snapshotSlice(running);
    } else if (this.taking()) {
      this.sliceNext = true;
      this.runBatch();
    }
    if (this.taking() || (this.snapshotting && !this.failure)) this.schedule();
  }

  /** Commands wait, and the intake is not paused. */
  private taking(): boolean {
    return this.queued() > 0 && this.intakePausedBy.size === 0;
  }

  /**
   * Applies queued commands, up to `batchMax` or until the turn has taken
   * `turnMs`, then journals exactly those: the journal numbers them at the
   * call, in order, with the sequences they were applied under (nothing else
   * appends). The rest waits for the next turn, so no turn holds the thread
   * for long, whatever the commands cost.
   */
  private runBatch(): void {
    const started = performance.now();
    const firstSeq = this.applied + 1;
    const batch: Pending<Command, Result>[] = [];
    const results: Result[] = [];
    const published: Published<Event>[] = [];
    try {
      while (this.head < this.queue.length && batch.length < this.batchMax) {
        const pending = this.queue[this.head++]!;
        batch.push(pending);
        const seq = firstSeq + batch.length - 1;
        const { result, events } = step(this.machine, this.state, pending.command, seq);
        results.push(result);
        if (events.length > 0) published.push({ seq, events });
        if (performance.now() - started > this.turnMs) break;
      }
    } catch (error) {
      // The failing command and those before it are applied but not journaled: the state is ahead of the disk.
      const threw = batch.pop()!;
      this.stop(error, batch);
      threw.reject(new CommandThrewError(error));
      return;
    }
    this.compactQueue();
    const lastSeq = firstSeq + batch.length - 1;
    this.applied = lastSeq;
    const durable = this.options.journal.append(batch.map((pending) => pending.payload));
    this.lastAppend = durable;
    durable.then(
      (seq) => {
        if (seq !== lastSeq) return this.stop(new Error(`journal gave ${seq}, expected ${lastSeq}`), batch);
        for (let index = 0; index < batch.length; index++)
          batch[index]!.resolve(results[index]!, firstSeq + index);
        for (const listener of this.listeners) listener(published, lastSeq);
      },
      (error) => this.stop(error, batch),
    );
  }

  private snapshotSlice(running: SnapshotInProgress): void {
    const started = performance.now();
    try {
      // At least one piece a turn, then more while the slice's time lasts.
      do {
        const chunk = running.capture.next();
        if (chunk === null) {
          this.snapshotting = null;
          void this.writeSnapshot(running);
          return;
        }
        running.writer.add(chunk);
      } while (performance.now() - started < this.sliceMs);
    } catch (error) {
      this.snapshotting = null;
      running.capture.abandon();
      running.writer.abandon();
      running.done.reject(error);
    }
  }

  private async writeSnapshot(running: SnapshotInProgress): Promise<void> {
    try {
      await running.durable;
      await running.writer.finish();
      running.done.resolve(running.seq);
    } catch (error) {
      running.done.reject(error);
    }
  }

  /** For good: the state may be ahead of the journal, or half-changed by a machine that threw. */
  private stop(cause: unknown, batch: readonly Pending<Command, Result>[]): void {
    const first = this.failure === null;
    this.failure ??= new SequencerStoppedError(cause);
    for (const pending of [...batch, ...this.queue.splice(this.head)]) pending.reject(this.failure);
    this.queue = [];
    this.head = 0;
    if (this.snapshotting) {
      this.snapshotting.capture.abandon();
      this.snapshotting.writer.abandon();
      this.snapshotting.done.reject(this.failure);
      this.snapshotting = null;
    }
    if (first) for (const listener of this.stopListeners) listener(this.failure);
  }
}
