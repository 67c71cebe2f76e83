import { openFileJournal } from './file-journal.ts';

/**
 * The process sigkill.test.ts kills: opens the journal in argv[2] (small
 * segments, so kills also land around rollovers), then appends from eight
 * concurrent loops forever, printing each acknowledged sequence on its own
 * line. Writes to a pipe are synchronous on Linux, so a printed line is one the
 * journal acknowledged before the kill.
 */
const dir = process.argv[2];
if (!dir) throw new Error('usage: sigkill-child.ts DIR');
const journal = await openFileJournal(dir, { segmentBytes: 4096 });
const encoder = new TextEncoder();

async function appendForever(writer: number): Promise<never> {
  for (let count = 0; ; count += 1) {
    const payloads = Array.from({ length: 1 + (count % 3) }, (_, part) =>
      encoder.encode(JSON.stringify({ writer, count, part })),
    );
    const last = await journal.append(payloads);
    process.stdout.write(`${last}\n`);
  }
}

process.stdout.write(`open ${journal.lastSequence()}\n`);
await Promise.all(Array.from({ length: 8 }, (_, writer) => appendForever(writer)));
