import { Dec } from '@halyard/money';
import { KLINE_MINUTES, type KlineMinutes } from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import { coinPath, HISTORY_BARS, type HistoryMarket, historyBars, historyStretches } from './history.ts';
import { DEMO_COINS } from './index-price.ts';
import { bucketStart } from './kline.ts';
import type { Candle } from './store.ts';

const END = Date.parse('2026-03-18T10:14:30.250Z');
const BTC = DEMO_COINS.find((coin) => coin.coin === 'BTC')!;
const SPOT_BTC: HistoryMarket = {
  market: { kind: 'trad', tradcoin: 'BTC', maincoin: 'USDT' },
  priceAccuracy: 2,
  volume: { perDay: Dec.parse('5.184'), step: Dec.parse('0.00001') },
};

function bars(seed = 'test', end = END, endPrice = Dec.parse('96500')): Candle[] {
  const stretches = historyStretches(end);
  return historyBars(coinPath(BTC, seed, stretches, end), stretches, SPOT_BTC, endPrice);
}

const ofPeriod = (all: readonly Candle[], period: number) => all.filter((bar) => bar.period === period);

/** The bars of `period` that aggregate `finer` bars, as the ordinary OHLCV of those bars. */
function aggregate(finer: readonly Candle[], period: KlineMinutes): Map<number, string> {
  const groups = new Map<number, Candle[]>();
  for (const bar of finer) {
    const start = bucketStart(bar.start, period);
    const group = groups.get(start);
    if (group) group.push(bar);
    else groups.set(start, [bar]);
  }
  return new Map(
    [...groups].map(([start, group]) => [
      start,
      [
        group[0]!.open,
        group.map((bar) => bar.high).reduce(Dec.max),
        group.map((bar) => bar.low).reduce(Dec.min),
        group.at(-1)!.close,
        Dec.sum(group.map((bar) => bar.volume)),
      ].join('|'),
    ]),
  );
}

const ohlcv = (bar: Candle) => [bar.open, bar.high, bar.low, bar.close, bar.volume].join('|');

describe('demo history', () => {
  const all = bars();

  it('gives every period at least HISTORY_BARS contiguous bars, the last one holding the end', () => {
    for (const period of KLINE_MINUTES) {
      const series = ofPeriod(all, period);
      expect(series.length, `period ${period}`).toBeGreaterThanOrEqual(HISTORY_BARS);
      expect(series.at(-1)!.start).toBe(bucketStart(END, period));
      series.slice(1).forEach((bar, index) => {
        expect(bar.start).toBe(bucketStart(series[index]!.start + period * 60_000, period));
      });
      expect(series.at(-1)!.close.toString()).toBe('96500');
      expect(series.at(-1)!.lastTs).toBe(END);
    }
    // The minute bars cover the 24-hour ticker's window and the minute before it.
    expect(ofPeriod(all, 1)[0]!.start).toBeLessThanOrEqual(bucketStart(END, 1) - 1440 * 60_000);
  });

  it('makes coarser bars the aggregate of the finer ones wherever both exist', () => {
    const periods = [...KLINE_MINUTES];
    for (const [index, finer] of periods.entries()) {
      for (const coarser of periods.slice(index + 1)) {
        const fine = ofPeriod(all, finer);
        const expected = aggregate(fine, coarser);
        // Only coarse bars wholly covered by fine bars compare: the first group may start mid-bar.
        const covered = ofPeriod(all, coarser).filter((bar) => bar.start >= fine[0]!.start);
        if (coarser === periods[index + 1])
          expect(covered.length, `${coarser} from ${finer}`).toBeGreaterThan(0);
        for (const bar of covered)
          expect(ohlcv(bar), `${coarser} from ${finer}`).toBe(expected.get(bar.start));
      }
    }
  });

  it('keeps each bar consistent: low ≤ open, close ≤ high, positive volume, open at its first point', () => {
    for (const bar of all) {
      expect(bar.low.lte(Dec.min(bar.open, bar.close))).toBe(true);
      expect(bar.high.gte(Dec.max(bar.open, bar.close))).toBe(true);
      expect(bar.volume.isPositive()).toBe(true);
      expect(bar.firstTs).toBeGreaterThanOrEqual(bar.start);
      expect(bar.lastTs).toBeLessThan(bar.start + bar.period * 60_000);
    }
  });

  it('looks like a market: rising and falling minute bars, with wicks', () => {
    const minutes = ofPeriod(all, 1);
    const rising = minutes.filter((bar) => bar.close.gt(bar.open)).length / minutes.length;
    expect(rising).toBeGreaterThan(0.35);
    expect(rising).toBeLessThan(0.65);
    const wicked = minutes.filter((bar) => bar.high.gt(Dec.max(bar.open, bar.close))).length;
    expect(wicked / minutes.length).toBeGreaterThan(0.3);
    // Each minute opens near the previous close: one step of the walk away, not a spread away.
    for (const [index, bar] of minutes.slice(1).entries()) {
      const previous = minutes[index]!.close;
      expect(
        bar.open
          .sub(previous)
          .abs()
          .lt(previous.mul(Dec.parse('0.005'))),
      ).toBe(true);
    }
  });

  it('is the same for the same seed and end, and another for another seed', () => {
    expect(bars().map(ohlcv)).toEqual(all.map(ohlcv));
    expect(bars('other').map(ohlcv)).not.toEqual(all.map(ohlcv));
  });

  it('ends at the given price, floored to the accuracy', () => {
    const ending = bars('test', END, Dec.parse('2.299999999'));
    for (const period of KLINE_MINUTES)
      expect(ofPeriod(ending, period).at(-1)!.close.toString()).toBe('2.29');
  });

  it('counts volume in whole steps: a cycle market has none', () => {
    const stretches = historyStretches(END);
    const path = coinPath(BTC, 'test', stretches, END);
    const futures = historyBars(
      path,
      stretches,
      { ...SPOT_BTC, volume: { perDay: Dec.parse('5.184'), step: Dec.parse('0.001') } },
      Dec.fromInt(96500),
    );
    for (const bar of futures) expect(bar.volume.hasAtMostDigits(3)).toBe(true);
    const cycle = historyBars(path, stretches, { ...SPOT_BTC, volume: null }, Dec.fromInt(96500));
    expect(cycle.every((bar) => bar.volume.isZero())).toBe(true);
    expect(cycle.map((bar) => bar.close.toString())).toEqual(futures.map((bar) => bar.close.toString()));
  });
});
