/**
 * The journal's speed (apps/server/src/core/journal, docs/core.md).
 *
 *   node --import tsx bench/journal.bench.ts [--records 1000000] [--seconds 3]
 *
 * Appends of ~200-byte payloads, group-committed, for 1 and for 64 concurrent
 * appenders: appends per second and fsyncs per second, each with its ratio to
 * the anchor measured first in the same run: raw fs.writeSync + fdatasyncSync
 * of one record's bytes at a time (what one durable write costs this disk).
 * Then the replay rate: opening (which checks every record) and reading back
 * 1,000,000 records, with its ratio to a plain sequential read of the same
 * files. The files were just written, so both reads come from the page cache.
 * The load average is printed before and after: the machine is shared.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openFileJournal } from '../apps/server/src/core/journal/index.ts';

const { values } = parseArgs({ options: { records: { type: 'string' }, seconds: { type: 'string' } } });
const REPLAY_RECORDS = Number(values.records ?? 1_000_000);
const SECONDS = Number(values.seconds ?? 3);
const PAYLOAD_BYTES = 200;
const RECORD_BYTES = PAYLOAD_BYTES + 20;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-journal-bench-'));
const payload = Buffer.alloc(PAYLOAD_BYTES, '{"type":"order","side":"buy"}');

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const rate = (count: number, ms: number) => Math.round((count * 1000) / ms);
const fmt = (value: number) => value.toLocaleString('en-US');

/** Anchor: one raw write + fdatasync per record, as many as fit in SECONDS. */
function rawSyncedWritesPerSecond(): number {
  const file = path.join(root, 'anchor.bin');
  const fd = fs.openSync(file, 'w');
  const record = Buffer.alloc(RECORD_BYTES, 7);
  let position = 0;
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    fs.writeSync(fd, record, 0, record.length, position);
    fs.fdatasyncSync(fd);
    position += record.length;
    count += 1;
  }
  const elapsed = performance.now() - started;
  fs.closeSync(fd);
  fs.rmSync(file);
  return rate(count, elapsed);
}

async function concurrentAppends(appenders: number): Promise<{ appends: number; syncs: number }> {
  const journal = await openFileJournal(path.join(root, `appenders-${appenders}`));
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const loop = async () => {
    while (performance.now() < deadline) await journal.append([payload]);
  };
  await Promise.all(Array.from({ length: appenders }, loop));
  const elapsed = performance.now() - started;
  const stats = journal.stats();
  await journal.close();
  return { appends: rate(stats.records, elapsed), syncs: rate(stats.syncs, elapsed) };
}

async function writeReplayJournal(dir: string): Promise<void> {
  const journal = await openFileJournal(dir);
  const batch = Array.from({ length: 10_000 }, () => payload);
  for (let written = 0; written < REPLAY_RECORDS; written += batch.length) {
    await journal.append(batch.slice(0, Math.min(batch.length, REPLAY_RECORDS - written)));
  }
  await journal.close();
}

/** Anchor: the same segment files read sequentially in 1 MiB chunks, nothing decoded. */
async function plainReadMs(dir: string): Promise<number> {
  const started = performance.now();
  const chunk = Buffer.allocUnsafe(1024 * 1024);
  for (const name of fs.readdirSync(dir).sort()) {
    const handle = await fs.promises.open(path.join(dir, name), 'r');
    while ((await handle.read(chunk, 0, chunk.length, null)).bytesRead > 0);
    await handle.close();
  }
  return performance.now() - started;
}

async function replay(dir: string): Promise<{ openMs: number; readMs: number; batchesMs: number }> {
  let started = performance.now();
  const journal = await openFileJournal(dir);
  const openMs = performance.now() - started;
  started = performance.now();
  let count = 0;
  for await (const record of journal.read(0)) count += record.payload.length > 0 ? 1 : 0;
  const readMs = performance.now() - started;
  started = performance.now();
  let batched = 0;
  for await (const batch of journal.readBatches(0)) batched += batch.length;
  const batchesMs = performance.now() - started;
  await journal.close();
  if (count !== REPLAY_RECORDS || batched !== REPLAY_RECORDS)
    throw new Error(`read ${count}/${batched} records`);
  return { openMs, readMs, batchesMs };
}

try {
  console.log(
    `journal bench: ${PAYLOAD_BYTES}-byte payloads, ${SECONDS} s per append run, Node ${process.version}`,
  );
  console.log(`load average before: ${load()}`);
  // Measured before and after the append runs, as the disk is shared: the ratios use the mean.
  const anchorBefore = rawSyncedWritesPerSecond();
  const runs = [];
  for (const appenders of [1, 64]) runs.push({ appenders, ...(await concurrentAppends(appenders)) });
  const anchorAfter = rawSyncedWritesPerSecond();
  const anchor = Math.round((anchorBefore + anchorAfter) / 2);
  console.log(
    `anchor  raw writeSync + fdatasyncSync, one record each: ${fmt(anchor)} syncs/s ` +
      `(${fmt(anchorBefore)} before the append runs, ${fmt(anchorAfter)} after)`,
  );
  for (const { appenders, appends, syncs } of runs) {
    console.log(
      `append  ${String(appenders).padStart(2)} appender(s): ${fmt(appends)} appends/s (${(appends / anchor).toFixed(2)}x anchor), ` +
        `${fmt(syncs)} fsyncs/s (${(syncs / anchor).toFixed(2)}x anchor), ${(appends / syncs).toFixed(1)} records per fsync`,
    );
  }
  const dir = path.join(root, 'replay');
  await writeReplayJournal(dir);
  const plainMs = await plainReadMs(dir);
  const { openMs, readMs, batchesMs } = await replay(dir);
  const megabytes = (REPLAY_RECORDS * RECORD_BYTES) / 1024 / 1024;
  console.log(
    `anchor  plain sequential read of the segment files: ${plainMs.toFixed(0)} ms (${fmt(Math.round((megabytes * 1000) / plainMs))} MiB/s)`,
  );
  console.log(
    `open    (checks every record of ${fmt(REPLAY_RECORDS)}): ${openMs.toFixed(0)} ms, ${fmt(rate(REPLAY_RECORDS, openMs))} records/s (${(openMs / plainMs).toFixed(1)}x the plain read's time)`,
  );
  for (const [label, ms] of [
    ['read', readMs],
    ['readBatches', batchesMs],
  ] as const) {
    console.log(
      `replay  ${label}(0) of ${fmt(REPLAY_RECORDS)} records: ${ms.toFixed(0)} ms, ${fmt(rate(REPLAY_RECORDS, ms))} records/s (${(ms / plainMs).toFixed(1)}x the plain read's time)`,
    );
  }
  console.log(
    `start   open + read of ${fmt(REPLAY_RECORDS)} records: ${(openMs + readMs).toFixed(0)} ms (target: replay < 5000 ms)`,
  );
  console.log(`load average after: ${load()}`);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
