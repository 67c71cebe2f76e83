import fs from 'node:fs/promises';
import path from 'node:path';
import {
  JournalClosedError,
  JournalCorruptError,
  JournalFailedError,
  JournalTruncatedError,
} from './errors.ts';
import { flatten } from './flatten.ts';
import {
  encodedSize,
  encodeRecords,
  MAX_PAYLOAD_BYTES,
  SEGMENT_HEADER_BYTES,
  segmentFileName,
  segmentHeader,
} from './format.ts';
import { syncDirectory, writeFully, writeFullySync } from './fs-durable.ts';
import { cutTornTail, examineJournal, type SegmentState, type TornTail } from './recover.ts';
import { SegmentScanner } from './segment-scan.ts';

export interface JournalRecord {
  seq: number;
  payload: Uint8Array;
}

export interface Journal {
  /**
   * Appends the payloads as consecutive records; resolves with the sequence of
   * the last one once it is durable (fsync'd). Concurrent calls are
   * group-committed: one write + one fsync for everything queued meanwhile.
   * Sequences start at 1 and have no gaps.
   */
  append(payloads: readonly Uint8Array[]): Promise<number>;
  /** Records with seq > after, in order (streams segment files; does not load all in memory). */
  read(after: number): AsyncIterable<JournalRecord>;
  /** Last durable sequence (0 when empty). */
  lastSequence(): number;
  /** Drops whole segments whose records are all <= seq (after a snapshot and the projector passed it). */
  truncateBefore(seq: number): Promise<void>;
  close(): Promise<void>;
}

/** What opening found: how much the journal holds and what torn tail, if any, it cut. */
export interface RecoveryReport {
  segments: number;
  records: number;
  firstSequence: number;
  lastSequence: number;
  tornTail: TornTail | null;
}

/** Counters since open: `syncs` counts every fsync/fdatasync (a rollover adds one of the directory). */
export interface JournalStats {
  records: number;
  writes: number;
  syncs: number;
  bytes: number;
}

export interface FileJournal extends Journal {
  readonly recovery: RecoveryReport;
  /** Like read, one array per chunk read from disk: the fast path for replaying millions of records. */
  readBatches(after: number): AsyncIterable<JournalRecord[]>;
  stats(): JournalStats;
}

export interface FileJournalOptions {
  /** A new segment starts when the next write would take the current one past this (default 64 MiB). */
  segmentBytes?: number;
}

export const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;

/**
 * Opens (creating when absent) the journal in dir: checks every segment, cuts
 * a torn tail (reported in `recovery`), and throws JournalCorruptError on any
 * other damage. One process at a time may have a journal open.
 */
export async function openFileJournal(dir: string, options: FileJournalOptions = {}): Promise<FileJournal> {
  await ensureDirectory(dir);
  const found = await examineJournal(dir);
  if (found.tornTail) await cutTornTail(dir, found.tornTail);
  const segments = found.segments;
  if (segments.length === 0) segments.push(await createSegment(dir, found.lastSeq + 1, Buffer.alloc(0)));
  const active = segments.at(-1)!;
  const handle = await fs.open(path.join(dir, active.name), 'r+');
  const recovery: RecoveryReport = {
    segments: segments.length,
    records: found.records,
    firstSequence: found.firstSeq,
    lastSequence: found.lastSeq,
    tornTail: found.tornTail,
  };
  return new GroupCommitJournal(
    dir,
    options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
    segments,
    handle,
    recovery,
  );
}

async function ensureDirectory(dir: string): Promise<void> {
  const created = await fs.mkdir(dir, { recursive: true });
  if (created !== undefined) await syncDirectory(path.dirname(path.resolve(dir)));
}

/** Creates a segment holding its header and then `records`, durably (file and directory entry). */
async function createSegment(dir: string, firstSeq: number, records: Buffer): Promise<SegmentState> {
  const name = segmentFileName(firstSeq);
  const handle = await fs.open(path.join(dir, name), 'wx');
  try {
    await writeFully(handle, Buffer.concat([segmentHeader(), records]), 0);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await syncDirectory(dir);
  return { name, firstSeq, lastSeq: firstSeq - 1, end: SEGMENT_HEADER_BYTES + records.length };
}

interface PendingAppend {
  payloads: readonly Uint8Array[];
  lastSeq: number;
  resolve: (seq: number) => void;
  reject: (error: unknown) => void;
}

/**
 * The group commit: append hands out sequences at once (so their order is the
 * order of the calls) and queues; one flush loop at a time takes everything
 * queued, writes it with one write and one fdatasync, resolves those appends,
 * and goes round again for what queued meanwhile.
 */
class GroupCommitJournal implements FileJournal {
  private queue: PendingAppend[] = [];
  private assigned: number;
  private durable: number;
  private flushing: Promise<void> | null = null;
  private failure: Error | null = null;
  private closed = false;
  private readonly counters: JournalStats = { records: 0, writes: 0, syncs: 0, bytes: 0 };

  constructor(
    private readonly dir: string,
    private readonly segmentBytes: number,
    private readonly segments: SegmentState[],
    private handle: fs.FileHandle,
    readonly recovery: RecoveryReport,
  ) {
    this.durable = recovery.lastSequence;
    this.assigned = this.durable;
  }

  append(payloads: readonly Uint8Array[]): Promise<number> {
    if (this.closed) return Promise.reject(new JournalClosedError());
    if (this.failure) return Promise.reject(this.failure);
    const tooLarge = payloads.find((payload) => payload.length > MAX_PAYLOAD_BYTES);
    if (tooLarge)
      return Promise.reject(new RangeError(`payload of ${tooLarge.length} bytes exceeds the bound`));
    this.assigned += payloads.length;
    const lastSeq = this.assigned;
    return new Promise((resolve, reject) => {
      this.queue.push({ payloads, lastSeq, resolve, reject });
      // On a microtask, so that appends made in the same turn share the first write.
      this.flushing ??= Promise.resolve().then(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0 && !this.failure) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.write(batch);
        for (const pending of batch) pending.resolve(pending.lastSeq);
      } catch (error) {
        this.failure = new JournalFailedError(error);
        for (const pending of [...batch, ...this.queue]) pending.reject(this.failure);
        this.queue = [];
      }
    }
    this.flushing = null;
  }

  private async write(batch: PendingAppend[]): Promise<void> {
    const payloads = batch.length === 1 ? batch[0]!.payloads : batch.flatMap((pending) => pending.payloads);
    if (payloads.length === 0) return;
    const firstSeq = this.durable + 1;
    const records = Buffer.allocUnsafe(encodedSize(payloads));
    encodeRecords(records, 0, firstSeq, payloads);
    const active = this.segments.at(-1)!;
    if (active.lastSeq >= active.firstSeq && active.end + records.length > this.segmentBytes) {
      await this.rollOver(firstSeq, records);
    } else {
      // The write on this thread, the fdatasync in libuv's pool: one round trip to the pool a batch, not two.
      writeFullySync(this.handle, records, active.end);
      await this.handle.datasync();
      active.end += records.length;
      this.counters.syncs += 1;
    }
    const current = this.segments.at(-1)!;
    current.lastSeq = firstSeq + payloads.length - 1;
    this.durable = current.lastSeq;
    this.counters.records += payloads.length;
    this.counters.writes += 1;
    this.counters.bytes += records.length;
  }

  /** The write goes, whole, to a new segment named by its first sequence; the old one is complete. */
  private async rollOver(firstSeq: number, records: Buffer): Promise<void> {
    const segment = await createSegment(this.dir, firstSeq, records);
    this.counters.syncs += 2;
    const previous = this.handle;
    this.handle = await fs.open(path.join(this.dir, segment.name), 'r+');
    this.segments.push(segment);
    await previous.close();
  }

  lastSequence(): number {
    return this.durable;
  }

  stats(): JournalStats {
    return { ...this.counters };
  }

  read(after: number): AsyncIterable<JournalRecord> {
    return flatten(this.readBatches(after));
  }

  /**
   * Reads what was durable when the read began; the segments' ends are taken
   * then, so appends meanwhile are not seen half-written. A truncateBefore
   * that drops a segment this read has not reached yet makes it fail.
   */
  async *readBatches(after: number): AsyncIterable<JournalRecord[]> {
    if (!Number.isSafeInteger(after) || after < 0) throw new RangeError(`read after ${after}`);
    const until = this.durable;
    const segments = this.segments.map((segment) => ({ ...segment }));
    if (after >= until) return;
    const oldest = segments[0]!.firstSeq;
    if (after + 1 < oldest) throw new JournalTruncatedError(after, oldest);
    for (const segment of segments) {
      if (segment.lastSeq <= after) continue;
      const scanner = new SegmentScanner(path.join(this.dir, segment.name), segment.firstSeq, segment.end);
      try {
        for await (const batch of scanner.batches()) {
          const wanted = batch[0]!.seq > after ? batch : batch.filter((record) => record.seq > after);
          if (wanted.length > 0) yield wanted;
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          throw new JournalTruncatedError(after, segment.lastSeq + 1);
        throw error;
      }
      const problem = scanner.outcome?.problem;
      if (problem)
        throw new JournalCorruptError(segment.name, problem.offset, problem.expectedSeq, problem.detail);
    }
  }

  async truncateBefore(seq: number): Promise<void> {
    const droppable = this.segments.slice(0, -1).filter((segment) => segment.lastSeq <= seq);
    if (droppable.length === 0) return;
    this.segments.splice(0, droppable.length);
    for (const segment of droppable) await fs.rm(path.join(this.dir, segment.name));
    await syncDirectory(this.dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.handle.close();
  }
}
