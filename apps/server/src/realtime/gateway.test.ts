import type { AddressInfo } from 'node:net';
import { Dec } from '@halyard/money';
import type { DepthLevel, ServerPush } from '@halyard/protocol';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { type App, createApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { createHttpServer } from '../http/server.ts';
import { openTestStore } from '../store/connect.ts';
import { RealtimeGateway } from './gateway.ts';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A live client that keeps every frame it receives. */
class TestClient {
  readonly frames: string[] = [];
  readonly closed: Promise<number>;
  private waiters: Array<() => void> = [];

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(String(data));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
  }

  static async connect(
    base: string,
    path: string,
    headers: Record<string, string> = {},
  ): Promise<TestClient> {
    const socket = new WebSocket(`${base}${path}`, { headers });
    const client = new TestClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    cleanups.push(async () => {
      socket.terminate();
    });
    return client;
  }

  pushes(): ServerPush[] {
    return this.frames.filter((frame) => frame !== 'pong').map((frame) => JSON.parse(frame) as ServerPush);
  }

  ofType(type: ServerPush['type']): ServerPush[] {
    return this.pushes().filter((push) => push.type === type);
  }

  async waitFor(predicate: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline)
        throw new Error(`timed out; frames: ${this.frames.join('\n').slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
  }

  /**
   * Frames arrive in order: once the answer to this ping is in, every frame
   * the server sent before reading it is in too.
   */
  async barrier(): Promise<void> {
    const pongs = this.frames.filter((frame) => frame === 'pong').length;
    this.socket.send('ping');
    await this.waitFor(() => this.frames.filter((frame) => frame === 'pong').length > pongs);
  }

  async subscribe(key: string): Promise<void> {
    this.socket.send(key);
    await this.barrier();
  }
}

async function listen(http: FastifyInstance): Promise<string> {
  await http.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
}

/** The gateway alone on an HTTP server, so no other module's pushes mix in. */
async function startGateway(
  options: { maxBufferedBytes?: number; onError?: (error: unknown) => void } = {},
): Promise<{ gateway: RealtimeGateway; clock: ManualClock; base: string }> {
  const clock = new ManualClock(Date.parse('2026-03-18T10:00:00Z'));
  const http = await createHttpServer({ logLevel: 'silent' });
  const gateway = new RealtimeGateway({ clock, ...options });
  await gateway.register(http);
  cleanups.push(async () => {
    gateway.close();
    await http.close();
  });
  return { gateway, clock, base: await listen(http) };
}

/** The whole app: market data wired to the gateway. */
async function startApp(): Promise<{ app: App; clock: ManualClock; base: string }> {
  const store = await openTestStore();
  const clock = new ManualClock(Date.parse('2026-03-18T10:00:00Z'));
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const app = await createApp({ config, store, clock, rateLimits: false });
  cleanups.push(async () => {
    await app.close();
    await store.close();
  });
  return { app, clock, base: await listen(app.http) };
}

const ticker = (price: string) => ({
  maincoin: 'USDT',
  tradcoin: 'BTC',
  price,
  rise: '0.00',
  high: price,
  low: price,
  volume: '0',
  ts: 0,
});

const depth = (amount: number): DepthLevel[] => [{ price: '96500', amount: String(amount) }];

describe('realtime gateway', () => {
  it('answers ping with pong', async () => {
    const { base } = await startGateway();
    const client = await TestClient.connect(base, '/ws/1700000000000123');
    client.socket.send('ping');
    await client.waitFor(() => client.frames.includes('pong'));
  });

  it('routes market pushes to the market, kline pushes to the period, broadcasts to all', async () => {
    const { gateway, base } = await startGateway();
    const btc1 = await TestClient.connect(base, '/ws/a1');
    const btc5 = await TestClient.connect(base, '/ws/a2');
    const idle = await TestClient.connect(base, '/ws/a3');
    await btc1.subscribe('USDT_BTC_trad_1');
    await btc5.subscribe('usdt_btc_trad_5');

    gateway.publish({ type: 'top', key: 'USDT_BTC_trad', data: [] });
    gateway.publish({ type: 'kline', key: 'USDT_BTC_trad_1', mine: 1, data: { series: ['a'] } });
    gateway.publish({ type: 'kline', key: 'USDT_BTC_trad_5', mine: 5, data: { series: ['b'] } });
    gateway.publish({ type: 'contop', key: 'USDT_BTC_contract', data: [] });
    gateway.publish({ type: 'symbols', data: [] });
    for (const client of [btc1, btc5, idle]) await client.barrier();

    expect(btc1.pushes().map((push) => push.type)).toEqual(['top', 'kline', 'symbols']);
    expect(btc1.ofType('kline')[0]).toMatchObject({
      key: 'USDT_BTC_trad_1',
      mine: 1,
      data: { series: ['a'] },
    });
    expect(btc5.pushes().map((push) => push.type)).toEqual(['top', 'kline', 'symbols']);
    expect(btc5.ofType('kline')[0]).toMatchObject({ data: { series: ['b'] } });
    expect(idle.pushes().map((push) => push.type)).toEqual(['symbols']);
    expect(btc1.pushes()[0]?.ts).toBe(Date.parse('2026-03-18T10:00:00Z'));
  });

  it('holds one subscription at a time: a new key replaces the old', async () => {
    const { gateway, base } = await startGateway();
    const client = await TestClient.connect(base, '/ws/b1');
    await client.subscribe('USDT_BTC_trad_1');
    await client.subscribe('USDT_ETH_contract_15');
    gateway.publish({ type: 'top', key: 'USDT_BTC_trad', data: [] });
    gateway.publish({ type: 'kline', key: 'USDT_BTC_trad_1', mine: 1, data: { series: [] } });
    gateway.publish({ type: 'contop', key: 'USDT_ETH_contract', data: [] });
    await client.barrier();
    expect(client.pushes().map((push) => push.type)).toEqual(['contop']);
  });

  it('sends the latest snapshots on connect and on subscribe', async () => {
    const { gateway, base } = await startGateway();
    gateway.publish({ type: 'overview', data: [] });
    gateway.publish({ type: 'info', key: 'USDT_BTC_trad', data: ticker('1') });
    gateway.publish({ type: 'buy', key: 'USDT_BTC_trad', data: depth(1) });
    const client = await TestClient.connect(base, '/ws/c1');
    await client.subscribe('USDT_BTC_trad_1');
    expect(client.pushes().map((push) => push.type)).toEqual(['overview', 'info', 'buy']);
  });

  it('pushes committed K-line bars and the ticker from market data', async () => {
    const { app, base } = await startApp();
    const client = await TestClient.connect(base, '/ws/d1');
    await client.subscribe('USDT_BTC_trad_1');
    app.market.data.recordTrades({ kind: 'trad', maincoin: 'USDT', tradcoin: 'BTC' }, [
      { price: Dec.parse('96500.5'), amount: Dec.parse('0.2'), ts: Date.parse('2026-03-18T10:00:01Z') },
    ]);
    await app.market.data.flush();
    await client.barrier();
    expect(client.ofType('info')[0]).toMatchObject({
      key: 'USDT_BTC_trad',
      data: { price: '96500.5', volume: '0.2' },
    });
    expect(client.ofType('kline')).toEqual([
      expect.objectContaining({
        mine: 1,
        data: { series: ['20260318100000|96500.5|96500.5|96500.5|96500.5|0.2'] },
      }),
    ]);
  });

  it('coalesces a burst of depth updates: at most three frames, the last one wins', async () => {
    const { gateway, base } = await startGateway();
    const client = await TestClient.connect(base, '/ws/e1');
    await client.subscribe('USDT_BTC_trad_1');
    // One synchronous burst: all 50 land within one interval.
    for (let update = 1; update <= 50; update += 1) {
      gateway.publish({ type: 'buy', key: 'USDT_BTC_trad', data: depth(update) });
    }
    // The trailing frame leaves 100 ms later.
    const lastDepth = JSON.stringify(depth(50));
    await client.waitFor(() => client.ofType('buy').some((push) => JSON.stringify(push.data) === lastDepth));
    await new Promise((resolve) => setTimeout(resolve, 250));
    await client.barrier();
    // The first two go out at once (the rate limit's one frame of slack), the last when there is room.
    const buys = client.ofType('buy');
    expect(buys.length).toBeGreaterThanOrEqual(1);
    expect(buys.length).toBeLessThanOrEqual(3);
    expect(buys.at(-1)?.data).toEqual(depth(50));
    // Each side and key has its own window.
    gateway.publish({ type: 'sell', key: 'USDT_BTC_trad', data: depth(7) });
    await client.barrier();
    expect(client.ofType('sell')).toHaveLength(1);
  });

  it('refuses an unknown subscription with a localised error and keeps the connection', async () => {
    const { base } = await startGateway();
    const client = await TestClient.connect(base, '/ws/f1?lang=ru');
    await client.subscribe('BTC-USDT');
    expect(client.ofType('error')[0]).toMatchObject({
      data: { msg: 'Неизвестная подписка на рыночные данные: BTC-USDT' },
    });
    await client.subscribe('USDT_BTC_trad_7');
    expect(client.ofType('error')).toHaveLength(2);
  });

  it('closes a socket with a malformed client id', async () => {
    const { base } = await startGateway();
    const client = await TestClient.connect(base, `/ws/${'x'.repeat(65)}`);
    expect(await client.closed).toBe(1008);
  });

  it('disconnects clients idle for more than 60 s and keeps the ones that talk', async () => {
    const { gateway, clock, base } = await startGateway();
    const quiet = await TestClient.connect(base, '/ws/g1');
    const chatty = await TestClient.connect(base, '/ws/g2');
    clock.advance(45_000);
    await chatty.barrier();
    clock.advance(16_000);
    gateway.sweepIdle();
    await quiet.closed;
    expect(gateway.clientCount()).toBe(1);
    await chatty.barrier();
  });

  it('drops a client that does not read instead of buffering without bound', async () => {
    const { gateway, base } = await startGateway({ maxBufferedBytes: 64 * 1024 });
    const slow = await TestClient.connect(base, '/ws/slow');
    const fast = await TestClient.connect(base, '/ws/fast');
    await slow.subscribe('USDT_BTC_trad_1');
    await fast.subscribe('USDT_BTC_trad_1');
    slow.socket.pause();

    const bigRows = Array.from({ length: 4000 }, (_, index) => ({
      price: `96500.${index}`,
      amount: '0.12345678',
      type: 'buy' as const,
      wdate: index,
    }));
    const frames = 120;
    for (let frame = 0; frame < frames; frame += 1) {
      gateway.publish({ type: 'top', key: 'USDT_BTC_trad', data: bigRows });
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(gateway.clientCount()).toBe(1);
    await fast.waitFor(() => fast.ofType('top').length === frames, 20_000);
    slow.socket.resume();
    await slow.closed;
    expect(slow.ofType('top').length).toBeLessThan(frames);
  });

  it('answers prototype names as a language with English, and keeps serving', async () => {
    const { base } = await startGateway();
    const byQuery = await TestClient.connect(base, '/ws/p1?lang=__proto__');
    const byArray = await TestClient.connect(base, '/ws/p2?lang=constructor&lang=ru');
    const byHeader = await TestClient.connect(base, '/ws/p3', {
      'accept-language': 'constructor,toString;q=0.5',
    });
    for (const client of [byQuery, byArray, byHeader]) {
      await client.subscribe('nonsense');
      expect(client.ofType('error')[0]).toMatchObject({
        data: { msg: 'Unknown live-data subscription: nonsense' },
      });
    }
    const later = await TestClient.connect(base, '/ws/p4');
    later.socket.send('ping');
    await later.waitFor(() => later.frames.includes('pong'));
  });

  it('closes only the socket whose handler failed, logs it, and keeps the others', async () => {
    const errors: unknown[] = [];
    const { gateway, base } = await startGateway({ onError: (error) => errors.push(error) });
    const victim = await TestClient.connect(base, '/ws/q1');
    const bystander = await TestClient.connect(base, '/ws/q2');
    // A stand-in for any bug in the per-message path.
    const receive = vi
      .spyOn(gateway as unknown as { receive: () => void }, 'receive')
      .mockImplementationOnce(() => {
        throw new Error('a bug');
      });
    victim.socket.send('USDT_BTC_trad_1');
    await victim.closed;
    receive.mockRestore();
    expect(errors).toEqual([new Error('a bug')]);
    await bystander.barrier();
    expect(gateway.clientCount()).toBe(1);
  });

  it('survives any frame a client sends: refusals only, and every socket still answered', async () => {
    const { gateway, base } = await startGateway();
    const frame = fc.oneof(
      fc.constantFrom(
        '__proto__',
        'constructor',
        'toString',
        'USDT___proto___trad_1',
        'USDT_BTC_constructor_1',
      ),
      fc.constantFrom('USDT_BTC_trad_99999', 'usdt_btc_contract', '{"__proto__":1}', '', ' ', 'ping '),
      fc.string({ maxLength: 80 }),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
    );
    // Fixed seed: the same frames on every run.
    const frames = fc.sample(frame, { seed: 13, numRuns: 200 });
    const clients = await Promise.all(
      ['__proto__', 'constructor', 'ru'].map((lang, index) =>
        TestClient.connect(base, `/ws/fuzz${index}?lang=${lang}`, { 'accept-language': 'toString' }),
      ),
    );
    for (const [index, data] of frames.entries()) clients[index % clients.length]?.socket.send(data);
    for (const client of clients) await client.barrier();
    const types = clients.flatMap((client) => client.pushes().map((push) => push.type));
    expect(new Set(types)).toEqual(new Set(['error']));
    expect(gateway.clientCount()).toBe(clients.length);
    // A frame over the size limit closes that socket (1009), and only that one.
    const big = await TestClient.connect(base, '/ws/fuzz-big');
    big.socket.send('x'.repeat(4096));
    expect(await big.closed).toBe(1009);
    for (const client of clients) await client.barrier();
  });
});
