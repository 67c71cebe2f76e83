import { vi } from 'vitest';
import type { MoneyCore } from './start.ts';

/**
 * Resolves once the session guard waits for SQL to catch up with a user
 * (`MoneyCore.caughtUp` is called): the read-your-writes tests hold the
 * projector and check that a user's next read waits there.
 */
export function waitingInTheGuard(core: MoneyCore): Promise<void> {
  const caughtUp = core.caughtUp.bind(core);
  return new Promise((resolve) => {
    vi.spyOn(core, 'caughtUp').mockImplementation((userId) => {
      resolve();
      return caughtUp(userId);
    });
  });
}
