/**
 * The snapshot store on a JetStream Object Store bucket against the file
 * store (docs/core.md, "Snapshots in cluster mode").
 *
 *   node --import tsx bench/snapshot-store-jetstream.bench.ts [--megabytes 100] [--servers 127.0.0.1:4222]
 *
 * Writes one snapshot of `megabytes` MB, then reads it back with latest(),
 * on the file store (the anchor: temp file, fsync, rename) and then on the
 * bucket (one local server, file storage, R1: chunks of 1 MiB, each awaited,
 * SHA-256 and CRC-32 on both ways). Prints MB/s and the ratio to the file
 * store's, with `uptime`'s load averages before and after: the machine is
 * shared.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, nuid } from '@nats-io/transport-node';
import { openSnapshotStore, type SnapshotStore } from '../apps/server/src/core/journal/index.ts';
import { openJetStreamSnapshotStore } from '../apps/server/src/core/journal-jetstream/index.ts';

const { values } = parseArgs({ options: { megabytes: { type: 'string' }, servers: { type: 'string' } } });
const MEGABYTES = Number(values.megabytes ?? 100);
const SERVERS = values.servers ?? '127.0.0.1:4222';

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-snapshot-bench-'));
const nc = await connect({ servers: SERVERS });
const bucket = `bench_snapshots_${nuid.next()}`;
// Not all one byte: a state's encoding is not.
const bytes = Buffer.alloc(MEGABYTES * 1024 * 1024);
for (let at = 0; at + 4 <= bytes.length; at += 4) bytes.writeUInt32LE((at * 2_654_435_761) >>> 0, at);

async function timed(store: SnapshotStore): Promise<{ writeMs: number; readMs: number }> {
  const started = performance.now();
  await store.write(1, bytes);
  const written = performance.now();
  const latest = await store.latest();
  const read = performance.now();
  if (latest?.bytes.length !== bytes.length) throw new Error('read back a different snapshot');
  return { writeMs: written - started, readMs: read - written };
}

const rate = (ms: number) => ((MEGABYTES * 1000) / ms).toFixed(0);

try {
  console.log(
    `snapshot-store-jetstream bench: one ${MEGABYTES} MB snapshot, NATS ${nc.info?.version}, Node ${process.version}`,
  );
  console.log(`before: ${uptime()}`);
  const file = await timed(openSnapshotStore(path.join(root, 'snapshots')));
  const store = await openJetStreamSnapshotStore({ connection: nc, bucket });
  const jetstream = await timed(store);
  for (const [what, key] of [
    ['write', 'writeMs'],
    ['latest', 'readMs'],
  ] as const)
    console.log(
      `${what.padEnd(6)} jetstream ${rate(jetstream[key])} MB/s (${jetstream[key].toFixed(0)} ms), ` +
        `file ${rate(file[key])} MB/s (anchor): ${(file[key] / jetstream[key]).toFixed(2)}x`,
    );
  console.log(`after:  ${uptime()}`);
} finally {
  await (await jetstreamManager(nc)).streams.delete(`OBJ_${bucket}`).catch(() => false);
  await nc.close();
  fs.rmSync(root, { recursive: true, force: true });
}
