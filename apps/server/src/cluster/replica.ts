import type { JournalRecord, SnapshotStore } from '../core/journal/index.ts';
import { type Listener, type Published, step } from '../core/sequencer/index.ts';
import type { MoneyEvent, MoneyMachine, MoneyState } from '../core/state/index.ts';
import { SequenceWaiters } from './sequence-waiters.ts';

/** The events of the sequences after `after`, up to `through`: a projector's catch-up. */
export interface RecentEvents {
  published: Published<MoneyEvent>[];
  through: number;
}

/** A continuous read of the journal's stream (the JetStream tail, core/journal-jetstream). */
export interface JournalTail {
  /** The records after `after`, in order, in batches as they arrive, until `signal` aborts. */
  follow(after: number, signal?: AbortSignal): AsyncIterable<JournalRecord[]>;
}

/** The journal skipped a sequence, or went back: the replica can no longer equal the leader's state. */
export class ReplicaGapError extends Error {
  override readonly name = 'ReplicaGapError';
}

/**
 * A warm copy of the money state (docs/cluster.md, "Replicas"): it applies
 * each journal record with `step`, exactly as the leader's sequencer did, so
 * it holds the leader's state as of the last record it read, and it
 * publishes the events of each batch to its subscribers as the sequencer
 * does (`subscribe`: order-book pushes work on any process). It keeps the
 * events of the latest `recentMax` sequences, for a projector's catch-up
 * when this process becomes the leader.
 *
 * The records come from any `AsyncIterable<JournalRecord[]>` (`follow`): a
 * JetStream tail, or a test's array.
 */
export class Replica {
  private readonly applied: SequenceWaiters;
  private readonly listeners = new Set<Listener<MoneyEvent>>();
  /** The events of the sequences after `recentFrom`, in order (sequences without events are not listed). */
  private recent: Published<MoneyEvent>[] = [];
  private recentHead = 0;
  /** Every sequence after this one has its events in `recent`. */
  private recentFrom: number;
  private current: MoneyState;
  /** Where a replica that started from nothing looks for a snapshot 0 written since (`adoptSeed`). */
  private seedFrom: Pick<SnapshotStore, 'latest'> | null;

  constructor(
    private readonly machine: MoneyMachine,
    /** The state as of `start.seq`: a snapshot's, or the initial state at 0. */
    start: { state: MoneyState; seq: number },
    private readonly recentMax = 50_000,
    /** For a replica starting from nothing: the store where the first leader may write snapshot 0. */
    seedFrom: Pick<SnapshotStore, 'latest'> | null = null,
  ) {
    this.current = start.state;
    this.applied = new SequenceWaiters(start.seq);
    this.recentFrom = start.seq;
    this.seedFrom = seedFrom;
  }

  /** From the latest good snapshot in `snapshots`, or from nothing (and then a snapshot 0 written later). */
  static async fromSnapshot(
    machine: MoneyMachine,
    snapshots: Pick<SnapshotStore, 'latest'>,
    recentMax?: number,
  ): Promise<Replica> {
    const latest = await snapshots.latest();
    return latest === null
      ? new Replica(machine, { state: machine.initialState(), seq: 0 }, recentMax, snapshots)
      : new Replica(machine, { state: machine.decodeState(latest.bytes), seq: latest.seq }, recentMax);
  }

  /** The state as of `lastSequence()`. */
  get state(): MoneyState {
    return this.current;
  }

  /**
   * A cluster's first leader writes snapshot 0 from SQL before its first
   * record (docs/cluster.md, "Moving a single process to a cluster"): a
   * replica that started from nothing takes it before it applies anything,
   * or the balances SQL held would be missing from its state. Once only; a
   * cluster whose stream began without a snapshot 0 keeps the initial state.
   */
  async adoptSeed(): Promise<void> {
    const store = this.seedFrom;
    if (store === null) return;
    this.seedFrom = null;
    const seed = await store.latest(0);
    if (seed !== null) this.current = this.machine.decodeState(seed.bytes);
  }

  lastSequence(): number {
    return this.applied.value();
  }

  /** As the sequencer's: each applied batch's events, in order, and its last sequence. A listener must not throw. */
  subscribe(listener: Listener<MoneyEvent>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the replica has applied `seq`; rejects if it stops first. */
  reached(seq: number): Promise<void> {
    return this.applied.reached(seq);
  }

  /**
   * Applies the records of `batches` as they come, until they end (the
   * caller aborted its tail) or fail. Either way the replica moves no
   * further: its waiters reject, and a failure is thrown.
   */
  async follow(batches: AsyncIterable<JournalRecord[]>): Promise<void> {
    try {
      for await (const records of batches) {
        await this.adoptSeed();
        this.apply(records);
      }
    } catch (error) {
      this.applied.fail(error);
      throw error;
    }
    this.applied.fail(new Error(`the replica stopped following the journal at ${this.lastSequence()}`));
  }

  /**
   * Applies records in order: those it has are passed over, a gap is a
   * ReplicaGapError. The events go to the subscribers, then the waiters of
   * the sequences reached are resolved.
   */
  apply(records: readonly JournalRecord[]): void {
    const published: Published<MoneyEvent>[] = [];
    let seq = this.lastSequence();
    for (const record of records) {
      if (record.seq <= seq) continue;
      if (record.seq !== seq + 1) throw new ReplicaGapError(`record ${record.seq} after ${seq}`);
      const { events } = step(
        this.machine,
        this.state,
        this.machine.decodeCommand(record.payload),
        record.seq,
      );
      if (events.length > 0) published.push({ seq: record.seq, events });
      seq = record.seq;
    }
    if (seq === this.lastSequence()) return;
    this.remember(published, seq);
    for (const listener of this.listeners) listener(published, seq);
    this.applied.advance(seq);
  }

  /**
   * The events of every sequence after `after` up to the last applied, or
   * null when the replica does not hold them all (it started from a later
   * snapshot, or they are older than the latest `recentMax` sequences).
   */
  eventsAfter(after: number): RecentEvents | null {
    if (after < this.recentFrom) return null;
    const published: Published<MoneyEvent>[] = [];
    for (let index = this.recentHead; index < this.recent.length; index++) {
      const entry = this.recent[index]!;
      if (entry.seq > after) published.push(entry);
    }
    return { published, through: this.lastSequence() };
  }

  /** Keeps the batch's events, and forgets those older than the latest `recentMax` sequences. */
  private remember(published: readonly Published<MoneyEvent>[], through: number): void {
    for (const entry of published) this.recent.push(entry);
    const from = through - this.recentMax;
    if (from <= this.recentFrom) return;
    this.recentFrom = from;
    while (this.recentHead < this.recent.length && this.recent[this.recentHead]!.seq <= from)
      this.recentHead++;
    // Drops the forgotten entries from the array once they are most of it.
    if (this.recentHead > 1024 && this.recentHead * 2 > this.recent.length) {
      this.recent = this.recent.slice(this.recentHead);
      this.recentHead = 0;
    }
  }
}
