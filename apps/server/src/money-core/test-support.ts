import { vi } from 'vitest';
import type { MoneyCore } from './start.ts';

/**
 * The read-your-writes check of a module on the core: `writes` run with the
 * projector held where the sequencer stands, so SQL holds none of them; then
 * `reads` start while SQL still lags, and the hold ends once they wait in the
 * session guard (or have answered, when there is no gate). Answers what the
 * reads answered, which must show the writes.
 */
export async function readsRightAfterWrites<T>(
  core: MoneyCore,
  writes: () => Promise<void>,
  reads: () => Promise<T>,
): Promise<T> {
  const { answered } = await core.projector.holdAt(core.sequencer.lastSequence(), 10_000, async () => {
    await writes();
    const guarded = waitingInTheGuard(core);
    const answered = reads();
    await Promise.race([guarded, answered]);
    // Wrapped: the hold ends when this returns, not when the reads answer.
    return { answered };
  });
  return answered;
}

/** Resolves once the session guard waits for SQL to catch up with a user (`MoneyCore.caughtUp` is called). */
function waitingInTheGuard(core: MoneyCore): Promise<void> {
  const caughtUp = core.caughtUp.bind(core);
  return new Promise((resolve) => {
    vi.spyOn(core, 'caughtUp').mockImplementation((userId) => {
      resolve();
      return caughtUp(userId);
    });
  });
}

/**
 * Resolves once SQL holds every command applied so far, for a test that
 * reads SQL directly, past the session guard (on SQL, at once): on the core
 * a user's command may be answered before SQL holds it.
 */
export async function sqlCaughtUp(core: MoneyCore | null): Promise<void> {
  if (core) await core.readable(core.sequencer.lastSequence());
}
