import net from 'node:net';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection, nuid } from '@nats-io/transport-node';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const NATS_SERVERS = process.env.HALYARD_TEST_NATS_URL ?? '127.0.0.1:4222';

/** Whether a NATS server answers with its INFO line within half a second. */
function natsAnswers(): Promise<boolean> {
  const [host, port] = NATS_SERVERS.replace(/^nats:\/\//, '').split(':');
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
 * streams (KV buckets are streams too, named KV_<bucket>) made under them
 * are deleted after each test.
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
      made.push(unique, `KV_${unique}`);
      return unique;
    },
  };
}

/** Polls `check` every 20 ms until it holds (the test's timeout bounds the wait). */
export async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}
