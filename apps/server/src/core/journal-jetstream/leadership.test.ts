import { connect } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { text } from '../journal/test-support.ts';
import {
  acquireLeadership,
  JournalFencedError,
  openJetStreamJournal,
  tryAcquireLeadership,
} from './index.ts';
import { eventually, NATS_SERVERS, skipWithoutNats, useJetStream } from './test-support.ts';

const skip = await skipWithoutNats();
/** Short, so that a takeover happens within the test; renewals come every 500 ms. */
const TTL_MS = 1_500;

describe.skipIf(skip)('the leadership lease', () => {
  const nats = useJetStream();
  const lease = (bucket: string, holder: string) => ({
    connection: nats.nc(),
    bucket,
    key: 'sequencer',
    ttlMs: TTL_MS,
    holder,
  });

  it('has one holder at a time, renewed, and taken over at once when released', async () => {
    const bucket = nats.name('one');
    const a = await tryAcquireLeadership(lease(bucket, 'a'));
    expect(a?.isHeld()).toBe(true);
    expect(await tryAcquireLeadership(lease(bucket, 'b'))).toBeNull();
    const acquired = a!.revision();
    await eventually(() => a!.revision() > acquired + 1); // two renewals
    expect(a!.isHeld()).toBe(true);
    expect(await tryAcquireLeadership(lease(bucket, 'b'))).toBeNull();
    await a!.release();
    expect(await a!.lost).toBe('released');
    expect(a!.isHeld()).toBe(false);
    const b = await tryAcquireLeadership(lease(bucket, 'b'));
    expect(b?.isHeld()).toBe(true);
    await b!.release();
  });

  it('passes to the standby once the holder stops renewing; the old holder learns it lost', async () => {
    const bucket = nats.name('takeover');
    // The holder has a connection of its own, closed below as if its process died.
    const own = await connect({ servers: NATS_SERVERS });
    const a = await acquireLeadership({ ...lease(bucket, 'a'), connection: own });
    const standby = acquireLeadership(lease(bucket, 'b'));
    await own.close();
    expect(await a.lost).toMatch(/renewal failed|expired/);
    expect(a.isHeld()).toBe(false);
    const b = await standby;
    expect(b.holder).toBe('b');
    expect(b.isHeld()).toBe(true);
    await b.release();
  });

  it('with the journal: the deposed leader cannot append after the new one took over', async () => {
    const bucket = nats.name('both');
    const stream = nats.name('both_journal');
    const journalOf = (leadership: { isHeld(): boolean }) =>
      openJetStreamJournal({ connection: nats.nc(), stream, subject: `${stream}.commands`, leadership });
    const own = await connect({ servers: NATS_SERVERS });
    const leaseA = await acquireLeadership({ ...lease(bucket, 'a'), connection: own });
    const journalA = await journalOf(leaseA);
    expect(await journalA.append([text('a1')])).toBe(1);
    await own.close(); // a stops renewing
    const leaseB = await acquireLeadership(lease(bucket, 'b'));
    const journalB = await journalOf(leaseB);
    expect(await journalB.append([text('b2')])).toBe(2);
    await expect(journalA.append([text('a, deposed')])).rejects.toBeInstanceOf(JournalFencedError);
    await Promise.all([journalA.close(), journalB.close(), leaseB.release()]);
  });

  it('refuses a bucket whose TTL differs', async () => {
    const bucket = nats.name('ttl');
    const a = await tryAcquireLeadership(lease(bucket, 'a'));
    await expect(tryAcquireLeadership({ ...lease(bucket, 'b'), ttlMs: 5_000 })).rejects.toThrow(
      `TTL of ${TTL_MS} ms`,
    );
    await a!.release();
  });
});
