import type { CoreStatus } from '@halyard/protocol';
import type { FileJournal, SnapshotStore } from '../core/journal/index.ts';
import { type Sequencer, SequencerStoppedError, workerSnapshotSink } from '../core/sequencer/index.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
} from '../core/state/index.ts';
import { fundingIntervalFrom } from '../modules/futures/funding.ts';
import { auditLedgerProjection, type ProjectionAudit } from '../projection/audit.ts';
import { seedSnapshotFromSql } from '../projection/initial-state.ts';
import { Projector } from '../projection/projector.ts';
import { pruneAndTruncate, startProjected } from '../projection/start.ts';
import { openWorkerProjector, type WorkerStore } from '../projection/worker-transport.ts';
import type { Db } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import type { MoneyCoreHandle, Submitted } from './handle.ts';
import { ReadYourWrites } from './read-your-writes.ts';
import { moneyProjection } from './writers.ts';

export interface MoneyCoreOptions {
  /** The data directory: the journal in `journal/`, the snapshots in `snapshots/`. */
  dataDir: string;
  /** The server's connection: the first start reads the state from it, and the audit compares against it. */
  db: Db;
  dialect: DialectName;
  /**
   * Where the projector's worker thread connects to the same database; null
   * projects on this thread through `db` (an in-memory SQLite database, which
   * no other thread can open).
   */
  workerStore: WorkerStore | null;
  /** The edge's clock: the time the state built from SQL is stamped with. */
  now: () => number;
  /** How often a snapshot is written and the journal truncated behind it, in ms (default 5 minutes). */
  snapshotEveryMs?: number;
  /** Snapshots kept (default 3). */
  keepSnapshots?: number;
  /** How long a read waits for its own write to reach SQL, in ms (default 2,000). */
  readBoundMs?: number;
  /**
   * The futures funding interval, in ms, as the server's futures module is given it (default: FUNDING_INTERVAL_MS,
   * else 8 hours, `fundingIntervalFrom`). Only the first start reads it: snapshot 0 starts the funding clock of a
   * contract that never paid a round at the slot of the start; after that the edge stamps each funding slot.
   */
  fundingIntervalMs?: number;
  /**
   * Told of a failed scheduled snapshot (the next one tries again), and of a
   * reply that waited past the read bound for SQL (default: console.error).
   */
  onError?: (error: unknown) => void;
}

/**
 * The sequenced core as the server runs it (docs/core.md, "The core in the
 * server"): the money state's sequencer on the data directory, its events
 * written to SQL by one projector in a worker thread, snapshots written by a
 * worker on a schedule with the journal truncated behind them, and on the
 * very first start the state read from SQL as snapshot 0.
 */
export class MoneyCore implements MoneyCoreHandle {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private snapshotting: Promise<number> | null = null;
  private lastSnapshot: { seq: number; at: number } | null = null;
  private readonly readYourWrites = new ReadYourWrites({
    projected: (seq) => this.projected(seq),
    watermark: () => this.projector.watermark(),
    onError: (error) => this.onError(error),
  });

  private constructor(
    private readonly options: MoneyCoreOptions,
    readonly sequencer: Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>,
    private readonly journal: FileJournal,
    private readonly snapshots: SnapshotStore,
    readonly projector: Projector<MoneyEvent>,
    /** Where the start's recovery began (the snapshot's sequence) and how many commands it replayed. */
    readonly recovered: { snapshotSeq: number; replayed: number },
    private readonly closeSink: () => Promise<void>,
  ) {}

  static async start(options: MoneyCoreOptions): Promise<MoneyCore> {
    const machine = moneyMachine();
    await seedSnapshotFromSql(
      options.dataDir,
      options.db,
      options.now(),
      machine,
      options.fundingIntervalMs ?? fundingIntervalFrom(process.env),
    );
    const projector =
      options.workerStore === null
        ? await Projector.open({ db: options.db, writer: moneyProjection.create(options.dialect) })
        : await openWorkerProjector({ writer: moneyProjection, store: options.workerStore });
    const sink = workerSnapshotSink(`${options.dataDir}/snapshots`);
    try {
      const started = await startProjected(machine, options.dataDir, [projector], {}, sink);
      const core = new MoneyCore(
        options,
        started.sequencer,
        started.journal,
        started.snapshots,
        projector,
        { snapshotSeq: started.recovered.snapshotSeq, replayed: started.recovered.replayed },
        () => sink.close(),
      );
      // Nobody has been answered ahead by this process: without this, a read of SQL right after the start could
      // miss what was acknowledged before a crash and is only in the journal (the recovery's catch-up).
      await core.readable(started.sequencer.lastSequence());
      core.schedule();
      return core;
    } catch (error) {
      await projector.close();
      await sink.close();
      throw error;
    }
  }

  get state(): MoneyState {
    return this.sequencer.state;
  }

  /** Applies a command; answers once it is durable, with the sequence it was journaled and published under. */
  submit(command: MoneyCommand): Promise<Submitted> {
    return this.sequencer.submitSequenced(command);
  }

  /** Resolves once SQL holds what sequence `seq` did (read-your-writes); rejects past the bound. */
  projected(seq: number): Promise<void> {
    return this.projector.waitFor(seq, this.options.readBoundMs ?? 2_000);
  }

  /** What a reply to a durable command waits for: SQL holding it; never rejects (ReadYourWrites.readable). */
  readable(seq: number): Promise<void> {
    return this.readYourWrites.readable(seq);
  }

  /** A reply to `userId` went out before SQL held `seq`: that user's next request waits for it (`caughtUp`). */
  answeredAhead(userId: number, seq: number): void {
    this.readYourWrites.answeredAhead(userId, seq);
  }

  /** Resolves once SQL holds every command answered ahead to `userId` (ReadYourWrites.caughtUp). */
  caughtUp(userId: number): Promise<void> {
    return this.readYourWrites.caughtUp(userId);
  }

  private onError(error: unknown): void {
    (this.options.onError ?? ((cause: unknown) => console.error('money core', cause)))(error);
  }

  /** Writes a snapshot now, then drops the snapshots and journal segments no recovery needs. Answers its sequence. */
  snapshot(): Promise<number> {
    // One at a time: a second caller (the schedule, an operator) shares the one running.
    this.snapshotting ??= this.snapshotAndPrune().finally(() => {
      this.snapshotting = null;
    });
    return this.snapshotting;
  }

  private async snapshotAndPrune(): Promise<number> {
    const seq = await this.sequencer.snapshot();
    this.lastSnapshot = { seq, at: this.options.now() };
    await pruneAndTruncate({
      snapshots: this.snapshots,
      journal: this.journal,
      keep: this.options.keepSnapshots ?? 3,
      projectors: [this.projector],
    });
    return seq;
  }

  /**
   * Called once if the core stops for good while it runs (not by `close`):
   * the sequencer (its journal failed, or a command threw, so the state may
   * be ahead of the disk) or the projector (SQL would fall behind the state
   * for good). Either way only a restart, which recovers from the journal,
   * makes it whole again. Answers a function that unsubscribes.
   */
  onStopped(listener: (error: Error) => void): () => void {
    let told = false;
    const tell = (error: Error) => {
      if (told || this.closed) return;
      told = true;
      listener(error);
    };
    const fromSequencer = this.sequencer.onStopped(tell);
    const fromProjector = this.projector.onStopped(tell);
    return () => {
      fromSequencer();
      fromProjector();
    };
  }

  /** Where the core stands, for the operators' dashboard. */
  status(): CoreStatus {
    return {
      sequence: this.sequencer.lastSequence(),
      projected: this.projector.watermark(),
      snapshot: this.lastSnapshot,
      recovered: this.recovered,
    };
  }

  /** The ledger's SQL against the state, at one sequence (the projector held there meanwhile). */
  audit(timeoutMs = 30_000): Promise<ProjectionAudit> {
    return auditLedgerProjection({
      db: this.options.db,
      projector: this.projector,
      source: this.sequencer,
      timeoutMs,
    });
  }

  /** Takes no more commands, answers those queued, writes what they published, and stops. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    // A snapshot being pruned behind would find the journal closed under it.
    await this.snapshotting?.catch(() => undefined);
    try {
      // A sequencer that stopped for good said so already (onStopped): closing the rest is all that is left.
      await this.sequencer.close().catch((error: unknown) => {
        if (!(error instanceof SequencerStoppedError)) throw error;
      });
    } finally {
      await this.projector.close();
      await this.journal.close();
      await this.closeSink();
    }
  }

  private schedule(): void {
    const every = this.options.snapshotEveryMs ?? 5 * 60_000;
    this.timer = setInterval(() => {
      if (!this.closed) this.snapshot().catch((error: unknown) => this.onError(error));
    }, every);
    this.timer.unref();
  }
}
