/**
 * Test-only Halyard server (never shipped): the real startup (apps/server
 * src/start.ts, as main.ts runs it) on a clock a browser test moves forward.
 * Each SIGUSR2 jumps the server's time forward by E2E_CLOCK_STEP_MS; between
 * jumps it runs at real speed, so the schedulers (fiat expiry every second,
 * the demo reviewer) see the jump on their next tick. fiat-expiry.spec.ts
 * starts it on its own port and data directory.
 */
import type { Clock } from '../../apps/server/src/clock.ts';
import { startServer } from '../../apps/server/src/start.ts';

const stepMs = Number(process.env.E2E_CLOCK_STEP_MS);
if (!Number.isSafeInteger(stepMs) || stepMs <= 0) {
  throw new Error('E2E_CLOCK_STEP_MS: how far one SIGUSR2 moves the clock, in ms');
}

let offsetMs = 0;
const jumpingClock: Clock = { now: () => Date.now() + offsetMs };
process.on('SIGUSR2', () => {
  offsetMs += stepMs;
});

await startServer(jumpingClock);
