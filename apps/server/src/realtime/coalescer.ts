export interface CoalescerOptions<T> {
  /** The shortest time between two emits of one key. */
  intervalMs: number;
  /** A monotonic clock in milliseconds, the one `setTimeout` follows. */
  now: () => number;
  emit: (value: T) => void;
}

interface KeyState<T> {
  /**
   * When the key's last value was emitted: the start of an immediate emit (so
   * its own duration does not count), or the time a held one was due (so a
   * timer firing late does not push the next emits later, one slip after another).
   */
  lastEmitAt: number;
  /** The latest value waiting for the interval to pass, when it is due, and its timer. */
  held: { value: T; dueAt: number; timer: NodeJS.Timeout } | null;
}

/**
 * Rate-limits snapshots per key to one emit per interval, the latest value
 * winning. A value goes out at once when the key's last emit is at least an
 * interval old, so a steady stream at the limit (10 depth pushes a second on
 * a 100 ms interval) passes without delay, and so does a push after a quiet
 * spell; only a faster stream waits, at most one interval, and its
 * intermediate values are dropped. Held values keep to a schedule one
 * interval apart, so a stream arriving a little early each time (timer
 * jitter) is held a little each time rather than slipping further behind.
 */
export class Coalescer<T> {
  private readonly keys = new Map<string, KeyState<T>>();

  constructor(private readonly options: CoalescerOptions<T>) {}

  offer(key: string, value: T): void {
    const now = this.options.now();
    const state = this.keys.get(key);
    if (!state) {
      this.keys.set(key, { lastEmitAt: now, held: null });
      this.options.emit(value);
      return;
    }
    if (state.held) {
      state.held.value = value;
      return;
    }
    const dueAt = state.lastEmitAt + this.options.intervalMs;
    if (now >= dueAt) {
      state.lastEmitAt = now;
      this.options.emit(value);
      return;
    }
    // Rounded up: a timer may not fire before the interval has passed.
    const timer = setTimeout(() => this.release(state), Math.ceil(dueAt - now));
    timer.unref();
    state.held = { value, dueAt, timer };
  }

  /** Cancels the held values; nothing is emitted after this. */
  close(): void {
    for (const state of this.keys.values()) if (state.held) clearTimeout(state.held.timer);
    this.keys.clear();
  }

  private release(state: KeyState<T>): void {
    if (!state.held) return;
    const { value, dueAt } = state.held;
    state.held = null;
    state.lastEmitAt = dueAt;
    this.options.emit(value);
  }
}
