import { describe, expect, it } from 'vitest';
import { fastEventLog, runAgainstReference } from '../test-support/oracle-run.ts';

/**
 * The fast book against the reference book on a seeded random command stream
 * (see test-support/oracle-run.ts for what is checked after every command), and
 * the same events again on a replay. MATCHING_ORACLE_COMMANDS overrides the
 * stream length; bench/matching-oracle.ts runs a million.
 */
const COMMAND_COUNT = Number(process.env.MATCHING_ORACLE_COMMANDS ?? 200_000);
const SEED = 20_261_123;
// About 50 µs a command on a busy two-core machine; generous room for long overridden runs.
const TIMEOUT_MS = Math.max(60_000, COMMAND_COUNT * 0.3);

describe(`the fast book against the reference book (${COMMAND_COUNT} seeded commands)`, () => {
  it(
    'produces the same events and depth, keeps its invariants and conserves every size',
    () => {
      const summary = runAgainstReference({
        seed: SEED,
        commandCount: COMMAND_COUNT,
        restoreEvery: 10_000,
        depthEvery: 1_000,
      });
      expect(summary.commands).toBe(COMMAND_COUNT);
      // The stream must actually exercise matching, not just rest and cancel.
      expect(summary.trades).toBeGreaterThan(COMMAND_COUNT / 10);
    },
    TIMEOUT_MS,
  );

  it(
    'gives the same events when the same stream is replayed',
    () => {
      const first = fastEventLog(SEED, COMMAND_COUNT);
      const replay = fastEventLog(SEED, COMMAND_COUNT);
      expect(replay).toHaveLength(COMMAND_COUNT);
      expect(replay.findIndex((text, index) => text !== first[index])).toBe(-1);
    },
    TIMEOUT_MS,
  );
});
