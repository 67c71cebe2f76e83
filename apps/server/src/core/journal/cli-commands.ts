import path from 'node:path';
import { JournalCorruptError } from './errors.ts';
import { examineJournal, listSegments } from './recover.ts';
import { SegmentScanner } from './segment-scan.ts';

/** Exit codes of the journal CLI: 2 is a torn tail, which opening the journal would cut. */
export const EXIT_OK = 0;
export const EXIT_CORRUPT = 1;
export const EXIT_TORN_TAIL = 2;

type Print = (line: string) => void;

const PREVIEW_CHARS = 160;
const HEX_PREVIEW_BYTES = 32;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A payload as one line: its JSON when it is UTF-8 JSON, else a hex prefix. */
export function previewPayload(payload: Uint8Array): string {
  try {
    const json = JSON.stringify(JSON.parse(strictUtf8.decode(payload)));
    return json.length > PREVIEW_CHARS ? `${json.slice(0, PREVIEW_CHARS)}…` : json;
  } catch {
    const hex = Buffer.from(payload.subarray(0, HEX_PREVIEW_BYTES)).toString('hex');
    return `hex ${hex}${payload.length > HEX_PREVIEW_BYTES ? '…' : ''}`;
  }
}

/**
 * `inspect DIR [--from SEQ] [--limit N]`: the records with seq > from, one a
 * line (sequence, payload length, checksum, payload). Reads without
 * changing anything and stops at the first record that fails its check,
 * printing where and why.
 */
export async function inspectJournal(
  dir: string,
  { from = 0, limit = Number.POSITIVE_INFINITY }: { from?: number; limit?: number },
  print: Print,
): Promise<number> {
  const segments = await listSegments(dir);
  let printed = 0;
  print('seq\tlength\tchecksum\tsegment:offset\tpayload');
  for (const [index, segment] of segments.entries()) {
    const next = segments[index + 1];
    if (next && next.firstSeq - 1 <= from) continue;
    const scanner = new SegmentScanner(path.join(dir, segment.name), segment.firstSeq);
    for await (const batch of scanner.batches()) {
      for (const record of batch) {
        if (record.seq <= from) continue;
        if (printed >= limit) return EXIT_OK;
        print(
          `${record.seq}\t${record.payload.length}\tok\t${segment.name}:${record.offset}\t${previewPayload(record.payload)}`,
        );
        printed += 1;
      }
    }
    const problem = scanner.outcome?.problem;
    if (problem) {
      const header = problem.header;
      const seen = header ? `${header.seq}\t${header.length}` : '?\t?';
      print(`${seen}\tBAD\t${segment.name}:${problem.offset}\t${problem.kind}: ${problem.detail}`);
      return EXIT_CORRUPT;
    }
  }
  return EXIT_OK;
}

/**
 * `verify DIR`: checks every record and the continuity of sequences as opening
 * the journal would, without cutting anything; prints the counts and the
 * first problem, if any, with its file, byte offset and sequence.
 */
export async function verifyJournal(dir: string, print: Print): Promise<number> {
  try {
    const found = await examineJournal(dir);
    const held = found.lastSeq >= found.firstSeq ? `${found.firstSeq}..${found.lastSeq}` : 'none';
    print(`${found.segments.length} segments, ${found.records} records, sequences ${held}`);
    const torn = found.tornTail;
    if (torn) {
      print(
        `torn tail: ${torn.file} at byte ${torn.offset}, record ${torn.seq}: ${torn.reason} ` +
          `(${torn.bytesCut} bytes); opening the journal cuts it`,
      );
      return EXIT_TORN_TAIL;
    }
    print('OK: every record checks and the sequences run without a gap');
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof JournalCorruptError)) throw error;
    print(`FAILED: ${error.message}`);
    return EXIT_CORRUPT;
  }
}
