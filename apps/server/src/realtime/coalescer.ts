export interface CoalescerOptions<T> {
  /** The average time between two emits of one key at the most (100 ms: 10 a second). */
  intervalMs: number;
  /** A monotonic clock in milliseconds, the one `setTimeout` follows. */
  now: () => number;
  emit: (value: T) => void;
}

interface KeyState<T> {
  /**
   * The key's schedule: where the next emit would fall if emits kept exactly
   * one interval apart. It moves one interval per emit, from the emit's start
   * (so a slow fan-out does not count against the next one).
   */
  scheduledAt: number;
  /** The latest value waiting for room, with its timer. */
  held: { value: T; timer: NodeJS.Timeout } | null;
}

/**
 * Rate-limits snapshots per key to one emit per interval on average, the
 * latest value winning, with one emit of slack: a value may go out up to one
 * interval ahead of the key's schedule. So a steady stream at the limit (10
 * depth pushes a second on 100 ms) passes without delay even when one push
 * comes late and the next one on time; with no slack that one late push
 * would hold every later push back by as much, for as long as the stream
 * keeps up the pace. A faster stream waits (at most one interval) and its
 * intermediate values are dropped. The cost of the slack: two emits may come
 * back to back (the second after a gap of at least one interval), so a
 * 1-second window holds at most 11 emits, and the long-run rate stays at one
 * per interval.
 */
export class Coalescer<T> {
  private readonly keys = new Map<string, KeyState<T>>();

  constructor(private readonly options: CoalescerOptions<T>) {}

  offer(key: string, value: T): void {
    const now = this.options.now();
    let state = this.keys.get(key);
    if (!state) {
      state = { scheduledAt: now, held: null };
      this.keys.set(key, state);
    }
    if (state.held) {
      state.held.value = value;
      return;
    }
    const roomAt = state.scheduledAt - this.options.intervalMs;
    if (now >= roomAt) {
      this.emit(state, now, value);
      return;
    }
    // Rounded up: a timer may not fire before there is room.
    const timer = setTimeout(() => this.release(state), Math.ceil(roomAt - now));
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
    this.emit(state, this.options.now(), value);
  }

  private emit(state: KeyState<T>, now: number, value: T): void {
    state.scheduledAt = Math.max(now, state.scheduledAt) + this.options.intervalMs;
    this.options.emit(value);
  }
}
