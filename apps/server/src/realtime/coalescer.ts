export interface CoalescerOptions<T> {
  /** The shortest time between two emits of one key. */
  intervalMs: number;
  /** A monotonic clock in milliseconds, the one `setTimeout` follows. */
  now: () => number;
  emit: (value: T) => void;
}

interface KeyState<T> {
  /** When the key's last value was emitted (before the emit ran, so its own duration does not count). */
  lastEmitAt: number;
  /** The latest value waiting for the interval to pass, with its timer. */
  held: { value: T; timer: NodeJS.Timeout } | null;
}

/**
 * Rate-limits snapshots per key to one emit per interval, the latest value
 * winning. A value goes out at once when the key's last emit is at least an
 * interval old, so a steady stream at the limit (10 depth pushes a second on
 * a 100 ms interval) passes without delay, and so does a push after a quiet
 * spell; only a faster stream waits, at most one interval, and its
 * intermediate values are dropped.
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
    const wait = state.lastEmitAt + this.options.intervalMs - now;
    if (wait <= 0) {
      state.lastEmitAt = now;
      this.options.emit(value);
      return;
    }
    // Rounded up: a timer may not fire before the interval has passed.
    const timer = setTimeout(() => this.release(state), Math.ceil(wait));
    timer.unref();
    state.held = { value, timer };
  }

  /** Cancels the held values; nothing is emitted after this. */
  close(): void {
    for (const state of this.keys.values()) if (state.held) clearTimeout(state.held.timer);
    this.keys.clear();
  }

  private release(state: KeyState<T>): void {
    if (!state.held) return;
    const { value } = state.held;
    state.held = null;
    state.lastEmitAt = this.options.now();
    this.options.emit(value);
  }
}
