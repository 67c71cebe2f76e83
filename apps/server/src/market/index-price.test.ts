import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { DEMO_COINS, SIMULATOR_NAME, SimulatedIndexSource } from './index-price.ts';

const stores: Store[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function simulator(seed: string, options: { retentionMs?: number; store?: Store } = {}) {
  const store = options.store ?? (await openTestStore());
  if (!options.store) stores.push(store);
  const clock = new ManualClock(Date.UTC(2026, 0, 5));
  const errors: unknown[] = [];
  const source = new SimulatedIndexSource({
    db: store.db,
    clock,
    seed,
    tickMs: 1000,
    onError: (error) => errors.push(error),
    ...(options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs }),
  });
  return { source, clock, store, errors };
}

async function run(source: SimulatedIndexSource, clock: ManualClock, ticks: number): Promise<string[][]> {
  const path: string[][] = [];
  for (let index = 0; index < ticks; index += 1) {
    clock.advance(1000);
    path.push((await source.tick()).map((tick) => `${tick.coin}=${tick.price}`));
  }
  return path;
}

describe('SimulatedIndexSource', () => {
  it('walks the same path for the same seed and a different one for another seed', async () => {
    const first = await simulator('alpha');
    const second = await simulator('alpha');
    const other = await simulator('beta');
    const pathA = await run(first.source, first.clock, 200);
    expect(await run(second.source, second.clock, 200)).toEqual(pathA);
    expect(await run(other.source, other.clock, 200)).not.toEqual(pathA);
    // The walk moves: BTC is not flat over 200 ticks.
    expect(new Set(pathA.map((step) => step[0])).size).toBeGreaterThan(10);
  });

  it('keeps every price positive and at its coin accuracy', async () => {
    const { source, clock } = await simulator('accuracy');
    for (let index = 0; index < 2000; index += 1) {
      clock.advance(1000);
      for (const tick of await source.tick()) {
        const spec = DEMO_COINS.find((coin) => coin.coin === tick.coin);
        expect(spec).toBeDefined();
        expect(tick.price.isPositive()).toBe(true);
        expect(tick.price.hasAtMostDigits(spec?.accuracy ?? 0)).toBe(true);
        expect(tick.source).toBe(SIMULATOR_NAME);
      }
    }
    expect(source.coins()).toEqual(['BTC', 'ETH', 'SOL', 'BNB', 'XRP', 'DOGE', 'TRX', 'LTC', 'HAL']);
    expect(source.priceAccuracy('DOGE')).toBe(5);
    expect(source.priceAccuracy('NOPE')).toBeNull();
  });

  it('starts near the demo prices', async () => {
    const { source, clock } = await simulator('start');
    await run(source, clock, 1);
    const btc = source.current('BTC');
    expect(btc?.price.gt(source.current('ETH')?.price ?? btc.price)).toBe(true);
    expect(Number(btc?.price.toString())).toBeGreaterThan(90_000);
    expect(Number(btc?.price.toString())).toBeLessThan(100_000);
  });

  it('answers the recorded price at or just before an instant', async () => {
    const { source, clock } = await simulator('history');
    const start = clock.now();
    const path = await run(source, clock, 5);
    const btcAt = (step: number) => path[step]?.[0]?.split('=')[1];
    expect((await source.priceAt('BTC', start + 1000))?.price.toString()).toBe(btcAt(0));
    // Between ticks: the earlier one.
    expect((await source.priceAt('BTC', start + 2500))?.price.toString()).toBe(btcAt(1));
    expect((await source.priceAt('BTC', start + 2500))?.ts).toBe(start + 2000);
    expect((await source.priceAt('BTC', start + 99_000))?.price.toString()).toBe(btcAt(4));
    expect(await source.priceAt('BTC', start)).toBeNull();
    expect(await source.priceAt('NOPE', start + 3000)).toBeNull();
  });

  it('announces each tick after recording it, and isolates a failing listener', async () => {
    const { source, clock, errors } = await simulator('listeners');
    const seen: string[] = [];
    source.subscribe(() => {
      throw new Error('listener bug');
    });
    const unsubscribe = source.subscribe((tick) => seen.push(tick.coin));
    clock.advance(1000);
    await source.tick();
    expect(seen).toHaveLength(DEMO_COINS.length);
    expect(errors).toHaveLength(DEMO_COINS.length);
    unsubscribe();
    clock.advance(1000);
    await source.tick();
    expect(seen).toHaveLength(DEMO_COINS.length);
  });

  it('continues from the recorded prices after a restart', async () => {
    const { source, clock, store } = await simulator('restart');
    await run(source, clock, 3);
    const before = source.current('HAL');
    const restarted = await simulator('restart', { store });
    expect(restarted.source.current('HAL')).toBeNull();
    await restarted.source.load();
    expect(restarted.source.current('HAL')?.price.toString()).toBe(before?.price.toString());
    expect(restarted.source.current('HAL')?.ts).toBe(before?.ts);
  });

  it('prunes ticks older than the retention window', async () => {
    const { source, clock } = await simulator('prune', { retentionMs: 10_000 });
    const start = clock.now();
    await run(source, clock, 3);
    expect(await source.priceAt('BTC', start + 1000)).not.toBeNull();
    // Pruning runs at most hourly: jump past that and past the retention.
    clock.advance(3_600_000);
    await source.tick();
    expect(await source.priceAt('BTC', start + 1000)).toBeNull();
    expect((await source.priceAt('BTC', clock.now()))?.ts).toBe(clock.now());
  });
});
