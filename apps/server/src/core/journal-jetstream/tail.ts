import { JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { JournalClosedError, type JournalRecord } from '../journal/index.ts';
import { holdConnection, type NatsSource } from './connection.ts';
import { checkJournalStream } from './jetstream-journal.ts';
import { StreamReader } from './stream-reader.ts';

export type JetStreamTailOptions = NatsSource & {
  /** The journal's stream: it must exist (the sequencer's journal creates it). */
  stream: string;
  /** The one subject the stream captures. */
  subject: string;
  /** Records the consumer pulls ahead of the reader, and the most a batch holds (default 1024). */
  readBatchSize?: number;
};

/**
 * A reader of the journal's stream that never writes: a standby or a gateway
 * keeping a replica of the state applies what `follow` delivers. It has no
 * append, holds no lease and never creates the stream.
 */
export interface JetStreamTail {
  /** The stream's last sequence now (0 when empty). */
  lastSequence(): Promise<number>;
  /**
   * Records with seq > after, in order, in batches as they arrive; never ends
   * until `signal` aborts or close() (it then returns, without an error).
   * Throws JournalTruncatedError if after+1 is purged, before or during the
   * tail, and JournalReadInterruptedError if its connection closes. Across a
   * server restart or a dropped connection that the client reconnects, it
   * goes on from the record after the last one delivered.
   */
  follow(after: number, signal?: AbortSignal): AsyncIterable<JournalRecord[]>;
  /** Ends every follow in progress and releases the connection (when it was opened here). */
  close(): Promise<void>;
}

/** Opens a tail of an existing journal stream; refuses a stream that is absent or not a journal of `subject`. */
export async function openJetStreamTail(options: JetStreamTailOptions): Promise<JetStreamTail> {
  const held = await holdConnection(options);
  try {
    const jsm = await jetstreamManager(held.nc);
    const info = await jsm.streams.info(options.stream).catch((error: unknown) => {
      if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)
        throw new Error(`stream ${options.stream} does not exist: the sequencer's journal creates it`);
      throw error;
    });
    checkJournalStream(info, options);
    const reader = new StreamReader(jetstream(held.nc), jsm, options.stream, options.readBatchSize ?? 1024);
    let closed = false;
    return {
      lastSequence: async () => (await reader.bounds()).last,
      async *follow(after, signal) {
        if (closed) throw new JournalClosedError();
        yield* reader.records(after, 'never', signal);
      },
      async close() {
        if (closed) return;
        closed = true;
        await reader.stopAll();
        await held.release();
      },
    };
  } catch (error) {
    await held.release();
    throw error;
  }
}
