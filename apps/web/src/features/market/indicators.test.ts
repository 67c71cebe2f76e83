import type { KLineData } from 'klinecharts';
import { describe, expect, it } from 'vitest';
import { ene, exponentialAverage, mike, movingAverage, pbx } from './indicators.ts';

const bar = (close: number, high = close + 1, low = close - 1): KLineData => ({
  timestamp: 0,
  open: close,
  high,
  low,
  close,
  volume: 1,
});

describe('averages', () => {
  it('MA waits for a full window', () => {
    expect(movingAverage([1, 2, 3, 4], 2)).toEqual([undefined, 1.5, 2.5, 3.5]);
  });

  it('EMA starts at the first value and weights 2/(n+1)', () => {
    const ema = exponentialAverage([10, 20], 3);
    expect(ema[0]).toBe(10);
    expect(ema[1]).toBeCloseTo(15);
  });
});

describe('MIKE', () => {
  it('derives three resistances and three supports from TYP, HV and LV', () => {
    const bars = [bar(10, 12, 8), bar(11, 13, 9), bar(12, 14, 10)];
    const value = mike(bars, 3)[2];
    // TYP = (14 + 10 + 12) / 3 = 12, HV = 14, LV = 8
    expect(value).toEqual({ wr: 16, mr: 18, sr: 20, ws: 10, ms: 6, ss: 2 });
    expect(mike(bars, 3)[1]).toEqual({});
  });

  it('keeps resistances above supports', () => {
    const bars = Array.from({ length: 30 }, (_, index) => bar(100 + Math.sin(index) * 5));
    for (const value of mike(bars).slice(11)) {
      expect(value.sr).toBeGreaterThanOrEqual(value.mr ?? 0);
      expect(value.ws).toBeGreaterThanOrEqual(value.ms ?? 0);
      expect(value.ms).toBeGreaterThanOrEqual(value.ss ?? 0);
    }
  });
});

describe('PBX', () => {
  it('is (EMA(n) + MA(2n) + MA(4n)) / 3, defined once 4n bars exist', () => {
    const bars = [1, 2, 3, 4, 5, 6, 7, 8].map((close) => bar(close));
    const values = pbx(bars, [2]);
    expect(values[6]?.pbx2).toBeUndefined();
    const closes = bars.map((item) => item.close);
    const expected =
      ((exponentialAverage(closes, 2)[7] ?? 0) +
        (movingAverage(closes, 4)[7] ?? 0) +
        (movingAverage(closes, 8)[7] ?? 0)) /
      3;
    expect(values[7]?.pbx2).toBeCloseTo(expected);
  });

  it('equals the price on a flat market', () => {
    const values = pbx(Array.from({ length: 100 }, () => bar(50)));
    expect(values[99]).toEqual({ pbx4: 50, pbx6: 50, pbx9: 50, pbx13: 50, pbx18: 50, pbx24: 50 });
  });
});

describe('ENE', () => {
  it('puts the envelope 11 % above and 9 % below MA(10), ENE their mean', () => {
    const values = ene(Array.from({ length: 10 }, () => bar(100)));
    expect(values[8]).toEqual({});
    expect(values[9]?.upper).toBeCloseTo(111);
    expect(values[9]?.lower).toBeCloseTo(91);
    expect(values[9]?.ene).toBeCloseTo(101);
  });
});
