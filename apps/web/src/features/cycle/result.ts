import type { CyclePosition } from '@halyard/protocol';
import { CYCLE_RESULT_POLL } from '@halyard/rules';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Spec §4: when a position's countdown ends, its result is asked for, then up
 * to 4 more times 1 s apart, until the server has settled it (a draw settles
 * with zero profit, so `state` decides, not `last_profit`). A failed ask
 * counts as not settled yet. Null when it is still open after the last ask.
 * `fetchPosition` is `/cycle/positionById` (api.ts), passed in so this stays testable.
 */
export async function pollSettled(
  orderid: string,
  fetchPosition: (orderid: string) => Promise<CyclePosition[]>,
): Promise<CyclePosition | null> {
  for (let attempt = 0; attempt <= CYCLE_RESULT_POLL.repeats; attempt += 1) {
    if (attempt > 0) await wait(CYCLE_RESULT_POLL.intervalMs);
    const [position] = await fetchPosition(orderid).catch(() => []);
    if (position?.state === 'settled') return position;
  }
  return null;
}

/**
 * Spec §4: after a finish the history is fetched again 4 times, 1 s apart, so
 * the newly settled order appears even when settlement lands a little after
 * the countdown. A failed fetch does not stop the rest.
 */
export async function refreshHistory(refetch: () => Promise<unknown>): Promise<void> {
  for (let attempt = 0; attempt < CYCLE_RESULT_POLL.repeats; attempt += 1) {
    await wait(CYCLE_RESULT_POLL.intervalMs);
    await refetch().catch(() => undefined);
  }
}
