interface Waiter {
  seq: number;
  resolve(): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * Promises that resolve once a sequence that only moves up (a replica's
 * applied sequence, SQL's watermark) reaches theirs: each with a time bound
 * of its own or none, all rejected at once when what they wait on fails.
 */
export class SequenceWaiters {
  private current: number;
  private failure: unknown = null;
  private waiters: Waiter[] = [];

  constructor(start: number) {
    this.current = start;
  }

  value(): number {
    return this.current;
  }

  /**
   * Resolves once the sequence reaches `seq`. With `timeoutMs`, rejects
   * with `timedOut()`'s error past it.
   */
  reached(seq: number, bound?: { timeoutMs: number; timedOut: () => Error }): Promise<void> {
    if (seq <= this.current) return Promise.resolve();
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { seq, resolve, reject, timer: undefined };
      if (bound)
        waiter.timer = setTimeout(() => {
          this.waiters = this.waiters.filter((other) => other !== waiter);
          reject(bound.timedOut());
        }, bound.timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** The sequence moved to `seq` (a lower one changes nothing). */
  advance(seq: number): void {
    if (seq <= this.current) return;
    this.current = seq;
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.seq <= seq) {
        clearTimeout(waiter.timer);
        waiter.resolve();
      } else still.push(waiter);
    }
    this.waiters = still;
  }

  /** What the waiters wait on stopped: every waiter, and every later one not already reached, rejects with `error`. */
  fail(error: unknown): void {
    this.failure ??= error;
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(this.failure);
    }
  }
}
