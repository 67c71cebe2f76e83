import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type Store } from '../store/connect.ts';
import { ok } from './envelope.ts';
import { sqlRateLimitStore } from './rate-limit-store.ts';
import { createHttpServer } from './server.ts';

/**
 * Cluster mode's rate limits (docs/cluster.md, "What the gateways share"):
 * two gateways counting in one database limit a client as a whole, however
 * its requests are spread between them; each route and each client has its
 * own count, and a new window starts from one.
 */
describe('rate limits shared by two gateways', () => {
  let store: Store;
  let gateways: FastifyInstance[] = [];

  beforeAll(async () => {
    store = await openTestStore();
    gateways = await Promise.all([1, 2].map(() => gateway(store)));
  });

  afterAll(async () => {
    await Promise.all(gateways.map((http) => http.close()));
    await store?.close();
  });

  async function gateway(shared: Store): Promise<FastifyInstance> {
    const http = await createHttpServer({ logLevel: 'silent', sharedRateLimits: shared.db });
    const limited = { config: { rateLimit: { max: 3, timeWindow: '1 minute' } } };
    http.get('/limited', limited, async () => ok('yes'));
    http.get('/other', limited, async () => ok('yes'));
    await http.ready();
    return http;
  }

  const call = (index: number, url: string, ip = '203.0.113.7') =>
    gateways[index]!.inject({ method: 'GET', url, remoteAddress: ip });

  it('counts a client’s requests through both gateways together', async () => {
    const codes: number[] = [];
    for (const index of [0, 1, 0, 1]) codes.push((await call(index, '/limited')).json().code);
    expect(codes).toEqual([200, 200, 200, 429]);
    expect((await call(0, '/limited')).json().code).toBe(429);
    // Another route, another client: counts of their own.
    expect((await call(1, '/other')).json().code).toBe(200);
    expect((await call(0, '/limited', '203.0.113.8')).json().code).toBe(200);
  });

  it('counts concurrent requests once each', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => call(index % 2, '/limited', '198.51.100.1')),
    );
    const codes = answers.map((answer) => answer.json().code as number);
    expect(codes.filter((code) => code === 200)).toHaveLength(3);
    expect(codes.filter((code) => code === 429)).toHaveLength(5);
  });

  it('starts a new window from one once the last is over', async () => {
    let now = Date.parse('2026-11-27T12:00:00Z');
    const Store = sqlRateLimitStore(store.db, () => now);
    const route = new Store({}).child({
      routeInfo: { method: 'GET', url: '/windowed' },
    } as unknown as Parameters<InstanceType<typeof Store>['child']>[0]);
    const incr = () =>
      new Promise<{ current: number; ttl: number }>((resolve, reject) =>
        route.incr('client', (error, result) => (error ? reject(error) : resolve(result!)), 60_000, 3),
      );
    expect(await incr()).toEqual({ current: 1, ttl: 60_000 });
    now += 59_000;
    expect(await incr()).toEqual({ current: 2, ttl: 1_000 });
    now += 1_000;
    expect(await incr()).toEqual({ current: 1, ttl: 60_000 });
  });
});
