import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openFileJournal } from './index.ts';
import { asText, collect, text, useTempDirs } from './test-support.ts';

const tempDir = useTempDirs();

/**
 * Whatever the segment size and however the records were grouped into calls
 * (some at once, some one after another), a reopened journal reads back
 * exactly the records after any sequence, in order.
 */
describe('file journal, any segment size and any grouping of appends', () => {
  it('reads back the records after any sequence, before and after a reopen', async () => {
    const rounds = fc.array(
      fc.array(fc.array(fc.string({ maxLength: 40 }), { maxLength: 4 }), { maxLength: 6 }),
      {
        minLength: 1,
        maxLength: 6,
      },
    );
    await fc.assert(
      fc.asyncProperty(
        rounds,
        fc.integer({ min: 24, max: 400 }),
        fc.nat(),
        async (calls, segmentBytes, pick) => {
          const dir = await tempDir();
          const journal = await openFileJournal(dir, { segmentBytes });
          const written: string[] = [];
          for (const together of calls) {
            await Promise.all(together.map((payloads) => journal.append(payloads.map(text))));
            written.push(...together.flat());
          }
          const after = written.length === 0 ? 0 : pick % (written.length + 1);
          const expected = written.slice(after);
          expect((await collect(journal.read(after))).map((record) => asText(record.payload))).toEqual(
            expected,
          );
          await journal.close();

          const reopened = await openFileJournal(dir, { segmentBytes });
          expect(reopened.lastSequence()).toBe(written.length);
          const records = await collect(reopened.read(after));
          expect(records.map((record) => record.seq)).toEqual(expected.map((_, index) => after + index + 1));
          expect(records.map((record) => asText(record.payload))).toEqual(expected);
          await reopened.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
