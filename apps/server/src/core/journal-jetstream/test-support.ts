import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection, nuid } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const NATS_SERVERS = process.env.HALYARD_TEST_NATS_URL ?? '127.0.0.1:4222';

/** Whether a NATS server answers with its INFO line within half a second. */
function natsAnswers(servers = NATS_SERVERS): Promise<boolean> {
  const [host, port] = servers.replace(/^nats:\/\//, '').split(':');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port ?? 4222) });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('INFO')));
    socket.once('error', () => done(false));
  });
}

/**
 * True when these tests must be skipped: no NATS answers here. In CI (which
 * runs NATS) they are never skipped, so a missing server fails loudly there.
 */
export async function skipWithoutNats(): Promise<boolean> {
  if (process.env.CI || (await natsAnswers())) return false;
  console.warn(`NOTICE: no NATS server answers at ${NATS_SERVERS}: the JetStream journal tests are skipped`);
  return true;
}

/**
 * A connection shared by a file's tests, and names unique to each test: the
 * streams (KV and Object Store buckets are streams too, named KV_<bucket> and
 * OBJ_<bucket>) made under them are deleted after each test.
 */
export function useJetStream(): { nc: () => NatsConnection; name: (role: string) => string } {
  let nc: NatsConnection | undefined;
  const made: string[] = [];
  beforeAll(async () => {
    nc = await connect({ servers: NATS_SERVERS });
  });
  afterEach(async () => {
    const jsm = await jetstreamManager(nc!);
    await Promise.all(made.splice(0).map((stream) => jsm.streams.delete(stream).catch(() => false)));
  });
  afterAll(async () => {
    await nc?.close();
  });
  return {
    nc: () => nc!,
    name: (role) => {
      const unique = `test_${role}_${nuid.next()}`;
      made.push(unique, `KV_${unique}`, `OBJ_${unique}`);
      return unique;
    },
  };
}

/** Polls `check` every 20 ms until it holds (the test's timeout bounds the wait). */
export async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * True when the tests that start a NATS server of their own must be skipped:
 * no `nats-server` binary here. Never in CI, which has it.
 */
export function skipWithoutNatsServerBinary(): boolean {
  if (process.env.CI) return false;
  try {
    execFileSync('nats-server', ['--version'], { stdio: 'ignore' });
    return false;
  } catch {
    console.warn('NOTICE: no nats-server binary: the tests that restart a NATS server are skipped');
    return true;
  }
}

export interface PrivateNatsServer {
  /** host:port it listens on, the same across restarts. */
  readonly servers: string;
  /** Kills it with SIGKILL and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port and store directory, and waits until it answers. */
  start(): Promise<void>;
  /** Kills it and removes its store. */
  remove(): Promise<void>;
}

/** A nats-server with JetStream, on a free port and a store of its own: a test may kill and restart it. */
export async function startPrivateNatsServer(): Promise<PrivateNatsServer> {
  const storeDir = await fs.mkdtemp(path.join(os.tmpdir(), 'halyard-nats-'));
  const port = await freePort();
  const servers = `127.0.0.1:${port}`;
  let running: ChildProcess | null = null;
  const server: PrivateNatsServer = {
    servers,
    async kill() {
      const child = running;
      running = null;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async start() {
      running = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
        stdio: 'ignore',
      });
      await eventually(() => natsAnswers(servers));
    },
    async remove() {
      await server.kill();
      await fs.rm(storeDir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/** A port no one listens on now, on the loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
