import fs from 'node:fs/promises';
import {
  checkSegmentHeader,
  checksumMatches,
  MAX_PAYLOAD_BYTES,
  RECORD_HEADER_BYTES,
  type RecordHeader,
  readRecordHeader,
  readSeq,
  SEGMENT_HEADER_BYTES,
} from './format.ts';
import { readRange } from './fs-durable.ts';

/** A whole record whose checksum and sequence were checked, and where it starts in its segment. */
export interface ScannedRecord {
  seq: number;
  payload: Uint8Array;
  offset: number;
}

export type ScanProblemKind =
  | 'torn-header'
  | 'foreign-header'
  | 'short-record'
  | 'bad-length'
  | 'bad-checksum'
  | 'bad-sequence';

/** Where a segment stops making sense: the offset, the sequence expected there and what is wrong. */
export interface ScanProblem {
  kind: ScanProblemKind;
  offset: number;
  expectedSeq: number;
  detail: string;
  /** The record header found at offset, when the file holds one whole. */
  header: RecordHeader | null;
}

export interface ScanOutcome {
  /** Offset just past the last good record (the segment header's end when there is none). */
  end: number;
  /** Sequence of the last good record (firstSeq - 1 when there is none). */
  lastSeq: number;
  problem: ScanProblem | null;
}

/** Bytes read at a time: large enough that one read serves thousands of records. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads one segment file front to back in chunks, checking every record
 * (length bound, checksum, sequence = previous + 1 starting at firstSeq), and
 * yields the good ones in batches, one batch per chunk. It stops at the first
 * problem and leaves it in `outcome`; whether that problem is a torn tail or
 * corruption is the caller's call (recover.ts), since it depends on where the
 * segment is and on what follows. Payloads are views into a fresh buffer per
 * chunk, so a caller may keep them.
 */
export class SegmentScanner {
  outcome: ScanOutcome | null = null;

  constructor(
    readonly path: string,
    readonly firstSeq: number,
    /** Scan only up to this offset (the durable end of a segment being appended to). */
    private readonly limit?: number,
  ) {}

  async *batches(): AsyncGenerator<ScannedRecord[]> {
    const handle = await fs.open(this.path, 'r');
    try {
      const size = this.limit ?? (await handle.stat()).size;
      const header = await readRange(handle, 0, Math.min(size, SEGMENT_HEADER_BYTES));
      const verdict = checkSegmentHeader(header);
      if (verdict !== 'ok') {
        this.outcome = { end: 0, lastSeq: this.firstSeq - 1, problem: this.headerProblem(verdict) };
        return;
      }
      yield* this.records(handle, size);
    } finally {
      await handle.close();
    }
  }

  private headerProblem(verdict: 'torn' | 'foreign'): ScanProblem {
    return {
      kind: verdict === 'torn' ? 'torn-header' : 'foreign-header',
      offset: 0,
      expectedSeq: this.firstSeq,
      detail:
        verdict === 'torn' ? 'the segment header is incomplete' : 'not a journal segment of this format',
      header: null,
    };
  }

  private async *records(handle: fs.FileHandle, fileSize: number): AsyncGenerator<ScannedRecord[]> {
    let size = fileSize;
    let expectedSeq = this.firstSeq;
    let chunkStart = SEGMENT_HEADER_BYTES;
    let chunk = await readRange(handle, chunkStart, Math.min(size, chunkStart + CHUNK_BYTES));
    for (;;) {
      const batch: ScannedRecord[] = [];
      let at = 0;
      let problem: ScanProblem | null = null;
      // The hot loop of replay: no allocation but the record itself; recordProblem diagnoses the rare bad one.
      while (at + RECORD_HEADER_BYTES <= chunk.length) {
        const length = chunk.readUInt32LE(at + 4);
        const end = at + RECORD_HEADER_BYTES + length;
        if (length <= MAX_PAYLOAD_BYTES && end > chunk.length) break; // maybe whole once the next chunk is read
        if (
          length > MAX_PAYLOAD_BYTES ||
          !checksumMatches(chunk, at, length) ||
          readSeq(chunk, at + 8) !== expectedSeq
        ) {
          problem = recordProblem(chunk, at, chunkStart + at, expectedSeq);
          break;
        }
        batch.push({
          seq: expectedSeq,
          payload: chunk.subarray(at + RECORD_HEADER_BYTES, end),
          offset: chunkStart + at,
        });
        at = end;
        expectedSeq += 1;
      }
      if (batch.length > 0) yield batch;
      const chunkEnd = chunkStart + chunk.length;
      if (problem || chunkEnd >= size) {
        const end = chunkStart + at;
        const lastSeq = expectedSeq - 1;
        this.outcome = {
          end,
          lastSeq,
          problem: problem ?? (end < size ? shortRecord(chunk, at, end, expectedSeq) : null),
        };
        return;
      }
      const leftover = chunk.subarray(at);
      const needed =
        leftover.length >= RECORD_HEADER_BYTES
          ? RECORD_HEADER_BYTES + readRecordHeader(leftover, 0).length
          : 0;
      chunkStart += at;
      chunk = await readAfter(
        handle,
        leftover,
        chunkEnd,
        Math.min(size, chunkEnd + Math.max(CHUNK_BYTES, needed)),
      );
      // The file ended sooner than its size said (cut meanwhile): what was read is all there is.
      if (chunk.length === leftover.length) size = chunkEnd;
    }
  }
}

/** What is wrong with the whole record at `at` that failed a check. */
function recordProblem(chunk: Buffer, at: number, offset: number, expectedSeq: number): ScanProblem {
  const header = readRecordHeader(chunk, at);
  const found = (kind: ScanProblemKind, detail: string): ScanProblem => ({
    kind,
    offset,
    expectedSeq,
    detail,
    header,
  });
  if (header.length > MAX_PAYLOAD_BYTES)
    return found('bad-length', `length ${header.length} exceeds the bound`);
  if (!checksumMatches(chunk, at, header.length)) return found('bad-checksum', 'checksum mismatch');
  return found('bad-sequence', `carries sequence ${header.seq}`);
}

/** The problem of the bytes left at the end of a segment, too few for the record they start. */
function shortRecord(chunk: Buffer, at: number, offset: number, expectedSeq: number): ScanProblem {
  const whole = chunk.length - at >= RECORD_HEADER_BYTES;
  return {
    kind: 'short-record',
    offset,
    expectedSeq,
    detail: `${chunk.length - at} bytes left at the end, too few for a whole record`,
    header: whole ? readRecordHeader(chunk, at) : null,
  };
}

/** A fresh buffer holding leftover followed by the file's bytes [start, end), read in place (no second copy). */
async function readAfter(
  handle: fs.FileHandle,
  leftover: Buffer,
  start: number,
  end: number,
): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(leftover.length + end - start);
  leftover.copy(buffer, 0);
  let filled = leftover.length;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(
      buffer,
      filled,
      buffer.length - filled,
      start + filled - leftover.length,
    );
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
