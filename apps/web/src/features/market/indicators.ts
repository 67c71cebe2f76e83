import { type IndicatorSeries, type KLineData, registerIndicator } from 'klinecharts';

/**
 * The custom main-chart indicators of spec §2 (MIKE, PBX, ENE) with their
 * standard formulas. The chart works in JavaScript numbers (it plots pixels;
 * no money is computed from these lines).
 */

type Series = Array<number | undefined>;

/** Simple moving average of `period` values; undefined until enough values. */
export function movingAverage(values: readonly number[], period: number): Series {
  let sum = 0;
  return values.map((value, index) => {
    sum += value;
    if (index >= period) sum -= values[index - period] ?? 0;
    return index >= period - 1 ? sum / period : undefined;
  });
}

/** Exponential moving average, α = 2 / (period + 1), seeded with the first value. */
export function exponentialAverage(values: readonly number[], period: number): Series {
  const alpha = 2 / (period + 1);
  let previous: number | undefined;
  return values.map((value) => {
    previous = previous === undefined ? value : alpha * value + (1 - alpha) * previous;
    return previous;
  });
}

export interface MikeValue {
  wr?: number;
  mr?: number;
  sr?: number;
  ws?: number;
  ms?: number;
  ss?: number;
}

/**
 * MIKE(n): typical price TYP = (H + L + C) / 3, HV / LV the highest high and
 * lowest low of the last n bars; resistances WR = 2·TYP − LV, MR = TYP + HV − LV,
 * SR = 2·HV − LV; supports WS = 2·TYP − HV, MS = TYP − HV + LV, SS = 2·LV − HV.
 */
export function mike(bars: readonly KLineData[], period = 12): MikeValue[] {
  return bars.map((bar, index) => {
    if (index < period - 1) return {};
    const window = bars.slice(index - period + 1, index + 1);
    const hv = Math.max(...window.map((item) => item.high));
    const lv = Math.min(...window.map((item) => item.low));
    const typ = (bar.high + bar.low + bar.close) / 3;
    return {
      wr: typ * 2 - lv,
      mr: typ + hv - lv,
      sr: 2 * hv - lv,
      ws: typ * 2 - hv,
      ms: typ - hv + lv,
      ss: 2 * lv - hv,
    };
  });
}

/** PBX(n) (waterfall lines): (EMA(C, n) + MA(C, 2n) + MA(C, 4n)) / 3, for each n. */
export function pbx(bars: readonly KLineData[], periods: readonly number[] = [4, 6, 9, 13, 18, 24]) {
  const closes = bars.map((bar) => bar.close);
  const lines = periods.map((n) => {
    const ema = exponentialAverage(closes, n);
    const ma2 = movingAverage(closes, 2 * n);
    const ma4 = movingAverage(closes, 4 * n);
    return closes.map((_, index) => {
      const [a, b, c] = [ema[index], ma2[index], ma4[index]];
      return a === undefined || b === undefined || c === undefined ? undefined : (a + b + c) / 3;
    });
  });
  return closes.map((_, index) =>
    Object.fromEntries(periods.map((n, line) => [`pbx${n}`, lines[line]?.[index]])),
  );
}

export interface EneValue {
  upper?: number;
  ene?: number;
  lower?: number;
}

/** ENE(n, m1, m2) (envelope): UPPER = (1 + m1/100)·MA(C, n), LOWER = (1 − m2/100)·MA(C, n), ENE their mean. */
export function ene(bars: readonly KLineData[], period = 10, upPercent = 11, downPercent = 9): EneValue[] {
  return movingAverage(
    bars.map((bar) => bar.close),
    period,
  ).map((ma) => {
    if (ma === undefined) return {};
    const upper = (1 + upPercent / 100) * ma;
    const lower = (1 - downPercent / 100) * ma;
    return { upper, ene: (upper + lower) / 2, lower };
  });
}

const line = (key: string, title: string) => ({ key, title: `${title}: `, type: 'line' });
const PBX_PERIODS = [4, 6, 9, 13, 18, 24];

let registered = false;

/** Registers MIKE, PBX and ENE with klinecharts, once, before the first chart needs them. */
export function registerCustomIndicators(): void {
  if (registered) return;
  registered = true;
  registerIndicator<MikeValue>({
    name: 'MIKE',
    shortName: 'MIKE',
    calcParams: [12],
    series: 'price' as IndicatorSeries,
    precision: 2,
    figures: [
      line('wr', 'WR'),
      line('mr', 'MR'),
      line('sr', 'SR'),
      line('ws', 'WS'),
      line('ms', 'MS'),
      line('ss', 'SS'),
    ],
    calc: (bars, indicator) => mike(bars, Number(indicator.calcParams[0] ?? 12)),
  });
  registerIndicator<Record<string, number | undefined>>({
    name: 'PBX',
    shortName: 'PBX',
    calcParams: PBX_PERIODS,
    series: 'price' as IndicatorSeries,
    precision: 2,
    figures: PBX_PERIODS.map((n) => line(`pbx${n}`, `PBX${n}`)),
    calc: (bars, indicator) => pbx(bars, indicator.calcParams.map(Number)),
  });
  registerIndicator<EneValue>({
    name: 'ENE',
    shortName: 'ENE',
    calcParams: [10, 11, 9],
    series: 'price' as IndicatorSeries,
    precision: 2,
    figures: [line('upper', 'UPPER'), line('ene', 'ENE'), line('lower', 'LOWER')],
    calc: (bars, indicator) => {
      const [n = 10, up = 11, down = 9] = indicator.calcParams.map(Number);
      return ene(bars, n, up, down);
    },
  });
}
