import { Dec } from '@halyard/money';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { openTestStore, type Store } from '../store/connect.ts';

const opened: Array<{ app: App; store: Store }> = [];

afterEach(async () => {
  for (const { app, store } of opened.splice(0)) {
    await app.close();
    await store.close();
  }
});

async function start() {
  const store = await openTestStore();
  const clock = new ManualClock(Date.parse('2026-03-18T10:00:00Z'));
  const config = loadConfig({ LOG_LEVEL: 'silent', HALYARD_PRICE_SEED: 'routes' });
  const app = await createApp({ config, store, clock, rateLimits: false });
  opened.push({ app, store });
  return { app, clock };
}

async function kline(app: App, path: string, query: Record<string, string | number>) {
  const response = await app.http.inject({
    method: 'GET',
    url: path,
    query: Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
  });
  return response.json();
}

describe('GET /{trad,contract,cycle}/kline', () => {
  it('serves the packed series of a period, newest page first, and pages back with date', async () => {
    const { app } = await start();
    const base = Date.parse('2026-03-18T10:00:00Z');
    app.market.data.recordTrades(
      { kind: 'trad', maincoin: 'USDT', tradcoin: 'BTC' },
      Array.from({ length: 20 }, (_, minute) => ({
        price: Dec.fromInt(96_500 + minute),
        amount: Dec.parse('0.1'),
        ts: base + minute * 60_000 + 500,
      })),
    );
    const newest = await kline(app, '/trad/kline', { pairname: 'BTC/USDT', type: 0, mine: 5, count: 2 });
    expect(newest).toMatchObject({ code: 200, data: { pairname: 'BTC/USDT', mine: 5 } });
    expect(newest.data.series).toEqual([
      '20260318101000|96510|96514|96510|96514|0.5',
      '20260318101500|96515|96519|96515|96519|0.5',
    ]);
    const oldestShown = Number(newest.data.series[0].split('|')[0]);
    const older = await kline(app, '/trad/kline', { pairname: 'btcusdt', mine: 5, date: oldestShown });
    expect(older.data.series.map((row: string) => row.split('|')[0])).toEqual([
      '20260318100000',
      '20260318100500',
    ]);
    // Defaults: type 0, mine 1, count 300.
    const minutes = await kline(app, '/trad/kline', { pairname: 'BTC_USDT' });
    expect(minutes.data.series).toHaveLength(20);
    const day = await kline(app, '/trad/kline', { pairname: 'BTC/USDT', type: 1, mine: 1440 });
    expect(day.data).toMatchObject({ mine: 1440, series: ['20260318000000|96500|96519|96500|96519|2'] });
    // Another market kind keeps its own bars.
    expect((await kline(app, '/contract/kline', { pairname: 'BTC/USDT' })).data.series).toEqual([]);
  });

  it('serves the cycle chart from the index ticks', async () => {
    const { app, clock } = await start();
    const prices: string[] = [];
    for (let second = 0; second < 3; second += 1) {
      clock.advance(1000);
      const ticks = await app.market.simulator.tick();
      prices.push(ticks.find((tick) => tick.coin === 'ETH')?.price.toString() ?? '');
    }
    const body = await kline(app, '/cycle/kline', { pairname: 'ETH/USDT', type: -1, mine: 1 });
    const [row] = body.data.series;
    const [, open, , , close, volume] = row.split('|');
    expect([open, close, volume]).toEqual([prices[0], prices[2], '0']);
    expect(app.market.data.ticker({ kind: 'cycle', maincoin: 'USDT', tradcoin: 'ETH' })?.price).toBe(
      prices[2],
    );
  });

  it('refuses bad parameters with a localised message naming the field', async () => {
    const { app } = await start();
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ pairname: 'BTC/USDT', count: 1001 }, 'count'],
      [{ pairname: 'BTC/USDT', mine: 7 }, 'mine'],
      [{ pairname: 'BTC/USDT', type: 3 }, 'type'],
      [{ pairname: 'not a pair' }, 'pairname'],
      [{ pairname: 'BTC/USDT', date: 20261399000000 }, 'date'],
      [{ mine: 1 }, 'pairname'],
    ];
    for (const [query, field] of cases) {
      const response = await app.http.inject({
        method: 'GET',
        url: '/trad/kline',
        query: Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
        headers: { lang: 'en' },
      });
      expect(response.json(), JSON.stringify(query)).toEqual({
        code: 400,
        msg: `Invalid parameter: ${field}`,
        data: null,
      });
    }
  });
});
