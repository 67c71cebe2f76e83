import { Dec } from '@halyard/money';
import type { MarketRef } from '@halyard/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import type { Publishable } from '../realtime/publisher.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { MarketData } from './service.ts';
import { risePercent } from './ticker.ts';

const HOUR = 3_600_000;
const BTC: MarketRef = { kind: 'trad', maincoin: 'USDT', tradcoin: 'BTC' };
const stores: Store[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function market(store?: Store) {
  const db = store ?? (await openTestStore());
  if (!store) stores.push(db);
  const clock = new ManualClock(Date.UTC(2026, 2, 18, 10, 0, 0));
  const pushes: Publishable[] = [];
  const data = new MarketData({
    db: db.db,
    clock,
    publisher: { publish: (push) => pushes.push(push) },
    onError: (error) => {
      throw error;
    },
  });
  await data.load();
  return { data, clock, pushes, store: db };
}

/** A trade at the clock's current time. */
async function trade(data: MarketData, clock: ManualClock, price: string, amount: string) {
  data.recordTrades(BTC, [{ price: Dec.parse(price), amount: Dec.parse(amount), ts: clock.now() }]);
  await data.flush();
}

describe('risePercent', () => {
  it('is the change in percent with two decimals, cut toward zero', () => {
    expect(risePercent(Dec.parse('110'), Dec.parse('100'))).toBe('10.00');
    expect(risePercent(Dec.parse('97'), Dec.parse('100'))).toBe('-3.00');
    expect(risePercent(Dec.parse('1'), Dec.parse('3'))).toBe('-66.66');
    expect(risePercent(Dec.parse('2.99999'), Dec.parse('3'))).toBe('0.00');
    expect(risePercent(Dec.parse('5'), Dec.parse('0'))).toBe('0.00');
  });
});

describe('24-hour ticker', () => {
  it('has no ticker before the first trade', async () => {
    const { data } = await market();
    expect(data.ticker(BTC)).toBeNull();
  });

  it('tracks last price, rise, high, low and volume over the rolling window', async () => {
    const { data, clock } = await market();
    await trade(data, clock, '100', '1');
    clock.advance(HOUR);
    await trade(data, clock, '120', '2');
    clock.advance(HOUR);
    await trade(data, clock, '90', '0.5');
    clock.advance(HOUR);
    await trade(data, clock, '110', '1.5');
    expect(data.ticker(BTC)).toEqual({
      tradcoin: 'BTC',
      maincoin: 'USDT',
      price: '110',
      rise: '10.00',
      high: '120',
      low: '90',
      volume: '5',
      ts: clock.now(),
    });

    // 24 h after the first trade its minute has left the window: the reference is now its close (100).
    clock.advance(21 * HOUR);
    expect(data.ticker(BTC)).toMatchObject({
      price: '110',
      rise: '10.00',
      high: '120',
      low: '90',
      volume: '4',
    });
    // Past the 120 trade: the reference becomes 120 and the high drops out.
    clock.advance(HOUR);
    expect(data.ticker(BTC)).toMatchObject({
      price: '110',
      rise: '-8.33',
      high: '110',
      low: '90',
      volume: '2',
    });
    // A day after the last trade the window is empty: the price stands, nothing moved.
    clock.advance(2 * HOUR);
    expect(data.ticker(BTC)).toMatchObject({
      price: '110',
      rise: '0.00',
      high: '110',
      low: '110',
      volume: '0',
    });
  });

  it('pushes the ticker and the changed bars after each committed flush', async () => {
    const { data, clock, pushes } = await market();
    await trade(data, clock, '100', '1');
    const info = pushes.find((push) => push.type === 'info');
    expect(info).toMatchObject({ key: 'USDT_BTC_trad', data: { price: '100', rise: '0.00' } });
    const klines = pushes.filter((push) => push.type === 'kline');
    expect(klines.map((push) => ('mine' in push ? push.mine : null))).toEqual([
      1, 5, 15, 30, 60, 240, 1440, 10080,
    ]);
    expect(klines[0]).toMatchObject({
      key: 'USDT_BTC_trad_1',
      data: { series: ['20260318100000|100|100|100|100|1'] },
    });
    // Cycle markets get their bars pushed; their `cycleinfo` is the cycle module's.
    pushes.length = 0;
    data.recordPrice({ kind: 'cycle', maincoin: 'USDT', tradcoin: 'BTC' }, Dec.parse('101'), clock.now());
    await data.flush();
    expect(new Set(pushes.map((push) => push.type))).toEqual(new Set(['kline']));
  });

  it('rebuilds the tickers from stored bars after a restart', async () => {
    const first = await market();
    await trade(first.data, first.clock, '100', '1');
    first.clock.advance(HOUR);
    await trade(first.data, first.clock, '105', '1');
    const restarted = await market(first.store);
    restarted.clock.set(first.clock.now());
    await restarted.data.load();
    expect(restarted.data.ticker(BTC)).toMatchObject({ price: '105', rise: '5.00', volume: '2' });
  });
});
