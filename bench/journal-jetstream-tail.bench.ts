/**
 * How soon a follower of the journal on JetStream sees a record (docs/core.md,
 * "The journal on NATS JetStream", "Reading").
 *
 *   node --import tsx bench/journal-jetstream-tail.bench.ts [--appends 2000] [--servers 127.0.0.1:4222]
 *
 * One writer appends `appends` times, one call at a time (the sequencer's
 * shape: one write in flight), first of 1 record a call, then of 64; a tail
 * on a connection of its own follows the stream meanwhile. For each record it
 * prints the p50 and p99 of: the append (call to ack: the anchor, measured in
 * the same run), call to delivery at the follower, and ack to delivery (below
 * zero when the follower had the record before the writer had its ack).
 * Writer and follower share this process and its event loop, as they would
 * not on two nodes. `uptime`'s load averages are printed before and after:
 * the machine is shared.
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, nuid } from '@nats-io/transport-node';
import { openJetStreamJournal, openJetStreamTail } from '../apps/server/src/core/journal-jetstream/index.ts';

const { values } = parseArgs({ options: { appends: { type: 'string' }, servers: { type: 'string' } } });
const APPENDS = Number(values.appends ?? 2_000);
const SERVERS = values.servers ?? '127.0.0.1:4222';
const PAYLOAD_BYTES = 200;

const payload = Buffer.alloc(PAYLOAD_BYTES, '{"type":"order","side":"buy"}');
const writerConnection = await connect({ servers: SERVERS });
const followerConnection = await connect({ servers: SERVERS });
const jsm = await jetstreamManager(writerConnection);
const streams: string[] = [];

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();

function percentile(sorted: Float64Array, share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

function summary(label: string, samples: number[], anchor?: { p50: number; p99: number }) {
  const sorted = Float64Array.from(samples).sort();
  const p50 = percentile(sorted, 0.5);
  const p99 = percentile(sorted, 0.99);
  const ratio = anchor
    ? `  (${(p50 / anchor.p50).toFixed(2)}x, ${(p99 / anchor.p99).toFixed(2)}x the append's)`
    : '';
  console.log(
    `  ${label.padEnd(28)} p50 ${p50.toFixed(3).padStart(7)} ms  p99 ${p99.toFixed(3).padStart(7)} ms${ratio}`,
  );
  return { p50, p99 };
}

async function run(perAppend: number): Promise<void> {
  const stream = `bench_tail_${nuid.next()}`;
  const subject = `${stream}.commands`;
  streams.push(stream);
  const journal = await openJetStreamJournal({ connection: writerConnection, stream, subject });
  const tail = await openJetStreamTail({ connection: followerConnection, stream, subject });
  const total = APPENDS * perAppend;
  const calledAt = new Float64Array(total + 1);
  const ackedAt = new Float64Array(total + 1);
  const deliveredAt = new Float64Array(total + 1);
  const stop = new AbortController();
  let delivered = 0;
  let allDelivered = () => {};
  const done = new Promise<void>((resolve) => {
    allDelivered = resolve;
  });
  const following = (async () => {
    for await (const batch of tail.follow(0, stop.signal)) {
      const now = performance.now();
      for (const record of batch) deliveredAt[record.seq] = now;
      delivered += batch.length;
      if (delivered === total) allDelivered();
    }
  })();
  const records = Array.from({ length: perAppend }, () => payload);
  for (let call = 0; call < APPENDS; call += 1) {
    const started = performance.now();
    const last = await journal.append(records);
    const acked = performance.now();
    for (let seq = last - perAppend + 1; seq <= last; seq += 1) {
      calledAt[seq] = started;
      ackedAt[seq] = acked;
    }
  }
  await done;
  stop.abort();
  await following;
  await Promise.all([journal.close(), tail.close()]);
  const appendMs: number[] = [];
  const toDeliveryMs: number[] = [];
  const ackToDeliveryMs: number[] = [];
  for (let seq = 1; seq <= total; seq += 1) {
    appendMs.push(ackedAt[seq]! - calledAt[seq]!);
    toDeliveryMs.push(deliveredAt[seq]! - calledAt[seq]!);
    ackToDeliveryMs.push(deliveredAt[seq]! - ackedAt[seq]!);
  }
  console.log(`${APPENDS} appends of ${perAppend} record(s) a call, ${total} records:`);
  const anchor = summary('append, call to ack (anchor)', appendMs);
  summary('call to delivery', toDeliveryMs, anchor);
  summary('ack to delivery', ackToDeliveryMs);
}

try {
  console.log(
    `journal-jetstream tail bench: ${PAYLOAD_BYTES}-byte payloads, ` +
      `NATS ${writerConnection.info?.version} at ${SERVERS}, Node ${process.version}`,
  );
  console.log(`before: ${uptime()}`);
  await run(1);
  await run(64);
  console.log(`after:  ${uptime()}`);
} finally {
  await Promise.all(streams.map((stream) => jsm.streams.delete(stream).catch(() => false)));
  await Promise.all([writerConnection.close(), followerConnection.close()]);
}
