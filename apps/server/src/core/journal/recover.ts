import fs from 'node:fs/promises';
import path from 'node:path';
import { JournalCorruptError } from './errors.ts';
import {
  checksumMatches,
  MAX_PAYLOAD_BYTES,
  parseSegmentFileName,
  RECORD_HEADER_BYTES,
  readRecordHeader,
  readSeq,
} from './format.ts';
import { readRange, syncDirectory } from './fs-durable.ts';
import { type ScannedRecord, type ScanProblem, SegmentScanner } from './segment-scan.ts';

/** One segment as the journal keeps track of it. */
export interface SegmentState {
  name: string;
  firstSeq: number;
  /** firstSeq - 1 while it holds no record. */
  lastSeq: number;
  /** Offset just past its last durable record. */
  end: number;
}

/** The damaged end of the last segment that opening cuts off (docs/core.md, "Opening: torn tail or corruption"). */
export interface TornTail {
  file: string;
  offset: number;
  bytesCut: number;
  /** The sequence the first cut record would have had. */
  seq: number;
  reason: string;
  /** The segment's own header is incomplete: the whole file goes. */
  removesFile: boolean;
}

export interface JournalExamination {
  segments: SegmentState[];
  records: number;
  /** Sequence of the oldest record held (lastSeq + 1 when none is). */
  firstSeq: number;
  lastSeq: number;
  tornTail: TornTail | null;
}

/** The segment files of dir, oldest first. */
export async function listSegments(dir: string): Promise<{ name: string; firstSeq: number }[]> {
  const segments: { name: string; firstSeq: number }[] = [];
  for (const name of await fs.readdir(dir)) {
    const firstSeq = parseSegmentFileName(name);
    if (firstSeq !== null) segments.push({ name, firstSeq });
  }
  return segments.sort((a, b) => a.firstSeq - b.firstSeq);
}

/**
 * Reads and checks every record of the journal in dir without changing
 * anything: sequences run on without a gap within and across segments, every
 * checksum holds. A damaged end of the last segment that is a torn write is
 * answered as `tornTail`; any other damage throws JournalCorruptError.
 * onRecords sees every good record (the CLI's inspect and verify use it).
 */
export async function examineJournal(
  dir: string,
  onRecords?: (segment: string, records: ScannedRecord[]) => void,
): Promise<JournalExamination> {
  const listed = await listSegments(dir);
  const segments: SegmentState[] = [];
  let records = 0;
  let tornTail: TornTail | null = null;
  for (const [index, { name, firstSeq }] of listed.entries()) {
    const previous = segments.at(-1);
    if (previous && firstSeq !== previous.lastSeq + 1) {
      throw new JournalCorruptError(
        name,
        0,
        previous.lastSeq + 1,
        `the segment starts at sequence ${firstSeq}`,
      );
    }
    const isLast = index === listed.length - 1;
    const scanner = new SegmentScanner(path.join(dir, name), firstSeq);
    for await (const batch of scanner.batches()) {
      records += batch.length;
      onRecords?.(name, batch);
    }
    const { end, lastSeq, problem } = scanner.outcome!;
    if (problem) {
      if (!isLast) throw corrupt(name, problem, 'and later segments follow it');
      tornTail = await tornTailOrThrow(dir, name, problem);
      if (tornTail.removesFile) break;
    } else if (!isLast && lastSeq < firstSeq) {
      throw new JournalCorruptError(
        name,
        end,
        firstSeq,
        'the segment holds no record and later segments follow it',
      );
    }
    segments.push({ name, firstSeq, lastSeq, end });
  }
  const lastSeq = segments.at(-1)?.lastSeq ?? 0;
  return { segments, records, firstSeq: segments[0]?.firstSeq ?? lastSeq + 1, lastSeq, tornTail };
}

/** Cuts what examineJournal found torn, durably (the file's new length, or its removal, is synced). */
export async function cutTornTail(dir: string, tail: TornTail): Promise<void> {
  const file = path.join(dir, tail.file);
  if (tail.removesFile) {
    await fs.rm(file);
    await syncDirectory(dir);
    return;
  }
  const handle = await fs.open(file, 'r+');
  try {
    await handle.truncate(tail.offset);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function corrupt(file: string, problem: ScanProblem, why: string): JournalCorruptError {
  return new JournalCorruptError(file, problem.offset, problem.expectedSeq, `${problem.detail}, ${why}`);
}

/**
 * A problem in the last segment is a torn tail unless a later write reached
 * the disk after it: the write holding the damaged record was then
 * acknowledged (the next write only starts once the previous one is synced).
 */
async function tornTailOrThrow(dir: string, file: string, problem: ScanProblem): Promise<TornTail> {
  if (problem.kind === 'foreign-header' || problem.kind === 'bad-sequence') {
    throw corrupt(file, problem, 'which a torn write cannot leave');
  }
  const handle = await fs.open(path.join(dir, file), 'r');
  let rest: Buffer;
  try {
    rest = await readRange(handle, problem.offset, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
  const later = findRecordOfLaterWrite(rest, problem.expectedSeq);
  if (later) {
    throw corrupt(
      file,
      problem,
      `yet record ${later.seq} of a later write follows at byte ${problem.offset + later.at}, so this is not a torn tail`,
    );
  }
  return {
    file,
    offset: problem.offset,
    bytesCut: rest.length,
    seq: problem.expectedSeq,
    reason: problem.detail,
    removesFile: problem.kind === 'torn-header',
  };
}

/**
 * Looks at every byte position after the damaged record (which starts `rest`)
 * for a whole record with a good checksum that belongs to a write begun after
 * the damaged record's sequence.
 */
function findRecordOfLaterWrite(rest: Buffer, damagedSeq: number): { seq: number; at: number } | null {
  for (let at = 1; at + RECORD_HEADER_BYTES <= rest.length; at += 1) {
    const seq = readSeq(rest, at + 8);
    if (seq <= damagedSeq || seq > damagedSeq + 0xffff_ffff) continue;
    const { length, batchIndex } = readRecordHeader(rest, at);
    if (length > MAX_PAYLOAD_BYTES || at + RECORD_HEADER_BYTES + length > rest.length) continue;
    if (seq - batchIndex > damagedSeq && checksumMatches(rest, at, length)) return { seq, at };
  }
  return null;
}
