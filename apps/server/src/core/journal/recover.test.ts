import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORD_HEADER_BYTES, SEGMENT_HEADER_BYTES, segmentFileName, segmentHeader } from './format.ts';
import { JournalCorruptError, openFileJournal } from './index.ts';
import { asText, collect, segmentFiles, text, useTempDirs } from './test-support.ts';

const tempDir = useTempDirs();
const PAYLOAD = 'payload-0123456789';
const RECORD_BYTES = RECORD_HEADER_BYTES + PAYLOAD.length;
const FIRST_SEGMENT = segmentFileName(1);

/** A journal of `count` records, each appended (and so written) on its own; answers its single segment's bytes. */
async function journalOf(dir: string, count: number): Promise<Buffer> {
  const journal = await openFileJournal(dir);
  for (let index = 0; index < count; index += 1) await journal.append([text(PAYLOAD)]);
  await journal.close();
  return fs.readFile(path.join(dir, FIRST_SEGMENT));
}

function recordStart(seq: number): number {
  return SEGMENT_HEADER_BYTES + (seq - 1) * RECORD_BYTES;
}

function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] ?? 0) ^ 0x5a;
  return copy;
}

async function openRejection(dir: string): Promise<JournalCorruptError> {
  const error = await openFileJournal(dir).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(JournalCorruptError);
  return error as JournalCorruptError;
}

describe('opening a journal after a crash', () => {
  it('cuts a torn last record, whatever byte the write stopped at, and continues the sequence', async () => {
    const original = await journalOf(await tempDir(), 3);
    const lastStart = recordStart(3);
    expect(original.length).toBe(lastStart + RECORD_BYTES);
    for (let cut = lastStart + 1; cut < original.length; cut += 1) {
      const dir = await tempDir();
      await fs.writeFile(path.join(dir, FIRST_SEGMENT), original.subarray(0, cut));
      const journal = await openFileJournal(dir);
      expect(journal.recovery.tornTail, `cut at ${cut}`).toMatchObject({
        file: FIRST_SEGMENT,
        offset: lastStart,
        bytesCut: cut - lastStart,
        seq: 3,
      });
      expect((await fs.stat(path.join(dir, FIRST_SEGMENT))).size).toBe(lastStart);
      expect(await journal.append([text('again')])).toBe(3);
      expect((await collect(journal.read(0))).map((record) => asText(record.payload))).toEqual([
        PAYLOAD,
        PAYLOAD,
        'again',
      ]);
      await journal.close();
    }
  });

  it('cuts a last record damaged at any byte, as a torn write leaves it', async () => {
    const original = await journalOf(await tempDir(), 3);
    for (let at = recordStart(3); at < original.length; at += 1) {
      const dir = await tempDir();
      await fs.writeFile(path.join(dir, FIRST_SEGMENT), flipped(original, at));
      const journal = await openFileJournal(dir);
      expect(journal.recovery.tornTail, `byte ${at}`).toMatchObject({ offset: recordStart(3), seq: 3 });
      expect(journal.lastSequence()).toBe(2);
      await journal.close();
    }
  });

  it('cuts a torn last write even when its later records reached the disk', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(dir);
    await journal.append([text(PAYLOAD), text(PAYLOAD)]);
    await journal.append([text(PAYLOAD), text(PAYLOAD), text(PAYLOAD)]);
    await journal.close();
    const file = path.join(dir, FIRST_SEGMENT);
    await fs.writeFile(file, flipped(await fs.readFile(file), recordStart(3) + RECORD_HEADER_BYTES));
    const reopened = await openFileJournal(dir);
    expect(reopened.recovery.tornTail).toMatchObject({
      offset: recordStart(3),
      seq: 3,
      bytesCut: 3 * RECORD_BYTES,
    });
    expect(reopened.lastSequence()).toBe(2);
    await reopened.close();
  });

  it('cuts zeros or garbage where a last write never landed', async () => {
    const original = await journalOf(await tempDir(), 2);
    for (const tail of [
      Buffer.alloc(4096),
      Buffer.from('\u0007 half-written garbage of no format at all \u0001'),
    ]) {
      const dir = await tempDir();
      await fs.writeFile(path.join(dir, FIRST_SEGMENT), Buffer.concat([original, tail]));
      const journal = await openFileJournal(dir);
      expect(journal.recovery.tornTail).toMatchObject({
        offset: original.length,
        seq: 3,
        bytesCut: tail.length,
      });
      expect(await journal.append([text('c')])).toBe(3);
      await journal.close();
    }
  });

  it('refuses to open when a record with later writes after it is damaged at any byte, naming file, offset and sequence', async () => {
    const original = await journalOf(await tempDir(), 3);
    for (let at = recordStart(2); at < recordStart(3); at += 1) {
      const dir = await tempDir();
      await fs.writeFile(path.join(dir, FIRST_SEGMENT), flipped(original, at));
      const error = await openRejection(dir);
      expect({ file: error.file, offset: error.offset, seq: error.seq }, `byte ${at}`).toEqual({
        file: FIRST_SEGMENT,
        offset: recordStart(2),
        seq: 2,
      });
      expect(error.message).toContain(`${FIRST_SEGMENT} at byte ${recordStart(2)}, record 2`);
      expect(await fs.readFile(path.join(dir, FIRST_SEGMENT))).toEqual(flipped(original, at));
    }
  });

  it('refuses to open when the last record of an earlier segment is damaged', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(dir, { segmentBytes: 2 * RECORD_BYTES + SEGMENT_HEADER_BYTES });
    for (let index = 0; index < 5; index += 1) await journal.append([text(PAYLOAD)]);
    await journal.close();
    expect(await segmentFiles(dir)).toEqual([1, 3, 5].map(segmentFileName));
    const file = path.join(dir, segmentFileName(3));
    await fs.writeFile(file, flipped(await fs.readFile(file), (await fs.stat(file)).size - 1));
    const error = await openRejection(dir);
    expect(error).toMatchObject({
      file: segmentFileName(3),
      seq: 4,
      offset: SEGMENT_HEADER_BYTES + RECORD_BYTES,
    });
  });

  it('refuses to open when a segment is missing between others', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(dir, { segmentBytes: 2 * RECORD_BYTES + SEGMENT_HEADER_BYTES });
    for (let index = 0; index < 5; index += 1) await journal.append([text(PAYLOAD)]);
    await journal.close();
    await fs.rm(path.join(dir, segmentFileName(3)));
    const error = await openRejection(dir);
    expect(error).toMatchObject({ file: segmentFileName(5), seq: 3 });
    expect(error.message).toContain('starts at sequence 5');
  });

  it('refuses a record whose checksum holds but whose sequence is out of order', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(dir, { segmentBytes: 2 * RECORD_BYTES + SEGMENT_HEADER_BYTES });
    for (let index = 0; index < 4; index += 1) await journal.append([text(PAYLOAD)]);
    await journal.close();
    // The second segment, under the name of the first: its records carry 3 and 4 where 1 is expected.
    await fs.rename(path.join(dir, segmentFileName(3)), path.join(dir, segmentFileName(0)));
    const error = await openRejection(dir);
    expect(error).toMatchObject({ file: segmentFileName(0), seq: 0 });
    expect(error.message).toContain('carries sequence 3');
  });

  it('removes a last segment whose header a crash left incomplete', async () => {
    const dir = await tempDir();
    await journalOf(dir, 2);
    await fs.writeFile(path.join(dir, segmentFileName(3)), segmentHeader().subarray(0, 5));
    const journal = await openFileJournal(dir);
    expect(journal.recovery.tornTail).toMatchObject({ file: segmentFileName(3), removesFile: true });
    expect(await segmentFiles(dir)).toEqual([FIRST_SEGMENT]);
    expect(await journal.append([text('c')])).toBe(3);
    await journal.close();
  });

  it('refuses a segment that is not of this format', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, FIRST_SEGMENT), Buffer.from('not a journal at all, just text'));
    const error = await openRejection(dir);
    expect(error).toMatchObject({ file: FIRST_SEGMENT, offset: 0, seq: 1 });
  });
});
