/**
 * WebSocket fan-out: K subscribers of one depth key (USDT_BTC_trad_1), depth
 * snapshots (20 levels) published at 10 pushes/s through app.realtime.publish.
 * The server (createApp + listen, the real gateway) runs in this process; the
 * subscribers run in two child processes so they do not share its event loop.
 * Each push carries its publish time (`ts`, stamped by the gateway); a client's
 * lag is its receive time minus `ts` (one machine, one clock).
 *
 * The subscribers are probes, not app clients: bare TCP sockets that speak
 * just enough WebSocket and read the push type, key and `ts` from the frame's
 * bytes instead of parsing the whole JSON, so the two probe processes (which
 * share the 2 cores with the server) add as little of their own delay as they
 * can. They run in sessions of their own, so the kernel shares the CPU
 * between them and the server as between separate programs (remote clients
 * would not share the server's CPU at all). Each step also prints the CPU the
 * server process and the probe processes used while publishing, as a share
 * of one core and per delivery: steadier than the lag on a shared machine.
 *
 * Pushes follow a fixed schedule (push i due at i × 100 ms); a push published
 * late (the server's process busy or descheduled) counts against the step:
 * it passes on the p99 of the lag counted from when each push was due.
 *
 * Anchor: the target of 5,000 subscribers with p99 lag < 100 ms and every
 * subscriber receiving ≥ 95% of the pushes. K ramps up; the largest K that
 * passes is the figure (every step runs, so one unlucky step does not end the
 * ramp). Each step lasts STEP_SECONDS of publishing.
 *
 *   npm run bench:ws            (or: npx tsx bench/ws-fanout.ts [K,K,...])
 */
import { type ChildProcess, fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { createApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openTestStore } from '../apps/server/src/store/connect.ts';

const STEPS = (process.argv[2] ?? '1000,2000,5000,8000').split(',').map(Number);
const CLIENT_PROCESSES = 2;
const PUSHES_PER_S = 10;
const STEP_SECONDS = 10;
const SUBSCRIPTION = 'USDT_BTC_trad_1';
const MARKET_KEY = 'USDT_BTC_trad';
const PORT = 18_433;
const CONNECT_BATCH = 200;

/** Parent → client process. */
type Command = { kind: 'connect'; count: number; offset: number } | { kind: 'report' } | { kind: 'close' };
/** Client process → parent. */
type Reply =
  | { kind: 'connected'; open: number }
  | { kind: 'report'; publishedAt: number[]; lagsMs: number[]; receivedPerClient: number[]; cpuMs: number }
  | { kind: 'closed' };

if (process.argv[2] === '--clients') runClients();
else await main();

async function main(): Promise<void> {
  const load = (): string =>
    `load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`;
  const store = await openTestStore();
  const app = await createApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), store, rateLimits: false });
  await app.http.listen({ port: PORT, host: '127.0.0.1' });
  const children = Array.from({ length: CLIENT_PROCESSES }, () =>
    // Each in its own session: Linux's autogroup scheduler then shares the CPU between the server and each
    // probe process as between separate programs, instead of the probes' reading eating into the server's share.
    fork(new URL(import.meta.url).pathname, ['--clients', String(PORT)], {
      execArgv: ['--import', 'tsx'],
      detached: true,
    }),
  );
  let best = 0;
  try {
    for (const subscribers of STEPS) {
      // Every step runs, even after a failure: on a shared machine one step can fail on a burst of outside load.
      const passed = await step(app.realtime.publish.bind(app.realtime), children, subscribers, load);
      if (passed) best = Math.max(best, subscribers);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await app.close();
    await store.close();
  }
  console.log(
    `largest K with p99 lag (from when due) < 100 ms and ≥ 95% delivered: ${best.toLocaleString('en-US')} (target ≥ 5,000) ${best >= 5_000 ? 'MET' : 'MISSED'}; ratio to target ${(best / 5_000).toFixed(2)}×`,
  );
}

type Publish = (push: { type: 'buy'; key: string; data: { price: string; amount: string }[] }) => void;

async function step(publish: Publish, children: ChildProcess[], subscribers: number, load: () => string) {
  const share = Math.ceil(subscribers / children.length);
  const connected = await Promise.all(
    children.map((child, index) =>
      ask(child, {
        kind: 'connect',
        count: Math.min(share, subscribers - index * share),
        offset: index * share,
      }),
    ),
  );
  const open = connected.reduce((sum, reply) => sum + (reply.kind === 'connected' ? reply.open : 0), 0);
  const pushes = PUSHES_PER_S * STEP_SECONDS;
  const lateMs: number[] = [];
  /** How long each publish call took: the fan-out itself, unless the rate limit held the push. */
  const publishCallMs: number[] = [];
  /** Each push's publish time (epoch ms, as the gateway stamps `ts`) and how late it was published. */
  const published: Array<{ at: number; lateMs: number }> = [];
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  // A fixed schedule: push i is due at i × 100 ms. A server too busy to publish on time shows as lateness.
  for (let sequence = 0; sequence < pushes; sequence += 1) {
    const due = wallBefore + (sequence * 1_000) / PUSHES_PER_S;
    await sleep(due - performance.now());
    const data = depthSnapshot(sequence);
    const lateness = performance.now() - due;
    lateMs.push(lateness);
    published.push({ at: Date.now(), lateMs: lateness });
    const started = performance.now();
    publish({ type: 'buy', key: MARKET_KEY, data });
    publishCallMs.push(performance.now() - started);
  }
  await sleep(1_000); // the last pushes' delivery
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - wallBefore;
  const reports = await Promise.all(children.map((child) => ask(child, { kind: 'report' })));
  await Promise.all(children.map((child) => ask(child, { kind: 'close' })));
  const lags: number[] = [];
  const sinceDue: number[] = [];
  const lateAt = latenessOf(published);
  const received: number[] = [];
  let probeCpuMs = 0;
  for (const report of reports) {
    if (report.kind !== 'report') continue;
    report.lagsMs.forEach((lag, index) => {
      lags.push(lag);
      sinceDue.push(lag + lateAt(report.publishedAt[index] ?? 0));
    });
    for (const count of report.receivedPerClient) received.push(count);
    probeCpuMs += report.cpuMs;
  }
  const lag = percentiles(lags);
  const worstShare = Math.min(...received) / pushes;
  const late = percentiles(lateMs);
  const fanOut = percentiles(publishCallMs);
  // A push published late reaches its clients that much later: the step passes on the lag counted from when it was due.
  const fromDue = percentiles(sinceDue);
  const passed = open === subscribers && fromDue(0.99) < 100 && worstShare >= 0.95;
  const core = (cpuMs: number): string => `${((cpuMs / wallMs) * 100).toFixed(0)}%`;
  const serverCpuMs = (cpu.user + cpu.system) / 1000;
  const perDeliveryUs = (cpuMs: number): string => ((cpuMs * 1000) / Math.max(1, lags.length)).toFixed(2);
  console.log(
    `K=${subscribers.toLocaleString('en-US')}: ${open} open, ${lags.length.toLocaleString('en-US')} deliveries of ${pushes} pushes, lag p50 ${lag(0.5)} ms p99 ${lag(0.99)} ms max ${lag(1)} ms, from due p99 ${fromDue(0.99).toFixed(0)} ms, worst subscriber got ${(worstShare * 100).toFixed(1)}% — ${passed ? 'PASS' : 'FAIL'} (${load()})`,
  );
  console.log(
    `  server CPU ${core(serverCpuMs)} of a core (user ${core(cpu.user / 1000)}, system ${core(cpu.system / 1000)}), ${perDeliveryUs(serverCpuMs)} µs a delivery; probes ${core(probeCpuMs)}, ${perDeliveryUs(probeCpuMs)} µs a delivery; publish call (the fan-out) p50 ${fanOut(0.5).toFixed(1)} ms p99 ${fanOut(0.99).toFixed(1)} ms; published late p50 ${late(0.5).toFixed(1)} ms p99 ${late(0.99).toFixed(1)} ms`,
  );
  return passed;
}

/**
 * How late the push stamped `ts` was published. The gateway reads the clock
 * just after the bench, in the same millisecond or the next; pushes published
 * that close together (catching up after a stall) are told apart by neither,
 * so the latest of them counts (never earlier than due).
 */
function latenessOf(published: Array<{ at: number; lateMs: number }>): (ts: number) => number {
  const worstAt = new Map<number, number>();
  for (const push of published) worstAt.set(push.at, Math.max(push.lateMs, worstAt.get(push.at) ?? 0));
  return (ts) => Math.max(worstAt.get(ts) ?? 0, worstAt.get(ts - 1) ?? 0);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** The value at a fraction (0…1) of the sorted values. */
function percentiles(values: number[]): (fraction: number) => number {
  const sorted = [...values].sort((a, b) => a - b);
  return (fraction) =>
    sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** 20 levels a side's worth of depth, different each push like a live book. */
function depthSnapshot(sequence: number): { price: string; amount: string }[] {
  return Array.from({ length: 20 }, (_, level) => ({
    price: (60_000 - level).toFixed(2),
    amount: ((sequence % 97) / 1000 + level / 100 + 0.001).toFixed(5),
  }));
}

function ask(child: ChildProcess, command: Command): Promise<Reply> {
  return new Promise((resolve) => {
    child.once('message', (reply: Reply) => resolve(reply));
    child.send(command);
  });
}

/** The start of every frame the probes count; the gateway writes `ts` last. */
const DEPTH_PREFIX = Buffer.from(`{"type":"buy","key":"${MARKET_KEY}",`);
const TS_FIELD = Buffer.from('"ts":');

/** The publish time of a counted depth frame, or null for any other frame. */
function depthPushTime(frame: Buffer): number | null {
  if (frame.compare(DEPTH_PREFIX, 0, DEPTH_PREFIX.length, 0, DEPTH_PREFIX.length) !== 0) return null;
  const at = frame.lastIndexOf(TS_FIELD);
  return at < 0
    ? null
    : Number.parseInt(frame.toString('latin1', at + TS_FIELD.length, frame.length - 1), 10);
}

/**
 * One subscriber on a bare TCP socket: the WebSocket upgrade, the
 * subscription as a masked text frame, then the server's frames cut by hand
 * (unmasked, unfragmented, uncompressed: all the gateway sends). Cheaper per
 * frame than a full client, so the probes' own work adds little to the lag.
 */
function openProbe(port: number, index: number, onText: (payload: Buffer) => void): Promise<Socket | null> {
  return new Promise((resolve) => {
    let pending = Buffer.alloc(0);
    let upgraded = false;
    const socket = connect({
      port,
      host: '127.0.0.1',
      // Reads land in one shared buffer and come straight here, past the stream machinery.
      onread: {
        buffer: READ_BUFFER,
        callback: (size, buffer) => {
          const chunk = buffer.subarray(0, size);
          pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
          if (!upgraded) {
            const end = pending.indexOf('\r\n\r\n');
            if (end < 0) {
              pending = Buffer.from(pending);
              return true;
            }
            if (!pending.toString('latin1', 0, 12).endsWith('101')) {
              socket.destroy();
              resolve(null);
              return false;
            }
            upgraded = true;
            pending = pending.subarray(end + 4);
            socket.write(maskedTextFrame(SUBSCRIPTION));
            resolve(socket);
          }
          // What is left (a frame cut short) is copied out of the shared buffer before the next read.
          pending = Buffer.from(readFrames(pending, onText));
          return true;
        },
      },
    });
    socket.setNoDelay(true);
    socket.on('connect', () =>
      socket.write(
        `GET /ws/bench${index} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    );
    socket.on('error', () => resolve(null));
  });
}

/** One read buffer for all of a probe process's sockets: each read is handled before the next. */
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024);

/** Calls onText for each whole text frame in the bytes; returns the rest (a frame cut short). */
function readFrames(bytes: Buffer, onText: (payload: Buffer) => void): Buffer {
  let at = 0;
  while (bytes.length - at >= 2) {
    const short = bytes[at + 1]! & 0x7f;
    const header = short === 126 ? 4 : short === 127 ? 10 : 2;
    if (bytes.length - at < header) break;
    const length =
      short === 126
        ? bytes.readUInt16BE(at + 2)
        : short === 127
          ? Number(bytes.readBigUInt64BE(at + 2))
          : short;
    if (bytes.length - at < header + length) break;
    if ((bytes[at]! & 0x0f) === 1) onText(bytes.subarray(at + header, at + header + length));
    at += header + length;
  }
  return bytes.subarray(at);
}

/** A client's short (< 126 bytes) text frame; the all-zero mask leaves the payload as it is. */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]);
}

/** A client process: opens subscribers on request, counts what each receives and how late. */
function runClients(): void {
  const port = Number(process.argv[3]);
  // Detached from the bench's session: end with it.
  process.on('disconnect', () => process.exit(0));
  let sockets: Socket[] = [];
  let received: number[] = [];
  let lags: number[] = [];
  let publishedAt: number[] = [];
  let cpuAtStart = process.cpuUsage();

  const open = (index: number): Promise<Socket | null> => {
    const slot = received.length;
    received.push(0);
    return openProbe(port, index, (payload) => {
      const ts = depthPushTime(payload);
      if (ts === null) return;
      lags.push(Date.now() - ts);
      publishedAt.push(ts);
      received[slot]! += 1;
    });
  };

  process.on('message', async (command: Command) => {
    if (command.kind === 'connect') {
      for (let first = 0; first < command.count; first += CONNECT_BATCH) {
        const batch = Array.from({ length: Math.min(CONNECT_BATCH, command.count - first) }, (_, index) =>
          open(command.offset + first + index),
        );
        for (const socket of await Promise.all(batch)) if (socket) sockets.push(socket);
      }
      // Let the subscriptions land (and their first snapshot pass) before counting.
      await new Promise((resolve) => setTimeout(resolve, 500));
      received.fill(0);
      lags = [];
      publishedAt = [];
      cpuAtStart = process.cpuUsage();
      process.send?.({ kind: 'connected', open: sockets.length } satisfies Reply);
    } else if (command.kind === 'report') {
      const cpu = process.cpuUsage(cpuAtStart);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      process.send?.({
        kind: 'report',
        publishedAt,
        lagsMs: lags,
        receivedPerClient: received,
        cpuMs,
      } satisfies Reply);
    } else {
      for (const socket of sockets) socket.destroy();
      sockets = [];
      received = [];
      lags = [];
      publishedAt = [];
      process.send?.({ kind: 'closed' } satisfies Reply);
    }
  });
}
