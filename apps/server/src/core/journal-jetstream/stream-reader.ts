import {
  type Consumer,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { type JournalRecord, JournalTruncatedError } from '../journal/index.ts';
import { JournalReadInterruptedError } from './errors.ts';

/** How long a read waits with nothing delivered before it looks at the stream for a truncation. */
const IDLE_CHECK_MS = 5_000;
const IDLE = Symbol('idle');
/**
 * The life of each pull request, the shortest the client allows. After a
 * reconnect the client looks for its consumer again, and while JetStream is
 * still starting it retries after up to this long: a server restart costs the
 * tail about a second, not the default 30 s.
 */
const PULL_EXPIRES_MS = 1_000;

/**
 * Reads a journal's stream in sequence order through an ordered consumer:
 * the journal's `read` (up to the stream's end when it began) and the tail's
 * `follow` (for ever) are both this. The consumer pulls at most `batchSize`
 * records ahead of what the reader has taken, so a slow reader holds a
 * bounded number of them.
 */
export class StreamReader {
  /** The reads in progress, so that `stopAll` can end them and delete their consumers. */
  private readonly reading = new Map<ConsumerMessages, Consumer>();
  private stopped = false;

  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly batchSize: number,
  ) {}

  /** The stream's first kept and last sequences; an empty stream (new, or purged to its end) has first = last + 1. */
  async bounds(): Promise<{ first: number; last: number }> {
    const { state } = await this.jsm.streams.info(this.stream);
    return { first: state.messages === 0 ? state.last_seq + 1 : state.first_seq, last: state.last_seq };
  }

  /**
   * The records after `after` up to the stream's last sequence when it
   * begins (`until` 'end'), in arrays of `batchSize` (the last shorter), or
   * for ever ('never'), in arrays of the records that had arrived when the
   * reader asked, at most `batchSize`. The payloads are copies, safe to keep. It ends early, without an
   * error, when `signal` aborts or `stopAll` is called. A sequence missing on
   * the way (a purge) throws JournalTruncatedError; the consumer stopping on
   * its own (the connection closed) throws JournalReadInterruptedError.
   */
  async *records(
    after: number,
    until: 'end' | 'never',
    signal?: AbortSignal,
  ): AsyncIterable<JournalRecord[]> {
    if (!Number.isSafeInteger(after) || after < 0) throw new RangeError(`read after ${after}`);
    const { first, last } = await this.bounds();
    const through = until === 'end' ? last : Number.POSITIVE_INFINITY;
    if (after >= through) return;
    if (after + 1 < first) throw new JournalTruncatedError(after, first);
    if (this.stopped || signal?.aborted) return;
    const consumer = await this.js.consumers.get(this.stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: after + 1,
    });
    const messages = await consumer.consume({ max_messages: this.batchSize, expires: PULL_EXPIRES_MS });
    const stop = () => messages.stop();
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted || this.stopped) stop();
    this.reading.set(messages, consumer);
    const iterator = messages[Symbol.asyncIterator]();
    let next = after + 1;
    let batch: JournalRecord[] = [];
    // Set when the read must throw: once the records before it are yielded, so that `after` names the last one.
    let failure: Error | null = null;
    try {
      let pending = iterator.next();
      while (next <= through && !failure) {
        let step: IteratorResult<JsMsg> | typeof IDLE;
        try {
          step = await this.nextOrIdle(pending, messages);
        } catch (error) {
          failure = new JournalReadInterruptedError(this.stream, next - 1, String(error), { cause: error });
          break;
        }
        if (step === IDLE) {
          failure = await this.truncation(next);
          continue;
        }
        if (step.done) {
          if (!this.stopped && !signal?.aborted)
            failure = new JournalReadInterruptedError(this.stream, next - 1, 'the connection closed');
          break;
        }
        if (step.value.seq !== next) {
          failure = outOfOrder(this.stream, next, step.value.seq);
          break;
        }
        batch.push({ seq: next, payload: new Uint8Array(step.value.data) });
        next += 1;
        // Asked before next(): the iterator may take the following message in at once.
        const arrived = waiting(messages);
        pending = iterator.next();
        // A read fills its batches (the records are there); a follow hands over what has arrived.
        if (batch.length < this.batchSize && next <= through && (arrived || until === 'end')) continue;
        yield batch;
        batch = [];
      }
      if (batch.length > 0) yield batch;
      if (failure) throw failure;
    } finally {
      signal?.removeEventListener('abort', stop);
      this.reading.delete(messages);
      messages.stop();
      await consumer.delete().catch(() => {});
    }
  }

  /**
   * Ends every read in progress, as an abort would, and deletes their
   * consumers now: a reader holding a batch would delete its own only once
   * it asks for the next, maybe after the connection is gone.
   */
  async stopAll(): Promise<void> {
    this.stopped = true;
    const consumers = [...this.reading].map(([messages, consumer]) => {
      messages.stop();
      return consumer.delete().catch(() => false);
    });
    await Promise.all(consumers);
  }

  /** The next message, or IDLE when none has come within IDLE_CHECK_MS (no timer when one is already waiting). */
  private async nextOrIdle(
    pending: Promise<IteratorResult<JsMsg>>,
    messages: ConsumerMessages,
  ): Promise<IteratorResult<JsMsg> | typeof IDLE> {
    if (waiting(messages)) return pending;
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<typeof IDLE>((resolve) => {
      timer = setTimeout(() => resolve(IDLE), IDLE_CHECK_MS);
    });
    try {
      return await Promise.race([pending, idle]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A purge reaching past `next` while nothing is delivered leaves no later
   * message to show the gap: ask the stream. When it cannot answer (the
   * server is away), the consumer's own recovery decides: it resumes, or it
   * stops once the connection closes.
   */
  private async truncation(next: number): Promise<JournalTruncatedError | null> {
    const bounds = await this.bounds().catch(() => null);
    return bounds && bounds.first > next ? new JournalTruncatedError(next - 1, bounds.first) : null;
  }
}

/**
 * Whether the consumer holds records not yet taken. Counted from the
 * received and processed totals: `getPending` also counts the pull requests
 * the iterator has queued among the messages.
 */
function waiting(messages: ConsumerMessages): boolean {
  return messages.getReceived() > messages.getProcessed();
}

/** A later sequence than the next means the ones between were purged; an earlier one, a redelivery the ordered consumer should never make. */
function outOfOrder(stream: string, next: number, seq: number): Error {
  if (seq > next) return new JournalTruncatedError(next - 1, seq);
  return new JournalReadInterruptedError(stream, next - 1, `record ${seq} was delivered again`);
}
