import type { CoreStatus } from '@halyard/protocol';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { SnapshotStore } from '../core/journal/index.ts';
import { type MoneyCommand, type MoneyMachine, type MoneyState, moneyMachine } from '../core/state/index.ts';
import type { AuditReport } from '../ledger/index.ts';
import type { MoneyCoreHandle, Submitted } from '../money-core/handle.ts';
import { MONEY_PROJECTION } from '../money-core/projection-name.ts';
import { ReadYourWrites } from '../money-core/read-your-writes.ts';
import { ProjectionTimeoutError } from '../projection/projector.ts';
import { watermarkStore } from '../projection/store.ts';
import type { Db } from '../store/database.ts';
import {
  type ClusterNames,
  commandIds,
  decodeJson,
  encodeJson,
  type NodeAudit,
  type NodeQuestion,
  type ProjectionNotice,
  type SubmitOptions,
  submitToLeader,
} from './protocol.ts';
import { type JournalTail, Replica } from './replica.ts';
import { SequenceWaiters } from './sequence-waiters.ts';

export interface ClusterCoreOptions {
  names: ClusterNames;
  nc: NatsConnection;
  /** The journal's stream: followed, and its end asked for readiness (`behind`). */
  tail: JournalTail & { lastSequence(): Promise<number> };
  /** The snapshots the sequencers share: the replica starts from the latest. */
  snapshots: Pick<SnapshotStore, 'latest'>;
  /** The gateway's database: the projection's watermark is read from it once, at the start. */
  db: Db;
  /** How long a read waits for its own write to reach SQL, in ms (default 2,000). */
  readBoundMs?: number;
  /**
   * How long a command is sent again through failovers before its outcome
   * is reported unknown (default 10 s), and how long each attempt waits
   * (default 1 s). The deadline must stay well inside the state's retry
   * window (docs/cluster.md, "Intake").
   */
  submit?: SubmitOptions;
  machine?: MoneyMachine;
  /** Told of a reply that waited past the read bound, and of a replica that stopped (default: console.error). */
  onError?: (error: unknown) => void;
  /**
   * Told once when the replica stops following for good (it fell behind a
   * truncation of the stream, or the stream has a gap): this gateway's state
   * will not move again, and it refuses commands. A gateway process exits
   * for its supervisor to start it again from the latest snapshot.
   */
  onReplicaStopped?: (error: unknown) => void;
}

/**
 * The core as a gateway of the cluster sees it (docs/cluster.md,
 * "Gateways"): the same handle the modules use in one process
 * (`MoneyCoreHandle`). The state and the events come from a replica of its
 * own, following the journal, so reads of the state and order-book pushes
 * work unchanged; commands go to the leader, each with an id, and are
 * answered once this replica has applied them (read-your-writes on the
 * state); SQL's progress is what the leader publishes.
 */
export class ClusterCore implements MoneyCoreHandle {
  private readonly projection: SequenceWaiters;
  private readonly readYourWrites: ReadYourWrites;
  private readonly nextId = commandIds();
  private readonly stopFollowing = new AbortController();
  private following: Promise<void> = Promise.resolve();
  private notices: Subscription | null = null;
  private replicaFailure: unknown = null;
  private inFlight = 0;
  /** The node whose notice came last: the one a gateway asks for the audit. */
  private leader: string | null = null;
  private readonly startedAt: number;
  readonly sequencer: MoneyCoreHandle['sequencer'];

  private constructor(
    private readonly options: ClusterCoreOptions,
    private readonly machine: MoneyMachine,
    private readonly replica: Replica,
  ) {
    this.startedAt = replica.lastSequence();
    this.projection = new SequenceWaiters(0);
    this.readYourWrites = new ReadYourWrites({
      projected: (seq) => this.projected(seq),
      watermark: () => this.projection.value(),
      onError: (error) => this.onError(error),
    });
    this.sequencer = {
      subscribe: (listener) => replica.subscribe(listener),
      lastSequence: () => replica.lastSequence(),
      queued: () => this.inFlight,
    };
  }

  /** A replica from the latest shared snapshot, following the journal; SQL's watermark from the leader's notices. */
  static async start(options: ClusterCoreOptions): Promise<ClusterCore> {
    const machine = options.machine ?? moneyMachine();
    // A gateway never leads: it keeps no events for a projector.
    const replica = await Replica.fromSnapshot(machine, options.snapshots, 0);
    const core = new ClusterCore(options, machine, replica);
    // Listening first, then reading the table: no notice falls between the two.
    core.notices = options.nc.subscribe(options.names.subjects.watermark, {
      callback: (_error, message) => {
        const notice = decodeJson<ProjectionNotice>(message.data);
        core.leader = notice.leader;
        core.projection.advance(notice.projected);
      },
    });
    // Never past what the replica holds: a cluster's first leader sets a single process's watermark back to 0
    // (docs/cluster.md, "Moving a single process to a cluster"); the leader's notices tell the rest.
    core.projection.advance(
      Math.min(await watermarkStore.read(options.db, MONEY_PROJECTION), replica.lastSequence()),
    );
    const records = options.tail.follow(replica.lastSequence(), core.stopFollowing.signal);
    core.following = replica.follow(records).catch((error: unknown) => {
      if (core.stopFollowing.signal.aborted) return;
      core.replicaFailure = error;
      core.onError(error);
      options.onReplicaStopped?.(error);
    });
    return core;
  }

  /** The state as this gateway's replica has applied it. */
  get state(): MoneyState {
    return this.replica.state;
  }

  /**
   * Sends the command to the leader, with an id of this gateway's when it
   * has none (so that resending it after a timeout or a failover applies it
   * once), and answers once this replica has applied it. Through a failover
   * it keeps sending; past the deadline it throws ClusterUnavailableError
   * (the outcome is unknown, not refused).
   */
  async submit(command: MoneyCommand): Promise<Submitted> {
    if (this.replicaFailure !== null)
      throw new Error(`this gateway's replica stopped: ${String(this.replicaFailure)}`);
    const identified = command.id === undefined ? { ...command, id: this.nextId() } : command;
    const payload = this.machine.encodeCommand(identified);
    this.inFlight += 1;
    try {
      const answered = await submitToLeader(this.options.nc, this.options.names.subjects.submit, payload, {
        deadlineMs: this.options.submit?.deadlineMs ?? 10_000,
        attemptTimeoutMs: this.options.submit?.attemptTimeoutMs ?? 1_000,
      });
      // Durable and answered: a replica that stopped meanwhile is told, not thrown as a failed command.
      await this.replica.reached(answered.seq).catch((error: unknown) => this.onError(error));
      return answered;
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Resolves once SQL holds sequence `seq`, as the leader says; rejects with ProjectionTimeoutError past the bound. */
  projected(seq: number): Promise<void> {
    const timeoutMs = this.options.readBoundMs ?? 2_000;
    return this.projection.reached(seq, {
      timeoutMs,
      timedOut: () => new ProjectionTimeoutError(seq, this.projection.value(), timeoutMs),
    });
  }

  /** As MoneyCore's (ReadYourWrites.readable). */
  readable(seq: number): Promise<void> {
    return this.readYourWrites.readable(seq);
  }

  /** As MoneyCore's (ReadYourWrites.answeredAhead). */
  answeredAhead(userId: number, seq: number): void {
    this.readYourWrites.answeredAhead(userId, seq);
  }

  /** As MoneyCore's (ReadYourWrites.caughtUp). */
  caughtUp(userId: number): Promise<void> {
    return this.readYourWrites.caughtUp(userId);
  }

  /**
   * Where this gateway stands, for the dashboard (as MoneyCore's): its
   * replica's sequence, SQL's watermark as the leader last said, and where
   * the replica started (no snapshot is written here: the leader writes them).
   */
  status(): CoreStatus {
    const sequence = this.replica.lastSequence();
    return {
      sequence,
      projected: this.projection.value(),
      snapshot: null,
      recovered: { snapshotSeq: this.startedAt, replayed: sequence - this.startedAt },
    };
  }

  /**
   * The ledger audit of SQL against the state, as MoneyCore's: the leader
   * runs it (only it holds the projector at one sequence), asked over NATS.
   */
  async audit(): Promise<{ seq: number; report: AuditReport }> {
    if (this.leader === null) throw new Error('no leader has been heard from yet: try again in a second');
    const answer = await this.options.nc.request(
      this.options.names.subjects.node(this.leader),
      encodeJson('audit' satisfies NodeQuestion),
      { timeout: 60_000 },
    );
    const audit = decodeJson<NodeAudit | { error: string }>(answer.data);
    if ('error' in audit) throw new Error(`the leader ${this.leader} did not audit: ${audit.error}`);
    return audit;
  }

  /**
   * How many records the stream holds past this replica, and why it cannot
   * follow if it stopped (readiness: a gateway is ready once caught up).
   */
  async behind(): Promise<{ records: number; failure: string | null }> {
    const last = await this.options.tail.lastSequence();
    return {
      records: Math.max(0, last - this.replica.lastSequence()),
      failure: this.replicaFailure === null ? null : String(this.replicaFailure),
    };
  }

  /** Stops following the journal and the leader's notices; commands in flight still get their answers. */
  async close(): Promise<void> {
    this.notices?.unsubscribe();
    this.stopFollowing.abort();
    await this.following;
  }

  private onError(error: unknown): void {
    (this.options.onError ?? ((cause: unknown) => console.error('cluster core', cause)))(error);
  }
}
