import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { flatten } from '../core/journal/flatten.ts';
import type { SnapshotStore } from '../core/journal/index.ts';
import {
  acquireLeadership,
  type JetStreamJournal,
  type Leadership,
  openJetStreamJournal,
} from '../core/journal-jetstream/index.ts';
import {
  CommandThrewError,
  inlineSnapshotSink,
  ProjectionAheadError,
  recover,
  Sequencer,
  SequencerBusyError,
  SequencerStoppedError,
} from '../core/sequencer/index.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyMachine,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
} from '../core/state/index.ts';
import { moneyProjection } from '../money-core/writers.ts';
import { auditLedgerProjection } from '../projection/audit.ts';
import { writeSnapshotZeroFromSql } from '../projection/initial-state.ts';
import { ProjectionTimeoutError, Projector } from '../projection/projector.ts';
import { pruneAndTruncate } from '../projection/start.ts';
import { watermarkStore } from '../projection/store.ts';
import { openWorkerProjector, type WorkerStore } from '../projection/worker-transport.ts';
import type { Db } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import { ProjectionFeed } from './projection-feed.ts';
import {
  type ClusterNames,
  decodeJson,
  encodeJson,
  type NodeAudit,
  type NodeQuestion,
  type ProjectionNotice,
  type SubmitReply,
} from './protocol.ts';
import { type JournalTail, Replica } from './replica.ts';
import { stateHashInSlices } from './state-hash.ts';

export interface SequencerNodeOptions {
  /** This node's name: the lease's holder, and its subject (letters, digits, `-`, `_`). */
  nodeId: string;
  names: ClusterNames;
  /** The node's one connection: journal, lease, tail and subjects. */
  nc: NatsConnection;
  tail: JournalTail;
  /** The snapshots every node shares (the JetStream Object Store). */
  snapshots: SnapshotStore;
  /** The database the leader projects into, and audits. */
  db: Db;
  dialect: DialectName;
  /** Where the projector's worker thread connects; null projects on this thread through `db`. */
  workerStore: WorkerStore | null;
  /** How long the lease lasts without renewal, in ms: a dead leader is replaced about this long after (default 2,000). */
  leaseTtlMs?: number;
  /** How often the leader writes a snapshot and truncates the journal behind it, in ms (default 5 minutes). */
  snapshotEveryMs?: number;
  /** Snapshots kept (default 3). */
  keepSnapshots?: number;
  /** Sequences whose events the replica keeps for its projector's catch-up at a takeover (default 50,000). */
  recentEvents?: number;
  machine?: MoneyMachine;
  /** Told what the node does: its takeover, why it stopped, failed snapshots (default: console.log). */
  log?: (line: string) => void;
}

/** What a node answers `status`. */
export interface NodeStatus {
  nodeId: string;
  role: 'standby' | 'leader';
  /** The last sequence its state has applied. */
  seq: number;
  /** The leader's projection watermark; null on a standby. */
  projected: number | null;
  /** When the leader took the lease (the wall clock); null on a standby. */
  leadingSince: number | null;
}

interface Leading {
  lease: Leadership;
  /** When it took the lease (the wall clock, for operators). */
  since: number;
  journal: JetStreamJournal;
  feed: ProjectionFeed<MoneyEvent>;
  /** Null until it has opened and caught up (`startProjection`). */
  projector: Projector<MoneyEvent> | null;
  sequencer: Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;
  submissions: Subscription;
  snapshotTimer: NodeJS.Timeout;
}

/**
 * (One file of some 550 lines: the standby, the takeover, the leader and
 * the stop share the node's state, and each step of the takeover reads the
 * one before; split, they would have to be read together anyway.)
 *
 * One sequencer of the cluster (docs/cluster.md): a standby keeping a warm
 * replica of the state from the journal's stream, until it takes the lease;
 * then the leader: it finishes what the stream holds and answers the
 * commands the gateways send, on its own Sequencer over the fenced JetStream
 * journal, its projector catching up behind. A leader that loses its lease, is fenced, or
 * whose sequencer or projector stops, stops answering at once and ends
 * (`ended`): the process exits, and its supervisor starts it again as a
 * standby. There is no way back from leader to standby inside a process,
 * so no path can leave two leaders answering.
 */
export class SequencerNode {
  private leading: Leading | null = null;
  private endReason: string | null = null;
  private settleEnded!: (reason: string) => void;
  /** Settles with why the node stopped: the process must exit then. */
  readonly ended = new Promise<string>((resolve) => {
    this.settleEnded = resolve;
  });
  private readonly stopFollowing = new AbortController();
  private readonly stopCampaign = new AbortController();
  private following: Promise<void> = Promise.resolve();
  private readonly questions: Subscription;
  /** A snapshot being written, or a hash being read: the state's maps have a capture open meanwhile. */
  private capturing: Promise<void> | null = null;
  private readonly log: (line: string) => void;

  private constructor(
    private readonly options: SequencerNodeOptions,
    private readonly machine: MoneyMachine,
    private readonly replica: Replica,
  ) {
    this.log = options.log ?? ((line) => console.log(line));
    this.questions = options.nc.subscribe(options.names.subjects.node(options.nodeId), {
      callback: (_error, message) => void this.answerQuestion(message),
    });
  }

  /**
   * Starts as a standby: the replica from the latest shared snapshot,
   * following the stream; and campaigns for the lease in the background.
   */
  static async start(options: SequencerNodeOptions): Promise<SequencerNode> {
    if (!/^[A-Za-z0-9_-]+$/.test(options.nodeId)) throw new RangeError(`node id ${options.nodeId}`);
    const machine = options.machine ?? moneyMachine();
    const replica = await Replica.fromSnapshot(machine, options.snapshots, options.recentEvents);
    const node = new SequencerNode(options, machine, replica);
    node.follow();
    void node.campaign();
    // The server holds the questions' subscription before the node says it is up: asked at once, it answers.
    await options.nc.flush();
    node.log(`node ${options.nodeId}: standby from sequence ${replica.lastSequence()}`);
    return node;
  }

  status(): NodeStatus {
    return {
      nodeId: this.options.nodeId,
      role: this.leading ? 'leader' : 'standby',
      seq: this.leading?.sequencer.lastSequence() ?? this.replica.lastSequence(),
      projected: this.leading?.projector?.watermark() ?? null,
      leadingSince: this.leading?.since ?? null,
    };
  }

  private follow(): void {
    const records = this.options.tail.follow(this.replica.lastSequence(), this.stopFollowing.signal);
    this.following = this.replica.follow(records).catch((error: unknown) => {
      // Past the takeover the sequencer owns the state: the tail's end is no failure then.
      if (!this.stopFollowing.signal.aborted) this.end(`the replica stopped: ${describe(error)}`);
    });
  }

  private async campaign(): Promise<void> {
    let lease: Leadership;
    try {
      lease = await acquireLeadership(
        {
          connection: this.options.nc,
          bucket: this.options.names.leaseBucket,
          key: this.options.names.leaseKey,
          ttlMs: this.options.leaseTtlMs ?? 2_000,
          holder: this.options.nodeId,
        },
        this.stopCampaign.signal,
      );
    } catch (error) {
      if (!this.stopCampaign.signal.aborted)
        this.end(`the campaign for the lease failed: ${describe(error)}`);
      return;
    }
    if (this.endReason !== null) {
      await lease.release();
      return;
    }
    void lease.lost.then((why) => this.end(`lost the lease: ${why}`));
    try {
      await this.lead(lease);
    } catch (error) {
      this.end(`the takeover failed: ${describe(error)}`);
    }
  }

  /**
   * The takeover: the journal opened with the lease (its view is the
   * stream's end now, and every append is fenced against it), the replica
   * caught up to that view and stopped, and the sequencer started on the
   * replica's state. Then the intake opens, while the projector opens and
   * catches up behind it (`startProjection`): the database never holds up
   * the journal.
   */
  private async lead(lease: Leadership): Promise<void> {
    const began = performance.now();
    const { nc, names } = this.options;
    const journal = await openJetStreamJournal({
      connection: nc,
      stream: names.stream,
      subject: names.journalSubject,
      leadership: lease,
    });
    const view = journal.lastSequence();
    await this.replica.reached(view);
    this.stopFollowing.abort();
    await this.following;
    // Anything past the view came from another writer: this node's appends would be fenced.
    if (this.replica.lastSequence() !== view)
      throw new Error(`the stream moved past ${view} during the takeover`);
    if (view === 0) await this.seed();
    const sequencer = new Sequencer({
      machine: this.machine,
      journal,
      snapshots: inlineSnapshotSink(this.options.snapshots),
      start: { state: this.replica.state, seq: view },
    });
    // Before the first command: the projector misses no batch.
    const feed = new ProjectionFeed(sequencer, view);
    if (this.endReason !== null) return;
    const submissions = nc.subscribe(names.subjects.submit, {
      callback: (_error, message) => this.answer(message),
    });
    const snapshotTimer = setInterval(
      () => {
        this.capturing ??= this.snapshot().finally(() => {
          this.capturing = null;
        });
      },
      this.options.snapshotEveryMs ?? 5 * 60_000,
    );
    const leading: Leading = {
      lease,
      since: Date.now(),
      journal,
      sequencer,
      feed,
      projector: null,
      submissions,
      snapshotTimer,
    };
    this.leading = leading;
    this.log(
      `node ${this.options.nodeId}: leading at sequence ${view}, ` +
        `${Math.round(performance.now() - began)} ms after taking the lease`,
    );
    this.startProjection(leading, view).catch((error: unknown) =>
      this.end(`the projector did not start: ${describe(error)}`),
    );
  }

  /**
   * The cluster's first leader, on a stream that holds no record: the
   * balances SQL already holds (a single process moved to a cluster) are
   * written as snapshot 0 when the shared store has none, under the lease,
   * so only one node writes it; every replica starts from it (`adoptSeed`),
   * this one too. The watermark a single process on the core left counts
   * its own journal's sequences: this stream starts again from 0 on what SQL
   * holds, so it goes back to 0 first (a leader that dies between the two
   * leaves the next one to write the snapshot; one that dies after, leaves
   * it the snapshot).
   */
  private async seed(): Promise<void> {
    const { snapshots, db, nodeId } = this.options;
    if ((await snapshots.latest()) === null) {
      const left = await watermarkStore.open(db, moneyProjection.name);
      if (left > 0 && (await watermarkStore.advance(db, moneyProjection.name, left, 0)))
        this.log(`node ${nodeId}: SQL's watermark ${left} (a single process's journal) set back to 0`);
      if (await writeSnapshotZeroFromSql(snapshots, db, Date.now(), this.machine))
        this.log(`node ${nodeId}: wrote snapshot 0 from SQL`);
    }
    await this.replica.adoptSeed();
  }

  /** The projector opened, caught up to the takeover's sequence `view`, following the feed; then the notices begin. */
  private async startProjection(leading: Leading, view: number): Promise<void> {
    const began = performance.now();
    const projector = await this.openProjector();
    const from = await this.catchUp(projector, leading.journal, view);
    projector.follow(leading.feed);
    leading.projector = projector;
    void this.publishWatermarks(leading, projector);
    this.log(
      `node ${this.options.nodeId}: projecting from ${from}, ${Math.round(performance.now() - began)} ms after leading`,
    );
  }

  /**
   * Without coalescing (`coalesceMs` 0): a gateway's read waits for the
   * watermark notices, and cannot ask this projector to hurry as a waiter in
   * its own process does.
   */
  private openProjector(): Promise<Projector<MoneyEvent>> {
    const { workerStore, db, dialect } = this.options;
    return workerStore === null
      ? Projector.open({ db, writer: moneyProjection.create(dialect), coalesceMs: 0 })
      : openWorkerProjector({ writer: moneyProjection, store: workerStore, coalesceMs: 0 });
  }

  /**
   * Hands the projector the events between its watermark and `view`: from
   * the replica's recent events when they reach back that far, else derived
   * again from the newest shared snapshot at or below the watermark and the
   * journal (`recover`). Answers where they came from.
   */
  private async catchUp(
    projector: Projector<MoneyEvent>,
    journal: JetStreamJournal,
    view: number,
  ): Promise<string> {
    const watermark = projector.watermark();
    if (watermark > view) throw new ProjectionAheadError(watermark, view);
    const catchUp = projector.catchUp();
    const recent = this.replica.eventsAfter(watermark);
    if (recent !== null) {
      if (recent.through > watermark) await catchUp.deliver(recent.published, recent.through);
      return `${watermark}, the replica's events`;
    }
    const recovered = await recover(
      this.machine,
      journalUpTo(journal, view),
      this.options.snapshots,
      catchUp,
    );
    if (recovered.seq !== view) throw new Error(`catch-up replayed to ${recovered.seq}, not ${view}`);
    return `${watermark}, replayed from snapshot ${recovered.snapshotSeq}`;
  }

  /** One command from a gateway: applied, and answered once durable; refused when it can never be taken. */
  private answer(message: Msg): void {
    const leading = this.endReason === null ? this.leading : null;
    const taken = leading ? this.decode(message.data) : notLeading;
    if (!leading || 'refused' in taken) {
      reply(message, 'refused' in taken ? taken : notLeading);
      return;
    }
    leading.sequencer.submitSequenced(taken).then(
      ({ seq, result }) => reply(message, { seq, result }),
      (error: unknown) => reply(message, this.refusalOf(error)),
    );
  }

  /** The command, or why it can never be taken. */
  private decode(payload: Uint8Array): MoneyCommand | Refusal {
    let command: MoneyCommand;
    try {
      command = this.machine.decodeCommand(payload);
    } catch (error) {
      return { refused: 'invalid', message: `the command does not decode: ${describe(error)}` };
    }
    if (typeof command.id !== 'string')
      return { refused: 'invalid', message: 'a command sent to the cluster carries an id' };
    return command;
  }

  private refusalOf(error: unknown): Refusal {
    if (error instanceof SequencerBusyError) return { refused: 'busy', queueMax: error.queueMax };
    if (error instanceof CommandThrewError) {
      // This command stopped the sequencer: the next leader would stop on it too. The gateway must not send it again.
      this.end(`a command made the state throw: ${error.message}`);
      return { refused: 'invalid', message: error.message };
    }
    if (error instanceof SequencerStoppedError) {
      // Fenced, or the lease lapsed before the append: this command's outcome is the next leader's to give.
      this.end(`the sequencer stopped: ${error.message}`);
      return { refused: 'stopping', message: error.message };
    }
    return { refused: 'invalid', message: describe(error) };
  }

  /**
   * Tells the gateways how far SQL holds the journal: after each projector
   * batch, and every second besides (a gateway that missed one, or joined
   * late, learns it then). A projector that stops ends the node: the
   * standby takes over with a projector of its own.
   */
  private async publishWatermarks(leading: Leading, projector: Projector<MoneyEvent>): Promise<void> {
    while (this.leading === leading && this.endReason === null) {
      const notice: ProjectionNotice = { leader: this.options.nodeId, projected: projector.watermark() };
      this.options.nc.publish(this.options.names.subjects.watermark, encodeJson(notice));
      try {
        await projector.waitFor(projector.watermark() + 1, 1_000);
      } catch (error) {
        if (!(error instanceof ProjectionTimeoutError)) this.end(`the projector stopped: ${describe(error)}`);
      }
    }
  }

  /**
   * A snapshot into the shared store, then the snapshots and journal
   * records no recovery needs dropped (once the projector follows: what it
   * still needs depends on its watermark).
   */
  private async snapshot(): Promise<void> {
    const leading = this.leading;
    if (!leading) return;
    try {
      await leading.sequencer.snapshot();
      if (leading.projector === null) return;
      await pruneAndTruncate({
        snapshots: this.options.snapshots,
        journal: leading.journal,
        keep: this.options.keepSnapshots ?? 3,
        projectors: [leading.projector],
      });
    } catch (error) {
      // A node that stopped has said why already.
      if (this.endReason === null)
        this.log(
          `node ${this.options.nodeId}: snapshot failed (the next one tries again): ${describe(error)}`,
        );
    }
  }

  private async answerQuestion(message: Msg): Promise<void> {
    let answer: unknown;
    try {
      answer = await this.questionAnswer(decodeJson<NodeQuestion>(message.data));
    } catch (error) {
      answer = { error: describe(error) };
    }
    message.respond(encodeJson(answer));
  }

  private async questionAnswer(question: NodeQuestion): Promise<unknown> {
    if (question === 'status') return this.status();
    if (question === 'hash') return this.hash();
    if (question === 'audit') {
      const projector = this.leading?.projector;
      if (!this.leading || !projector) return { error: 'only a leader whose projector follows audits' };
      const audit = await auditLedgerProjection({
        db: this.options.db,
        projector,
        source: this.leading.sequencer,
        timeoutMs: 30_000,
      });
      return { seq: audit.seq, report: audit.report } satisfies NodeAudit;
    }
    return { error: `no such question: ${String(question)}` };
  }

  /**
   * The state's hash at the sequence it has reached now, read a slice a
   * turn (a leader keeps renewing its lease meanwhile). It reads the state
   * through a capture, as a snapshot does, and a map holds one capture at a
   * time: the two take turns (`capturing`).
   */
  private async hash(): Promise<{ seq: number; hash: string }> {
    while (this.capturing) await this.capturing;
    const seq = this.status().seq;
    const hashed = stateHashInSlices(this.machine, this.leading?.sequencer.state ?? this.replica.state);
    this.capturing = hashed.then(
      () => undefined,
      () => undefined,
    );
    try {
      return { seq, hash: await hashed };
    } finally {
      this.capturing = null;
    }
  }

  /**
   * Stops answering at once (the intake's subscription goes first), and
   * settles `ended`. Idempotent: the first reason is kept.
   */
  private end(reason: string): void {
    if (this.endReason !== null) return;
    this.endReason = reason;
    this.leading?.submissions.unsubscribe();
    if (this.leading) clearInterval(this.leading.snapshotTimer);
    this.stopCampaign.abort();
    this.stopFollowing.abort();
    this.log(`node ${this.options.nodeId}: stopped: ${reason}`);
    this.settleEnded(reason);
  }

  /**
   * A clean stop (SIGTERM): no new commands; those taken are answered and
   * projected; the lease is released, so the standby takes over at once
   * rather than after the lease's TTL.
   */
  async close(): Promise<void> {
    const leading = this.leading;
    this.end('closed');
    this.questions.unsubscribe();
    await this.following;
    if (!leading) return;
    try {
      // A sequencer that stopped for good ended the node already: closing the rest is all that is left.
      await leading.sequencer.close().catch((error: unknown) => {
        if (!(error instanceof SequencerStoppedError)) throw error;
      });
    } finally {
      await leading.projector?.close();
      await leading.journal.close();
      await leading.lease.release();
    }
  }
}

/**
 * The journal as far as `view`: a catch-up replaying it behind a running
 * sequencer stops where the projector starts following the feed.
 */
function journalUpTo(
  journal: JetStreamJournal,
  view: number,
): Pick<JetStreamJournal, 'read' | 'readBatches' | 'lastSequence'> {
  async function* readBatches(after: number) {
    for await (const batch of journal.readBatches(after)) {
      const kept = batch.filter((record) => record.seq <= view);
      if (kept.length > 0) yield kept;
      if (kept.length < batch.length) return;
    }
  }
  return { lastSequence: () => view, readBatches, read: (after) => flatten(readBatches(after)) };
}

type Refusal = Extract<SubmitReply, { refused: string }>;

const notLeading: Refusal = { refused: 'stopping', message: 'this node does not lead' };

function reply(message: Msg, answer: SubmitReply): void {
  message.respond(encodeJson(answer));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
