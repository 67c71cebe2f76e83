/** Time is passed in, never read ad hoc, so tests can move it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock a test moves by hand. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(ms: number): void {
    this.current = ms;
  }
}

export interface SerialTimer {
  start(): void;
  /** Stops the timer and waits for the run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `work` every `everyMs`, one run at a time: a slow run is not overtaken
 * by the next, and `stop` waits for the one in progress. For schedulers that
 * catch up with the clock (expiries, releases).
 */
export function serialTimer(
  work: () => Promise<void>,
  everyMs: number,
  onError: (error: unknown) => void,
): SerialTimer {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  return {
    start() {
      if (timer) return;
      timer = setInterval(() => {
        running = running.then(work).catch(onError);
      }, everyMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
