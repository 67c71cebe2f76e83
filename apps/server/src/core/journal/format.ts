import { crc32 } from 'node:zlib';

/**
 * The journal's bytes on disk (docs/core.md, "The journal on disk").
 *
 * A segment file is a 16-byte header followed by records:
 *
 *   header:  magic "HLYDJRNL" (8 bytes) | format version u32 LE | reserved u32 (0)
 *   record:  crc32 u32 LE | length u32 LE | seq u64 LE | index in batch u32 LE | payload
 *
 * The checksum is CRC-32 (IEEE, zlib's, native in node:zlib) of the bytes that
 * follow it: length, seq, index and payload. Putting it first makes the checked
 * range one contiguous slice, and covering the length means a damaged length
 * is caught whenever the record it describes still fits in the file.
 *
 * The index in batch (0 for the first record of a group-commit write) tells
 * recovery which records were written by the same write: a damaged record
 * followed only by records of its own write is a torn tail (that write was
 * never acknowledged), one followed by a record of a later write is
 * corruption of acknowledged data.
 */
export const SEGMENT_MAGIC = Buffer.from('HLYDJRNL', 'latin1');
export const FORMAT_VERSION = 1;
export const SEGMENT_HEADER_BYTES = 16;
export const RECORD_HEADER_BYTES = 20;
/** A bound on one payload, so a damaged length field is not taken for a huge record. */
export const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

const SEGMENT_NAME = /^(\d{20})\.seg$/;

/** Segment files are named by their first sequence, zero-padded so names sort like numbers. */
export function segmentFileName(firstSeq: number): string {
  return `${String(firstSeq).padStart(20, '0')}.seg`;
}

/** The first sequence a segment file name carries, or null for any other file. */
export function parseSegmentFileName(name: string): number | null {
  const match = SEGMENT_NAME.exec(name);
  return match ? Number(match[1]) : null;
}

export function segmentHeader(): Buffer {
  const header = Buffer.alloc(SEGMENT_HEADER_BYTES);
  SEGMENT_MAGIC.copy(header, 0);
  header.writeUInt32LE(FORMAT_VERSION, 8);
  return header;
}

/** Total bytes the records of these payloads take on disk. */
export function encodedSize(payloads: readonly Uint8Array[]): number {
  let total = 0;
  for (const payload of payloads) total += RECORD_HEADER_BYTES + payload.length;
  return total;
}

/** Writes the payloads of one write as records numbered from firstSeq into target at offset; answers the end offset. */
export function encodeRecords(
  target: Buffer,
  offset: number,
  firstSeq: number,
  payloads: readonly Uint8Array[],
): number {
  let at = offset;
  let seq = firstSeq;
  for (const payload of payloads) {
    target.writeUInt32LE(payload.length, at + 4);
    writeSeq(target, at + 8, seq);
    target.writeUInt32LE(seq - firstSeq, at + 16);
    target.set(payload, at + RECORD_HEADER_BYTES);
    const end = at + RECORD_HEADER_BYTES + payload.length;
    target.writeUInt32LE(crc32(target.subarray(at + 4, end)), at);
    at = end;
    seq += 1;
  }
  return at;
}

/** Sequences are JavaScript integers (< 2^53), stored as u64 LE. */
export function writeSeq(target: Buffer, offset: number, seq: number): void {
  target.writeUInt32LE(seq % 0x1_0000_0000, offset);
  target.writeUInt32LE(Math.floor(seq / 0x1_0000_0000), offset + 4);
}

export function readSeq(source: Buffer, offset: number): number {
  return source.readUInt32LE(offset) + source.readUInt32LE(offset + 4) * 0x1_0000_0000;
}

/** What a record header at some offset says, before its payload is checked. */
export interface RecordHeader {
  checksum: number;
  length: number;
  seq: number;
  /** Position in the write that put it on disk: seq - index is that write's first sequence. */
  batchIndex: number;
}

export function readRecordHeader(source: Buffer, offset: number): RecordHeader {
  return {
    checksum: source.readUInt32LE(offset),
    length: source.readUInt32LE(offset + 4),
    seq: readSeq(source, offset + 8),
    batchIndex: source.readUInt32LE(offset + 16),
  };
}

/** Whether the record at offset (whole, inside source) carries the checksum of its bytes. */
export function checksumMatches(source: Buffer, offset: number, length: number): boolean {
  const end = offset + RECORD_HEADER_BYTES + length;
  return crc32(source.subarray(offset + 4, end)) === source.readUInt32LE(offset);
}

export type HeaderVerdict = 'ok' | 'torn' | 'foreign';

/**
 * A segment header: 'ok'; 'torn' when the file is shorter than a header and
 * what is there is a prefix of one (or zeros), as a crash while creating the
 * segment leaves it; 'foreign' for anything else (wrong magic or version).
 */
export function checkSegmentHeader(bytes: Buffer): HeaderVerdict {
  const expected = segmentHeader();
  if (bytes.length < SEGMENT_HEADER_BYTES) {
    const prefix = expected.subarray(0, bytes.length);
    return bytes.equals(prefix) || bytes.every((byte) => byte === 0) ? 'torn' : 'foreign';
  }
  return bytes.subarray(0, SEGMENT_HEADER_BYTES).equals(expected) ? 'ok' : 'foreign';
}
