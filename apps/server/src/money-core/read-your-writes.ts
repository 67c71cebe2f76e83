import { ProjectionTimeoutError } from '../projection/projector.ts';

/** How far SQL holds the core's commands, as a core sees it (its own projector, or the cluster leader's). */
export interface ProjectionProgress {
  /** Resolves once SQL holds sequence `seq`; rejects with ProjectionTimeoutError past the read bound. */
  projected(seq: number): Promise<void>;
  /** The last sequence SQL is known to hold. */
  watermark(): number;
  /** Told of a reply that waited past the bound for SQL, or of a projector that stopped. */
  onError(error: unknown): void;
}

/**
 * Read-your-writes on the core (docs/core.md, "The core in the server", 5):
 * what a reply waits for (`readable`), and the per-user bookkeeping of
 * replies that went out before SQL held their command (`answeredAhead`,
 * `caughtUp`). One class, so the core in one process (MoneyCore) and a
 * gateway of the cluster (ClusterCore) keep exactly the same rules.
 */
export class ReadYourWrites {
  /**
   * Per user, the latest sequence answered to them before SQL held it
   * (`answeredAhead`), until SQL does. In the order the users were last
   * answered, which is nearly the order of the sequences: the users SQL has
   * passed gather at the front.
   */
  private readonly ahead = new Map<number, number>();

  constructor(private readonly progress: ProjectionProgress) {}

  /**
   * What a reply to a durable command waits for: SQL holding it, so the
   * caller's next read sees it. It never rejects: the command is applied and
   * durable, and an error after that must not read as a failed command. Past
   * the bound it tells `onError` that reads lag and waits on; if the
   * projector has stopped, it tells and resolves (the reads lag until a restart
   * catches SQL up).
   */
  async readable(seq: number): Promise<void> {
    for (;;) {
      try {
        return await this.progress.projected(seq);
      } catch (error) {
        this.progress.onError(error);
        if (!(error instanceof ProjectionTimeoutError)) return;
      }
    }
  }

  /** A reply to `userId` went out before SQL held `seq`: that user's next request waits for it (`caughtUp`). */
  answeredAhead(userId: number, seq: number): void {
    if ((this.ahead.get(userId) ?? 0) >= seq) return;
    // Deleted first, so the user moves to the back (a Map keeps the order of insertion).
    this.ahead.delete(userId);
    this.ahead.set(userId, seq);
    this.forgetProjected();
  }

  /**
   * Resolves once SQL holds every command answered ahead to `userId`, so what
   * the user reads next in SQL shows their own writes. Bounded and never
   * rejecting as `readable` is.
   */
  async caughtUp(userId: number): Promise<void> {
    const seq = this.ahead.get(userId);
    if (seq === undefined) return;
    if (seq > this.progress.watermark()) await this.readable(seq);
    if (this.ahead.get(userId) === seq) this.ahead.delete(userId);
  }

  /**
   * Forgets the users at the front whose sequence SQL holds, so a user who
   * never comes back is not kept. It stops at the first one SQL has not
   * passed; one behind it that SQL has passed goes on a later call.
   */
  private forgetProjected(): void {
    const watermark = this.progress.watermark();
    for (const [userId, seq] of this.ahead) {
      if (seq > watermark) return;
      this.ahead.delete(userId);
    }
  }
}
