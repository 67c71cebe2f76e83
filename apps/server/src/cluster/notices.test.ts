import { connect, type NatsConnection, nuid } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  NATS_SERVERS,
  skipWithoutNats,
  skipWithoutNatsServerBinary,
  startPrivateNatsServer,
} from '../core/journal-jetstream/test-support.ts';
import { type CachedTrader, ChecksCache, type Forgotten } from '../modules/identity/checks-cache.ts';
import { ClusterNotices } from './notices.ts';
import { clusterNames } from './protocol.ts';

/**
 * The identity checks cache of two gateways over NATS (docs/cluster.md,
 * "What the gateways share"): a freeze or a logout through one gateway is
 * forgotten by the other as it hears the notice; while a gateway's
 * connection is down it keeps nothing, since it could miss one.
 */

const TRADER: CachedTrader = { email: 'a@example.com', freezes: [] };

/** A read that counts its calls and answers `value()` at the time of the call. */
function counting<T>(value: () => T) {
  const read = async () => {
    read.calls += 1;
    return value();
  };
  read.calls = 0;
  return read;
}

/** One gateway: its connection, its notices and its identity cache. */
function gateway(nc: NatsConnection, cluster: string) {
  const names = clusterNames(cluster);
  const notices = new ClusterNotices(nc, names.subjects.views, (error) => {
    throw error;
  });
  return new ChecksCache(() => 0, notices.channel<Forgotten>('identity'));
}

describe.skipIf(await skipWithoutNats())('the checks cache of two gateways', () => {
  let connections: NatsConnection[] = [];
  let one: ChecksCache;
  let other: ChecksCache;

  beforeAll(async () => {
    connections = await Promise.all([1, 2].map(() => connect({ servers: NATS_SERVERS })));
    const cluster = `test_${nuid.next()}`;
    one = gateway(connections[0]!, cluster);
    other = gateway(connections[1]!, cluster);
    await Promise.all(connections.map((nc) => nc.flush()));
  });

  afterAll(async () => {
    one?.close();
    other?.close();
    await Promise.all(connections.map((nc) => nc.close()));
  });

  it('forgets on the other gateway the freeze and the logout made through one', async () => {
    let email = TRADER.email;
    const onOther = counting(() => ({ ...TRADER, email }));
    expect(await other.trader(7, onOther)).toMatchObject({ email: 'a@example.com' });
    expect(await other.trader(7, onOther)).toMatchObject({ email: 'a@example.com' });
    expect(onOther.calls).toBe(1);
    // The write (a freeze, an email bound) commits through the first gateway, which forgets and tells.
    email = 'b@example.com';
    one.forgetTrader(7);
    await eventually(async () => (await other.trader(7, onOther))?.email === 'b@example.com');
    expect(onOther.calls).toBe(2);

    let session: { userId: number; expiresAt: number } | null = { userId: 7, expiresAt: 100 };
    const sessionOnOther = counting(() => session);
    expect(await other.session('hash', sessionOnOther)).not.toBeNull();
    session = null;
    one.forgetSession('hash');
    await eventually(async () => (await other.session('hash', sessionOnOther)) === null);

    session = { userId: 8, expiresAt: 100 };
    expect(await other.session('kept', sessionOnOther)).not.toBeNull();
    expect(await other.session('revoked', sessionOnOther)).not.toBeNull();
    const calls = sessionOnOther.calls;
    one.forgetUserSessions(8, 'kept');
    await eventually(async () => {
      await other.session('revoked', sessionOnOther);
      return sessionOnOther.calls > calls;
    });
    await other.session('kept', sessionOnOther);
    expect(sessionOnOther.calls).toBe(calls + 1);
  });
});

describe.skipIf(skipWithoutNatsServerBinary())('a gateway whose connection is down', () => {
  it('keeps nothing until it hears notices again, then caches as before', async () => {
    const server = await startPrivateNatsServer();
    const nc = await connect({ servers: server.servers, reconnectTimeWait: 50, maxReconnectAttempts: -1 });
    try {
      const cache = gateway(nc, `test_${nuid.next()}`);
      const read = counting(() => TRADER);
      await cache.trader(7, read);
      await cache.trader(7, read);
      expect(read.calls).toBe(1);

      await server.kill();
      // Deaf once the client sees the connection gone: every check reads the store.
      await eventually(async () => {
        const before = read.calls;
        await cache.trader(7, read);
        return read.calls > before;
      });
      const deafCalls = read.calls;
      await cache.trader(7, read);
      await cache.trader(7, read);
      expect(read.calls).toBe(deafCalls + 2);

      await server.start();
      // Listening again: it keeps what it reads, as before.
      await eventually(async () => {
        await cache.trader(7, read);
        const kept = read.calls;
        await cache.trader(7, read);
        return read.calls === kept;
      });
      cache.close();
    } finally {
      await nc.close();
      await server.remove();
    }
  });
});
