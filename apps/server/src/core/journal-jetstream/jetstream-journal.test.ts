import { describe, expect, it } from 'vitest';
import { JournalClosedError, JournalTruncatedError } from '../journal/index.ts';
import { asText, collect, text } from '../journal/test-support.ts';
import { type JetStreamJournal, JournalFencedError, openJetStreamJournal } from './index.ts';
import { skipWithoutNats, useJetStream } from './test-support.ts';

const skip = await skipWithoutNats();

describe.skipIf(skip)('the journal on JetStream', () => {
  const nats = useJetStream();
  const open = (stream: string, extra: { leadership?: { isHeld(): boolean } } = {}) =>
    openJetStreamJournal({ connection: nats.nc(), stream, subject: `${stream}.commands`, ...extra });
  const texts = async (journal: JetStreamJournal, after: number) =>
    (await collect(journal.read(after))).map((record) => [record.seq, asText(record.payload)]);

  it('appends records from sequence 1 and reads them back', async () => {
    const journal = await open(nats.name('round'));
    expect(journal.lastSequence()).toBe(0);
    expect(await journal.append([text('a')])).toBe(1);
    expect(await journal.append([text('b'), text(''), text('d')])).toBe(4);
    expect(journal.lastSequence()).toBe(4);
    expect(await texts(journal, 0)).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, ''],
      [4, 'd'],
    ]);
    await journal.close();
    await expect(journal.append([text('e')])).rejects.toBeInstanceOf(JournalClosedError);
  });

  it('keeps the order of the calls under concurrent appends, sharing flushes', async () => {
    const journal = await open(nats.name('concurrent'));
    const calls = Array.from({ length: 200 }, (_, i) => journal.append([text(`c${i}.0`), text(`c${i}.1`)]));
    const lasts = await Promise.all(calls);
    expect(lasts).toEqual(Array.from({ length: 200 }, (_, i) => 2 * i + 2));
    const records = await texts(journal, 0);
    expect(records).toHaveLength(400);
    expect(records[0]).toEqual([1, 'c0.0']);
    expect(records[399]).toEqual([400, 'c199.1']);
    expect(records.every(([seq, payload], i) => seq === i + 1 && payload === `c${i >> 1}.${i & 1}`)).toBe(
      true,
    );
    await journal.close();
  });

  it('reopened, continues the sequence', async () => {
    const stream = nats.name('reopen');
    const first = await open(stream);
    await first.append([text('a'), text('b')]);
    await first.close();
    const second = await open(stream);
    expect(second.lastSequence()).toBe(2);
    expect(await second.append([text('c')])).toBe(3);
    expect(await texts(second, 1)).toEqual([
      [2, 'b'],
      [3, 'c'],
    ]);
    await second.close();
  });

  it('reads from the middle, in batches of the fetch size', async () => {
    const stream = nats.name('middle');
    const journal = await openJetStreamJournal({
      connection: nats.nc(),
      stream,
      subject: `${stream}.commands`,
      readBatchSize: 4,
    });
    await journal.append(Array.from({ length: 10 }, (_, i) => text(`r${i + 1}`)));
    const batches = await collect(journal.readBatches(3));
    expect(batches.map((batch) => batch.map((record) => record.seq))).toEqual([
      [4, 5, 6, 7],
      [8, 9, 10],
    ]);
    expect(await texts(journal, 9)).toEqual([[10, 'r10']]);
    expect(await texts(journal, 10)).toEqual([]);
    await journal.close();
  });

  it('fences a writer whose view is stale; caught up, it may append', async () => {
    const stream = nats.name('fence');
    const a = await open(stream);
    const b = await open(stream);
    expect(await a.append([text('from a')])).toBe(1);
    const stale = b.append([text('from b')]);
    await expect(stale).rejects.toBeInstanceOf(JournalFencedError);
    // Fenced once, it takes nothing more: its owner must stop.
    await expect(b.append([text('again')])).rejects.toBeInstanceOf(JournalFencedError);
    await b.close();
    const caughtUp = await open(stream);
    expect(caughtUp.lastSequence()).toBe(1);
    expect(await caughtUp.append([text('from b, caught up')])).toBe(2);
    // Now a is the stale one.
    await expect(a.append([text('from a, deposed')])).rejects.toBeInstanceOf(JournalFencedError);
    expect(await texts(caughtUp, 0)).toEqual([
      [1, 'from a'],
      [2, 'from b, caught up'],
    ]);
    await Promise.all([a.close(), caughtUp.close()]);
  });

  it('lets no message of a stale flush land on top of the other writer’s record', async () => {
    const stream = nats.name('pipeline');
    const a = await open(stream);
    const b = await open(stream);
    await a.append([text('a1')]);
    // b expects 0 for its first message: rejected. Its second expects 1 — which
    // the stream's last sequence is — but also its own first message's id.
    await expect(b.append([text('b1'), text('b2'), text('b3')])).rejects.toBeInstanceOf(JournalFencedError);
    expect(await texts(a, 0)).toEqual([[1, 'a1']]);
    await Promise.all([a.close(), b.close()]);
  });

  it('stops appending once its leadership is no longer held', async () => {
    let held = true;
    const journal = await open(nats.name('lease'), { leadership: { isHeld: () => held } });
    expect(await journal.append([text('leader')])).toBe(1);
    held = false;
    await expect(journal.append([text('deposed')])).rejects.toBeInstanceOf(JournalFencedError);
    expect(await texts(journal, 0)).toEqual([[1, 'leader']]);
    await journal.close();
  });

  it('purges the records up to a sequence; the sequence goes on from the last', async () => {
    const stream = nats.name('purge');
    const journal = await open(stream);
    await journal.append(Array.from({ length: 6 }, (_, i) => text(`p${i + 1}`)));
    await journal.truncateBefore(4);
    expect(await texts(journal, 4)).toEqual([
      [5, 'p5'],
      [6, 'p6'],
    ]);
    await expect(collect(journal.read(2))).rejects.toBeInstanceOf(JournalTruncatedError);
    // Past the end it is clamped: everything goes, yet no sequence is skipped.
    await journal.truncateBefore(1_000);
    await journal.close();
    const reopened = await open(stream);
    expect(reopened.lastSequence()).toBe(6);
    expect(await reopened.append([text('p7')])).toBe(7);
    expect(await texts(reopened, 6)).toEqual([[7, 'p7']]);
    await expect(collect(reopened.read(5))).rejects.toThrow(/oldest kept is 7/);
    await reopened.close();
  });

  it('refuses a stream that captures other subjects', async () => {
    const stream = nats.name('foreign');
    await (await open(stream)).close();
    await expect(
      openJetStreamJournal({ connection: nats.nc(), stream, subject: `${stream}.other` }),
    ).rejects.toThrow(/is not a journal of/);
  });
});
