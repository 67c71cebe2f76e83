import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalClosedError, type JournalRecord, JournalTruncatedError } from '../journal/index.ts';
import { asText, collect, text } from '../journal/test-support.ts';
import {
  type JetStreamTail,
  JournalReadInterruptedError,
  openJetStreamJournal,
  openJetStreamTail,
} from './index.ts';
import {
  eventually,
  type PrivateNatsServer,
  skipWithoutNats,
  skipWithoutNatsServerBinary,
  startPrivateNatsServer,
  useJetStream,
} from './test-support.ts';

const skip = await skipWithoutNats();

/** Payloads `r<from>` .. `r<to>`. */
const records = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => text(`r${from + i}`));
const seqs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Follows in the background into `seen` (and `batches`) until `signal` aborts; `done` settles with the follow. */
function following(tail: JetStreamTail, after: number, signal?: AbortSignal) {
  const seen: JournalRecord[] = [];
  const batches: number[] = [];
  const done = (async () => {
    for await (const batch of tail.follow(after, signal)) {
      batches.push(batch.length);
      seen.push(...batch);
    }
  })();
  return { seen, batches, done, last: () => seen.at(-1)?.seq ?? after };
}

describe.skipIf(skip)('the tail of the journal on JetStream', () => {
  const nats = useJetStream();
  const stopping: AbortController[] = [];
  afterEach(() => {
    for (const controller of stopping.splice(0)) controller.abort();
  });
  const stopper = () => {
    const controller = new AbortController();
    stopping.push(controller);
    return controller;
  };
  const setUp = async (role: string, readBatchSize?: number) => {
    const stream = nats.name(role);
    const subject = `${stream}.commands`;
    const journal = await openJetStreamJournal({ connection: nats.nc(), stream, subject });
    const tail = await openJetStreamTail({ connection: nats.nc(), stream, subject, readBatchSize });
    return { stream, subject, journal, tail };
  };

  it('delivers what was appended before and after it began, in order, once each, in batches', async () => {
    const { journal, tail } = await setUp('all', 16);
    await journal.append(records(1, 100));
    const follower = following(tail, 0, stopper().signal);
    await eventually(() => follower.last() === 100);
    // While it waits: concurrent appends of one to five records.
    let next = 101;
    while (next <= 600) {
      const calls = [];
      for (let size = 1; size <= 5 && next <= 600; size += 1) {
        const to = Math.min(600, next + size - 1);
        calls.push(journal.append(records(next, to)));
        next = to + 1;
      }
      await Promise.all(calls);
    }
    await eventually(() => follower.last() === 600);
    expect(follower.seen.map((record) => record.seq)).toEqual(seqs(1, 600));
    expect(follower.seen.map((record) => asText(record.payload))).toEqual(seqs(1, 600).map((n) => `r${n}`));
    expect(follower.batches.length).toBeGreaterThanOrEqual(600 / 16);
    expect(Math.max(...follower.batches)).toBeLessThanOrEqual(16);
    // Each payload owns its bytes: not a view into a buffer the client reuses or keeps alive.
    expect(follower.seen.every((record) => record.payload.buffer.byteLength === record.payload.length)).toBe(
      true,
    );
    expect(await tail.lastSequence()).toBe(600);
    await Promise.all([journal.close(), tail.close()]);
  });

  it('ends, without an error, when its signal aborts or the tail closes, and deletes its consumer', async () => {
    const { stream, journal, tail } = await setUp('abort');
    const jsm = await jetstreamManager(nats.nc());
    const consumers = async () => (await jsm.consumers.list(stream).next()).length;
    await journal.append(records(1, 3));
    const controller = new AbortController();
    const aborted = following(tail, 0, controller.signal);
    const closed = following(tail, 1);
    await eventually(() => aborted.last() === 3 && closed.last() === 3);
    expect(await consumers()).toBe(2);
    controller.abort();
    await aborted.done;
    expect(await consumers()).toBe(1);
    await journal.append(records(4, 4));
    await eventually(() => closed.last() === 4);
    // A reader that holds a batch and does not ask for the next: close deletes its consumer all the same.
    const holding = tail.follow(0)[Symbol.asyncIterator]();
    expect((await holding.next()).value).toHaveLength(4);
    expect(await consumers()).toBe(2);
    await tail.close();
    expect(await consumers()).toBe(0);
    await closed.done;
    expect(await holding.next()).toEqual({ done: true, value: undefined });
    expect(aborted.last()).toBe(3);
    await expect(collect(tail.follow(0))).rejects.toBeInstanceOf(JournalClosedError);
    await journal.close();
  });

  it('throws when the records after its start were purged, before it began or while it follows', async () => {
    const { journal, tail } = await setUp('purge', 1);
    await journal.append(records(1, 20));
    await journal.truncateBefore(2);
    await expect(collect(tail.follow(1))).rejects.toThrow(
      /records 2..2 were truncated; the oldest kept is 3/,
    );
    const fromTwo = tail.follow(2)[Symbol.asyncIterator]();
    expect((await fromTwo.next()).value).toMatchObject([{ seq: 3 }]);
    // It pulls a record or two ahead of its reader: those come, then the gap up to 10.
    await journal.truncateBefore(10);
    const delivered: number[] = [3];
    const error = await (async () => {
      try {
        for (;;) {
          const step = await fromTwo.next();
          if (step.done) return null;
          delivered.push(...step.value.map((record: JournalRecord) => record.seq));
        }
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(JournalTruncatedError);
    expect(error).toMatchObject({ after: delivered.at(-1), firstKept: 11 });
    expect(delivered.length).toBeLessThan(8);
    expect(delivered).toEqual(seqs(3, delivered.at(-1)!));
    await Promise.all([journal.close(), tail.close()]);
  });

  it('sees no gap in a purge of records it has already delivered', async () => {
    const { journal, tail } = await setUp('caught-up');
    await journal.append(records(1, 4));
    const follower = following(tail, 0, stopper().signal);
    await eventually(() => follower.last() === 4);
    await journal.truncateBefore(4);
    await journal.append(records(5, 6));
    await eventually(() => follower.last() === 6);
    expect(follower.seen.map((record) => record.seq)).toEqual(seqs(1, 6));
    await Promise.all([journal.close(), tail.close()]);
  });

  it('cannot append, and neither creates a stream nor takes one that is not a journal', async () => {
    const { stream, subject, journal, tail } = await setUp('read-only');
    expect('append' in tail).toBe(false);
    // @ts-expect-error: a tail has no append.
    expect(tail.append).toBeUndefined();
    const absent = nats.name('absent');
    await expect(
      openJetStreamTail({ connection: nats.nc(), stream: absent, subject: `${absent}.commands` }),
    ).rejects.toThrow(/does not exist/);
    const jsm = await jetstreamManager(nats.nc());
    await expect(jsm.streams.info(absent)).rejects.toThrow(/stream not found/);
    await expect(
      openJetStreamTail({ connection: nats.nc(), stream, subject: `${subject}.x` }),
    ).rejects.toThrow(/is not a journal of/);
    await Promise.all([journal.close(), tail.close()]);
  });

  it('a second tail from a later sequence gets only the records after it, alongside the first', async () => {
    const { stream, subject, journal, tail } = await setUp('second');
    await journal.append(records(1, 50));
    const second = await openJetStreamTail({ connection: nats.nc(), stream, subject });
    const first = following(tail, 0, stopper().signal);
    const later = following(second, 40, stopper().signal);
    await journal.append(records(51, 60));
    await eventually(() => first.last() === 60 && later.last() === 60);
    expect(first.seen.map((record) => record.seq)).toEqual(seqs(1, 60));
    expect(later.seen.map((record) => record.seq)).toEqual(seqs(41, 60));
    expect(later.seen.map((record) => asText(record.payload))).toEqual(seqs(41, 60).map((n) => `r${n}`));
    await Promise.all([journal.close(), tail.close(), second.close()]);
  });

  it('throws JournalReadInterruptedError, naming the last record delivered, when its connection closes', async () => {
    const { stream, subject, journal } = await setUp('closed');
    const connection = await connect({ servers: nats.nc().getServer() });
    const tail = await openJetStreamTail({ connection, stream, subject });
    await journal.append(records(1, 5));
    const follower = following(tail, 0);
    await eventually(() => follower.last() === 5);
    await connection.close();
    await expect(follower.done).rejects.toBeInstanceOf(JournalReadInterruptedError);
    await expect(follower.done).rejects.toMatchObject({ after: 5 });
    await Promise.all([journal.close(), tail.close()]);
  });
});

describe.skipIf(skip || skipWithoutNatsServerBinary())('the tail across a NATS server restart', () => {
  let server: PrivateNatsServer | undefined;
  afterEach(async () => {
    await server?.remove();
  });

  it('goes on from the record after the last delivered: none skipped, none twice', async () => {
    server = await startPrivateNatsServer();
    const options = { servers: server.servers, maxReconnectAttempts: -1, reconnectTimeWait: 50 };
    const stream = 'restart';
    const subject = 'restart.commands';
    const writer = await openJetStreamJournal({ servers: server.servers, stream, subject });
    await writer.append(records(1, 40));
    await writer.close();
    const connection = await connect(options);
    const tail = await openJetStreamTail({ connection, stream, subject, readBatchSize: 8 });
    const controller = new AbortController();
    // The reader holds each batch until told: the server dies while records are queued and in flight.
    let hold: Promise<void> | null = null;
    let release = () => {};
    const seen: number[] = [];
    const done = (async () => {
      for await (const batch of tail.follow(0, controller.signal)) {
        seen.push(...batch.map((record) => record.seq));
        if (hold) await hold;
      }
    })();
    await eventually(() => seen.length === 40);
    hold = new Promise((resolve) => {
      release = resolve;
    });
    const again = await openJetStreamJournal({ servers: server.servers, stream, subject });
    await again.append(records(41, 60));
    await again.close();
    await eventually(() => seen.length > 40);
    await server.kill();
    await server.start();
    const afterRestart = await openJetStreamJournal({ servers: server.servers, stream, subject });
    expect(afterRestart.lastSequence()).toBe(60);
    await afterRestart.append(records(61, 100));
    hold = null;
    release();
    await eventually(() => seen.at(-1) === 100);
    expect(seen).toEqual(seqs(1, 100));
    controller.abort();
    await done;
    await Promise.all([afterRestart.close(), tail.close(), connection.close()]);
  });
});
