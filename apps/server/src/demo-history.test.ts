import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Dec } from '@halyard/money';
import { KLINE_MINUTES, type MarketKind, type MarketRef } from '@halyard/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from './app.ts';
import { ManualClock } from './clock.ts';
import { type Config, loadConfig } from './config.ts';
import { demoHistoryMarkets } from './demo-history.ts';
import { tickCharted } from './market/test-support.ts';
import { risePercent, windowStart } from './market/ticker.ts';
import { MONEY_PATHS, moneyCoreOptions } from './modules/identity/test-support.ts';
import { openTestStore, type Store } from './store/connect.ts';

/** A quarter past the minute 14: the 24-hour window then starts on a 15-minute bar. */
const NOW = Date.parse('2026-03-18T10:14:30Z');
const ROUTE: Record<MarketKind, string> = {
  trad: '/trad/kline',
  contract: '/contract/kline',
  cycle: '/cycle/kline',
};

interface Bar {
  start: number;
  open: Dec;
  high: Dec;
  low: Dec;
  close: Dec;
  volume: Dec;
}

/** A page of bars through the route (count at most 1000), ending before `date` (epoch ms) or now. */
async function seriesOf(app: App, market: MarketRef, mine: number, count = 1000, date = 0): Promise<Bar[]> {
  const response = await app.http.inject({
    url: ROUTE[market.kind],
    query: {
      pairname: `${market.tradcoin}/${market.maincoin}`,
      mine: String(mine),
      count: String(count),
      date: String(date),
    },
  });
  expect(response.json()).toMatchObject({ code: 200 });
  return (response.json().data.series as string[]).map((row) => {
    const [packed, open, high, low, close, volume] = row.split('|');
    const ymd = Math.floor(Number(packed) / 1_000_000);
    const hms = Number(packed) % 1_000_000;
    const start = Date.UTC(
      Math.floor(ymd / 10_000),
      (Math.floor(ymd / 100) % 100) - 1,
      ymd % 100,
      Math.floor(hms / 10_000),
      Math.floor(hms / 100) % 100,
    );
    const [o, h, l, c, v] = [open, high, low, close, volume].map((text) => Dec.parse(text ?? ''));
    return { start, open: o!, high: h!, low: l!, close: c!, volume: v! };
  });
}

describe.each(MONEY_PATHS)('demo history on a fresh install, the money on $on', ({ moneyCore }) => {
  let app: App;
  let store: Store;
  let clock: ManualClock;
  let markets: MarketRef[];
  let config: Config;
  let dataDir: string;
  const series = (market: MarketRef, mine: number, count?: number, date?: number) =>
    seriesOf(app, market, mine, count, date);

  beforeAll(async () => {
    store = await openTestStore();
    clock = new ManualClock(NOW);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-demo-history-'));
    config = loadConfig({
      LOG_LEVEL: 'silent',
      HALYARD_PRICE_SEED: 'demo-history',
      HALYARD_DATA_DIR: dataDir,
    });
    app = await createApp({
      config,
      store,
      clock,
      rateLimits: false,
      ...moneyCoreOptions(dataDir, moneyCore),
    });
    const targets = demoHistoryMarkets(app, config.priceTickMs);
    markets = targets.map((target) => target.market);
    expect(await app.market.seedDemoHistory(targets)).toBe(targets.length);
  }, 60_000);

  afterAll(async () => {
    await app.close();
    await store.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every demo market: spot, futures and cycle', () => {
    const kinds = new Set(markets.map((market) => market.kind));
    expect([...kinds].sort()).toEqual(['contract', 'cycle', 'trad']);
    expect(markets.length).toBeGreaterThanOrEqual(12);
  });

  it('serves at least 300 bars of every period on every demo market, a full default page', async () => {
    for (const market of markets) {
      for (const mine of KLINE_MINUTES) {
        const bars = await series(market, mine);
        expect(bars.length, `${market.kind} ${market.tradcoin} ${mine}`).toBeGreaterThanOrEqual(300);
        expect(bars.at(-1)!.start).toBeLessThanOrEqual(NOW);
        expect(await series(market, mine, 300)).toHaveLength(300);
      }
    }
  });

  it("agrees with the 24-hour ticker: high, low, volume and change are the last day's bars", async () => {
    const from = windowStart(NOW);
    for (const market of markets) {
      const ticker = app.market.data.ticker(market);
      expect(ticker, `${market.kind} ${market.tradcoin}`).not.toBeNull();
      const newest = await series(market, 1);
      const minutes = [...(await series(market, 1, 1000, newest[0]!.start)), ...newest];
      const day = minutes.filter((bar) => bar.start >= from);
      expect(day).toHaveLength(1440);
      const quarters = (await series(market, 15)).filter((bar) => bar.start >= from);
      expect(quarters).toHaveLength(96);
      for (const bars of [day, quarters]) {
        expect(ticker!.high).toBe(
          bars
            .map((bar) => bar.high)
            .reduce(Dec.max)
            .toString(),
        );
        expect(ticker!.low).toBe(
          bars
            .map((bar) => bar.low)
            .reduce(Dec.min)
            .toString(),
        );
        expect(ticker!.volume).toBe(Dec.sum(bars.map((bar) => bar.volume)).toString());
      }
      const dayAgo = minutes.filter((bar) => bar.start < from).at(-1)!;
      expect(ticker!.rise).toBe(risePercent(day.at(-1)!.close, dayAgo.close));
      expect(ticker!.price).toBe(day.at(-1)!.close.toString());
    }
  });

  it("trades about a live day's volume a day: what the house's crossing orders make on the market", () => {
    for (const { market, volume } of demoHistoryMarkets(app, config.priceTickMs)) {
      const traded = Dec.parse(app.market.data.ticker(market)!.volume);
      if (!volume) {
        expect(traded.isZero(), `${market.kind} ${market.tradcoin}`).toBe(true);
        continue;
      }
      expect(traded.gt(volume.perDay.div(Dec.fromInt(2))), `${market.kind} ${market.tradcoin}`).toBe(true);
      expect(traded.lt(volume.perDay.mul(Dec.fromInt(2))), `${market.kind} ${market.tradcoin}`).toBe(true);
    }
  });

  it('shows the same prices on the spot, futures and cycle charts of a coin', async () => {
    const [spot, futures, cycle] = await Promise.all(
      (['trad', 'contract', 'cycle'] as const).map((kind) =>
        series({ kind, tradcoin: 'BTC', maincoin: 'USDT' }, 60),
      ),
    );
    const closes = (bars: Bar[] | undefined) => bars!.map((bar) => bar.close.toString());
    expect(closes(futures)).toEqual(closes(spot));
    expect(closes(cycle)).toEqual(closes(spot));
  });

  it('is seeded once: a second start keeps the stored history', async () => {
    const before = await series(markets[0]!, 1);
    expect(await app.market.seedDemoHistory(demoHistoryMarkets(app, config.priceTickMs))).toBe(0);
    expect(await series(markets[0]!, 1)).toEqual(before);
  });

  it('continues into the live index without a jump', async () => {
    const cycleBtc: MarketRef = { kind: 'cycle', tradcoin: 'BTC', maincoin: 'USDT' };
    const last = (await series(cycleBtc, 1)).at(-1)!;
    clock.advance(1000);
    const [tick] = (await tickCharted(app)).filter((each) => each.coin === 'BTC');
    const live = (await series(cycleBtc, 1)).at(-1)!;
    // The tick lands in the seeded bar: it keeps its open and takes the tick as its close.
    expect(live.start).toBe(last.start);
    expect(live.open).toEqual(last.open);
    expect(live.close).toEqual(tick!.price);
    expect(live.high).toEqual(Dec.max(last.high, tick!.price));
    // One second of the walk from where the history ended.
    expect(
      tick!.price
        .sub(last.close)
        .abs()
        .lt(last.close.mul(Dec.parse('0.002'))),
    ).toBe(true);
  });
});
