import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalClosedError, JournalFailedError, JournalTruncatedError, openFileJournal } from './index.ts';
import { asText, collect, segmentFiles, text, useTempDirs } from './test-support.ts';

const tempDir = useTempDirs();

describe('file journal', () => {
  it('reads back what was appended, from any sequence', async () => {
    const journal = await openFileJournal(await tempDir());
    expect(journal.lastSequence()).toBe(0);
    expect(await journal.append([text('one')])).toBe(1);
    expect(await journal.append([text('two'), new Uint8Array(0), text('four')])).toBe(4);
    const all = await collect(journal.read(0));
    expect(all.map((record) => [record.seq, asText(record.payload)])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, ''],
      [4, 'four'],
    ]);
    expect((await collect(journal.read(2))).map((record) => record.seq)).toEqual([3, 4]);
    expect(await collect(journal.read(4))).toEqual([]);
    await journal.close();
  });

  it('keeps the order of the calls and leaves no gap with many concurrent appenders', async () => {
    const journal = await openFileJournal(await tempDir());
    const calls = Array.from({ length: 300 }, (_, call) =>
      Array.from({ length: 1 + (call % 3) }, (_, part) => text(`${call}.${part}`)),
    );
    const lastSeqs = await Promise.all(calls.map((payloads) => journal.append(payloads)));
    const records = await collect(journal.read(0));
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect(records.map((record) => asText(record.payload))).toEqual(
      calls.flat().map((payload) => asText(payload)),
    );
    let expectedLast = 0;
    for (const [call, payloads] of calls.entries()) {
      expectedLast += payloads.length;
      expect(lastSeqs[call]).toBe(expectedLast);
    }
    await journal.close();
  });

  it('writes and syncs once for everything queued while a write is in flight', async () => {
    const journal = await openFileJournal(await tempDir());
    const sameTurn = Array.from({ length: 100 }, (_, index) => journal.append([text(`a${index}`)]));
    await Promise.all(sameTurn);
    expect(journal.stats()).toMatchObject({ records: 100, writes: 1, syncs: 1 });

    const first = journal.append([text('first')]);
    // A few microtask turns: the first write has started and waits on the disk.
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
    const queuedMeanwhile = Array.from({ length: 99 }, (_, index) => journal.append([text(`b${index}`)]));
    await Promise.all([first, ...queuedMeanwhile]);
    expect(journal.stats()).toMatchObject({ records: 200, writes: 3, syncs: 3 });
    await journal.close();
  });

  it('answers an empty append with the last sequence once it is durable', async () => {
    const journal = await openFileJournal(await tempDir());
    const pending = journal.append([text('x'), text('y')]);
    expect(await journal.append([])).toBe(2);
    expect(await pending).toBe(2);
    await journal.close();
  });

  it('continues the sequence after a reopen', async () => {
    const dir = await tempDir();
    const first = await openFileJournal(dir);
    await first.append([text('a'), text('b'), text('c')]);
    await first.close();
    await expect(first.append([text('late')])).rejects.toBeInstanceOf(JournalClosedError);

    const second = await openFileJournal(dir);
    expect(second.recovery).toMatchObject({ records: 3, firstSequence: 1, lastSequence: 3, tornTail: null });
    expect(await second.append([text('d')])).toBe(4);
    expect((await collect(second.read(0))).map((record) => asText(record.payload))).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    await second.close();
  });

  it('rolls over to a segment named by its first sequence and reads across segments', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(dir, { segmentBytes: 170 });
    for (let index = 1; index <= 20; index += 1)
      await journal.append([text(`record ${String(index).padStart(2)}`)]);
    // 16-byte header + 20-byte record headers + 9-byte payloads: 5 records a segment.
    expect(await segmentFiles(dir)).toEqual(
      [1, 6, 11, 16].map((seq) => `${String(seq).padStart(20, '0')}.seg`),
    );
    expect((await collect(journal.read(0))).map((record) => record.seq)).toEqual(range(1, 20));
    expect((await collect(journal.read(7))).map((record) => record.seq)).toEqual(range(8, 20));
    const batches = await collect(journal.readBatches(0));
    expect(batches.map((batch) => batch.length)).toEqual([5, 5, 5, 5]);
    await journal.close();

    const reopened = await openFileJournal(dir, { segmentBytes: 170 });
    expect(reopened.recovery).toMatchObject({ segments: 4, records: 20, lastSequence: 20 });
    expect(await reopened.append([text('next')])).toBe(21);
    await reopened.close();
  });

  it('puts a write larger than a segment whole into a new segment', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(dir, { segmentBytes: 100 });
    await journal.append([text('small')]);
    await journal.append(Array.from({ length: 10 }, (_, index) => text(`big ${index}`)));
    expect((await segmentFiles(dir)).length).toBe(2);
    expect((await collect(journal.read(0))).length).toBe(11);
    await journal.close();
  });

  it('drops whole segments at or below a sequence, never the one being written', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(dir, { segmentBytes: 170 });
    for (let index = 1; index <= 20; index += 1)
      await journal.append([text(`record ${String(index).padStart(2)}`)]);
    await journal.truncateBefore(12);
    expect(await segmentFiles(dir)).toEqual([11, 16].map((seq) => `${String(seq).padStart(20, '0')}.seg`));
    await expect(collect(journal.read(5))).rejects.toBeInstanceOf(JournalTruncatedError);
    expect((await collect(journal.read(10))).map((record) => record.seq)).toEqual(range(11, 20));
    await journal.truncateBefore(1_000);
    expect(await segmentFiles(dir)).toEqual([`${String(16).padStart(20, '0')}.seg`]);
    await journal.close();

    const reopened = await openFileJournal(dir, { segmentBytes: 170 });
    expect(reopened.recovery).toMatchObject({ firstSequence: 16, lastSequence: 20 });
    expect(await reopened.append([text('next')])).toBe(21);
    expect((await collect(reopened.read(15))).map((record) => record.seq)).toEqual(range(16, 21));
    await reopened.close();
  });

  it('reads only what was durable when the read began', async () => {
    const journal = await openFileJournal(await tempDir());
    await journal.append([text('a'), text('b')]);
    const seen: number[] = [];
    for await (const record of journal.read(0)) {
      seen.push(record.seq);
      await journal.append([text('during')]);
    }
    expect(seen).toEqual([1, 2]);
    expect(journal.lastSequence()).toBe(4);
    await journal.close();
  });

  it('creates the directory it is given', async () => {
    const dir = path.join(await tempDir(), 'nested', 'journal');
    const journal = await openFileJournal(dir);
    await journal.append([text('a')]);
    await journal.close();
    expect(await fs.readdir(dir)).toEqual([`${String(1).padStart(20, '0')}.seg`]);
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

describe('file journal after a failed write', () => {
  it('rejects the failed batch and every later append until reopened', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(dir, { segmentBytes: 64 });
    await journal.append([text('first record')]);
    // The next write needs a new segment, in a directory that is gone: a real failure.
    await fs.rm(dir, { recursive: true });
    await expect(journal.append([text('second record')])).rejects.toBeInstanceOf(JournalFailedError);
    await expect(journal.append([text('third')])).rejects.toBeInstanceOf(JournalFailedError);
    expect(journal.lastSequence()).toBe(1);
    await journal.close();
  });
});
