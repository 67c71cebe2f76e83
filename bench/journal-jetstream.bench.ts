/**
 * The journal on JetStream against the file journal (docs/core.md, "The
 * journal on NATS JetStream").
 *
 *   node --import tsx bench/journal-jetstream.bench.ts [--seconds 3] [--records 100000] [--servers 127.0.0.1:4222]
 *
 * Appends of 200-byte payloads for 1 and for 64 concurrent appenders of one
 * record a call, and for 1 appender of 64 records a call (the sequencer's
 * shape: one journal write in flight, carrying a batch), each run on the
 * JetStream journal (one local server, file storage, R1) right
 * after the same run on the file journal, which is the anchor: the ratio is
 * JetStream's rate over the file journal's. Then reading back `records`
 * records from each. The two do not promise the same thing: the file journal
 * resolves after fdatasync; the JetStream ack of an R1 stream means the
 * server has the record, which it fsyncs on its own schedule unless
 * configured to sync always. `uptime`'s load averages are printed before and
 * after: the machine is shared.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, nuid } from '@nats-io/transport-node';
import { type Journal, type JournalRecord, openFileJournal } from '../apps/server/src/core/journal/index.ts';
import { openJetStreamJournal } from '../apps/server/src/core/journal-jetstream/index.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string' }, records: { type: 'string' }, servers: { type: 'string' } },
});
const SECONDS = Number(values.seconds ?? 3);
const READ_RECORDS = Number(values.records ?? 100_000);
const SERVERS = values.servers ?? '127.0.0.1:4222';
const PAYLOAD_BYTES = 200;

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-journal-jetstream-bench-'));
const payload = Buffer.alloc(PAYLOAD_BYTES, '{"type":"order","side":"buy"}');
const nc = await connect({ servers: SERVERS });
const jsm = await jetstreamManager(nc);
const streams: string[] = [];

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const rate = (count: number, ms: number) => Math.round((count * 1000) / ms);
const fmt = (value: number) => value.toLocaleString('en-US');

type Kind = 'file' | 'jetstream';

async function openJournal(
  kind: Kind,
  label: string,
): Promise<Journal & { readBatches(after: number): AsyncIterable<JournalRecord[]> }> {
  if (kind === 'file') return openFileJournal(path.join(root, label));
  const stream = `bench_${label}_${nuid.next()}`;
  streams.push(stream);
  return openJetStreamJournal({ connection: nc, stream, subject: `${stream}.commands` });
}

/** `appenders` loops, each appending `perAppend` records a call and awaiting it before the next. */
async function appendsPerSecond(kind: Kind, appenders: number, perAppend: number): Promise<number> {
  const journal = await openJournal(kind, `appenders-${appenders}x${perAppend}`);
  const records = Array.from({ length: perAppend }, () => payload);
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const loop = async () => {
    while (performance.now() < deadline) await journal.append(records);
  };
  await Promise.all(Array.from({ length: appenders }, loop));
  const elapsed = performance.now() - started;
  const appended = journal.lastSequence();
  await journal.close();
  return rate(appended, elapsed);
}

async function readMs(kind: Kind): Promise<number> {
  const journal = await openJournal(kind, 'read');
  const batch = Array.from({ length: 1_000 }, () => payload);
  for (let written = 0; written < READ_RECORDS; written += batch.length)
    await journal.append(batch.slice(0, Math.min(batch.length, READ_RECORDS - written)));
  const started = performance.now();
  let count = 0;
  for await (const records of journal.readBatches(0)) count += records.length;
  const elapsed = performance.now() - started;
  await journal.close();
  if (count !== READ_RECORDS) throw new Error(`${kind}: read ${count} of ${READ_RECORDS} records`);
  return elapsed;
}

try {
  console.log(
    `journal-jetstream bench: ${PAYLOAD_BYTES}-byte payloads, ${SECONDS} s per append run, ` +
      `NATS ${nc.info?.version} at ${SERVERS}, Node ${process.version}`,
  );
  console.log(`before: ${uptime()}`);
  // The last shape is the sequencer's: one append in flight at a time, carrying a batch of commands.
  for (const [appenders, perAppend] of [
    [1, 1],
    [64, 1],
    [1, 64],
  ] as const) {
    const file = await appendsPerSecond('file', appenders, perAppend);
    const jetstream = await appendsPerSecond('jetstream', appenders, perAppend);
    console.log(
      `append ${String(appenders).padStart(2)} appender(s) x ${String(perAppend).padStart(2)} record(s) a call: ` +
        `jetstream ${fmt(jetstream)} records/s, file ${fmt(file)} records/s (anchor): ${(jetstream / file).toFixed(2)}x`,
    );
  }
  const fileRead = await readMs('file');
  const jetstreamRead = await readMs('jetstream');
  console.log(
    `read   ${fmt(READ_RECORDS)} records: jetstream ${fmt(rate(READ_RECORDS, jetstreamRead))}/s (${jetstreamRead.toFixed(0)} ms), ` +
      `file ${fmt(rate(READ_RECORDS, fileRead))}/s (anchor): ${(fileRead / jetstreamRead).toFixed(2)}x`,
  );
  console.log(`after:  ${uptime()}`);
} finally {
  await Promise.all(streams.map((stream) => jsm.streams.delete(stream).catch(() => false)));
  await nc.close();
  fs.rmSync(root, { recursive: true, force: true });
}
