import { describe, expect, it } from 'vitest';
import { childBundle } from '../../child-bundles.ts';
import { openFileJournal } from './index.ts';
import { asText, runUntilKilled, useTempDirs } from './test-support.ts';

const tempDir = useTempDirs();
const ROUNDS = 16;

/** A small deterministic generator, so a failing run can be repeated (the seed is in the test name). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('kill -9 while appending', () => {
  const seed = 20_261_126;
  it(`keeps every acknowledged record, in order and without gaps, across ${ROUNDS} kills (seed ${seed})`, async () => {
    const random = seeded(seed);
    const child = await childBundle('src/core/journal/sigkill-child.ts');
    const dir = await tempDir();
    let everAcknowledged = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const acknowledged = (
        await runUntilKilled(child, [dir], (line) => /^\d+$/.test(line), 1 + Math.floor(random() * 200))
      ).map(Number);
      everAcknowledged = Math.max(everAcknowledged, ...acknowledged);

      const journal = await openFileJournal(dir, { segmentBytes: 4096 });
      expect(journal.lastSequence(), `round ${round}`).toBeGreaterThanOrEqual(everAcknowledged);
      let expected = 1;
      for await (const record of journal.read(0)) {
        expect(record.seq).toBe(expected);
        expect(JSON.parse(asText(record.payload))).toHaveProperty('writer');
        expected += 1;
      }
      expect(expected - 1).toBe(journal.lastSequence());
      everAcknowledged = journal.lastSequence();
      await journal.close();
    }
  });
});
