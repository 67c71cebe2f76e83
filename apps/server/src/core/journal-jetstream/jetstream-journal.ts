import {
  DiscardPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  type PubAck,
  RetentionPolicy,
  StorageType,
  type StreamInfo,
} from '@nats-io/jetstream';
import { nanos, nuid } from '@nats-io/transport-node';
import { flatten } from '../journal/flatten.ts';
import type { Journal } from '../journal/index.ts';
import { JournalClosedError, JournalFailedError, type JournalRecord } from '../journal/index.ts';
import { type HeldConnection, holdConnection, type NatsSource } from './connection.ts';
import { JournalFencedError } from './errors.ts';
import { StreamReader } from './stream-reader.ts';

export type JetStreamJournalOptions = NatsSource & {
  /** The stream holding the journal; created (file storage) when absent. */
  stream: string;
  /** The one subject the stream captures: the commands are published there. */
  subject: string;
  /** Servers that must store a record before its ack (1 here; 3 in a cluster). Only used when creating the stream. */
  replicas?: number;
  /** How long an append waits for each ack before the journal fails (default 5 s). */
  ackTimeoutMs?: number;
  /** Records the consumer pulls ahead when reading, and the length of readBatches' arrays (default 1024). */
  readBatchSize?: number;
  /** Checked before every group of appends: once it says no, appends fail with JournalFencedError. */
  leadership?: { isHeld(): boolean };
};

export interface JetStreamJournal extends Journal {
  /** Like read, in arrays of readBatchSize records (the last shorter). */
  readBatches(after: number): AsyncIterable<JournalRecord[]>;
  /** The largest payload an append accepts: the server's max_payload less room for the headers. */
  readonly maxPayloadBytes: number;
}

/** The server's error code for a failed last-message-id expectation (the client names only the sequence one). */
const WRONG_LAST_MSG_ID = 10070;
/** Room for the subject line and the three headers every record carries. */
const HEADER_ALLOWANCE = 1024;

/**
 * Opens (creating when absent) the journal kept in a JetStream stream. Its
 * sequence is the stream's sequence; this writer's view starts at the
 * stream's last sequence now, and every append expects the stream to end
 * where that view does (docs/core.md, "The journal on NATS JetStream").
 */
export async function openJetStreamJournal(options: JetStreamJournalOptions): Promise<JetStreamJournal> {
  const held = await holdConnection(options);
  try {
    const jsm = await jetstreamManager(held.nc);
    const info = await ensureStream(jsm, options);
    const js = jetstream(held.nc, { timeout: options.ackTimeoutMs ?? 5_000 });
    const maxPayloadBytes = (held.nc.info?.max_payload ?? 1024 * 1024) - HEADER_ALLOWANCE;
    return new PipelinedJournal(held, js, jsm, options, info.state.last_seq, maxPayloadBytes);
  } catch (error) {
    await held.release();
    throw error;
  }
}

/**
 * The stream must capture exactly the journal's subject (another subject's
 * messages would take sequences) and refuse single-message deletes (they
 * would leave holes). Dedupe is not relied on: its window is kept short, so
 * the server does not hold minutes of message ids in memory.
 */
async function ensureStream(jsm: JetStreamManager, options: JetStreamJournalOptions): Promise<StreamInfo> {
  const existing = await jsm.streams.info(options.stream).catch((error: unknown) => {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) return null;
    throw error;
  });
  if (existing) return checkJournalStream(existing, options);
  return jsm.streams.add({
    name: options.stream,
    subjects: [options.subject],
    storage: StorageType.File,
    num_replicas: options.replicas ?? 1,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.New,
    deny_delete: true,
    allow_rollup_hdrs: false,
    duplicate_window: nanos(1_000),
  });
}

/** Throws unless the stream captures exactly the journal's subject and refuses deletes; answers it. */
export function checkJournalStream(
  info: StreamInfo,
  options: { stream: string; subject: string },
): StreamInfo {
  const { subjects, deny_delete } = info.config;
  if (subjects?.length !== 1 || subjects[0] !== options.subject || !deny_delete)
    throw new Error(
      `stream ${options.stream} is not a journal of ${options.subject}: it captures ${JSON.stringify(subjects)}` +
        (deny_delete ? '' : ' and allows deletes'),
    );
  return info;
}

interface PendingAppend {
  payloads: readonly Uint8Array[];
  resolve: (seq: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit over the network: one flush at a time publishes everything
 * queued without waiting between messages, then awaits all the acks. Every
 * message expects the stream's last sequence to be the one before it, and
 * carries an id naming this writer and its sequence; every message after the
 * first of a flush also expects the stream's last id to be its predecessor's.
 * So when another writer's record lands in the middle of a flush, none of
 * this flush's later messages can land on top of it.
 */
class PipelinedJournal implements JetStreamJournal {
  private queue: PendingAppend[] = [];
  private durable: number;
  private flushing: Promise<void> | null = null;
  private failure: Error | null = null;
  private closed = false;
  /** Names this writer in the message ids, so that the last-id expectation tells its records from another's. */
  private readonly writerId = nuid.next();
  private readonly reader: StreamReader;

  constructor(
    private readonly held: HeldConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: JetStreamJournalOptions,
    lastSeq: number,
    readonly maxPayloadBytes: number,
  ) {
    this.durable = lastSeq;
    this.reader = new StreamReader(js, jsm, options.stream, options.readBatchSize ?? 1024);
  }

  append(payloads: readonly Uint8Array[]): Promise<number> {
    if (this.closed) return Promise.reject(new JournalClosedError());
    if (this.failure) return Promise.reject(this.failure);
    const tooLarge = payloads.find((payload) => payload.length > this.maxPayloadBytes);
    if (tooLarge)
      return Promise.reject(
        new RangeError(`payload of ${tooLarge.length} bytes exceeds ${this.maxPayloadBytes}`),
      );
    return new Promise((resolve, reject) => {
      this.queue.push({ payloads, resolve, reject });
      // On a microtask, so that appends made in the same turn share the first flush.
      this.flushing ??= Promise.resolve().then(() => this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0 && !this.failure) {
      const batch = this.queue;
      this.queue = [];
      if (this.options.leadership && !this.options.leadership.isHeld()) {
        this.fail(batch, new JournalFencedError('the leadership lease is no longer held'));
        break;
      }
      const acks = await Promise.allSettled(this.publish(batch));
      const stored = acks.findIndex((ack) => ack.status === 'rejected');
      this.settle(batch, stored === -1 ? acks.length : stored, acks);
    }
    this.flushing = null;
  }

  /** Sends every payload of the batch at once, in order; one ack promise per payload. */
  private publish(batch: PendingAppend[]): Promise<PubAck>[] {
    const acks: Promise<PubAck>[] = [];
    let seq = this.durable;
    for (const pending of batch) {
      for (const payload of pending.payloads) {
        seq += 1;
        const expect =
          seq === this.durable + 1
            ? { lastSequence: seq - 1 }
            : { lastSequence: seq - 1, lastMsgID: this.messageId(seq - 1) };
        acks.push(this.js.publish(this.options.subject, payload, { msgID: this.messageId(seq), expect }));
      }
    }
    return acks;
  }

  private messageId(seq: number): string {
    return `${this.writerId}.${seq}`;
  }

  /**
   * Resolves the appends whose records are all among the first `stored`
   * acks. After a failed ack nothing is certain (a timed-out message may yet
   * be stored), so the rest of the batch and every later append are rejected.
   */
  private settle(batch: PendingAppend[], stored: number, acks: PromiseSettledResult<PubAck>[]): void {
    let resolved = 0;
    let count = 0;
    for (const pending of batch) {
      if (count + pending.payloads.length > stored) break;
      count += pending.payloads.length;
      resolved += 1;
      pending.resolve(this.durable + count);
    }
    this.durable += count;
    const failed = acks[stored];
    if (failed?.status === 'rejected') this.fail(batch.slice(resolved), classify(failed.reason));
  }

  private fail(rejected: PendingAppend[], failure: Error): void {
    this.failure = failure;
    for (const pending of [...rejected, ...this.queue]) pending.reject(failure);
    this.queue = [];
  }

  lastSequence(): number {
    return this.durable;
  }

  read(after: number): AsyncIterable<JournalRecord> {
    return flatten(this.readBatches(after));
  }

  /**
   * The records after `after` up to the stream's last sequence when the read
   * began (docs/core.md, "Reading"). A record missing on the way (a purge
   * meanwhile) makes it throw JournalTruncatedError.
   */
  readBatches(after: number): AsyncIterable<JournalRecord[]> {
    return this.reader.records(after, 'end');
  }

  /**
   * Purges the records <= seq. The bound is clamped to the stream's last
   * sequence: purging past it would move the stream's next sequence on and
   * leave a gap.
   */
  async truncateBefore(seq: number): Promise<void> {
    const { first, last } = await this.reader.bounds();
    const upTo = Math.min(seq, last);
    if (upTo < first) return;
    await this.jsm.streams.purge(this.options.stream, { seq: upTo + 1 });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.held.release();
  }
}

/** A failed expectation means another writer's record is in the stream: fencing. Anything else: the outcome is unknown. */
function classify(reason: unknown): Error {
  if (
    reason instanceof JetStreamApiError &&
    (reason.code === JetStreamApiCodes.StreamWrongLastSequence || reason.code === WRONG_LAST_MSG_ID)
  )
    return new JournalFencedError(`another writer appended (${reason.message})`, { cause: reason });
  return new JournalFailedError(reason);
}
