import { Dec } from '@halyard/money';
import { KLINE_MINUTES, type KlineMinutes, type MarketRef } from '@halyard/protocol';
import { hash32, type SimulatedCoin, seededNormal, seededUniform, YEAR_MS } from './index-price.ts';
import { bucketStart } from './kline.ts';
import { pairName } from './pair.ts';
import type { Candle } from './store.ts';

/**
 * Demo history (issue 14): on its first start a demo install fills every demo
 * market's chart with months of bars, so it looks like a market that has been
 * open a while, not one whose history begins at the server's start.
 *
 * Design. Every period needs HISTORY_BARS bars, the week included: about six
 * years. A walk at one-minute resolution over six years would be three million
 * points per coin, so the walk's resolution instead gets finer towards the
 * present. Each period P owns a stretch: from the start of its oldest bar
 * (HISTORY_BARS bars back, aligned to P's bars) to where the next finer
 * period's stretch begins; in it the walk steps P / STEPS_PER_BAR at a time
 * (14 hours in the week's stretch, 5 seconds in the minute's). The stretches
 * are joined into one walk, one path through time, and the bars of every
 * period are the ordinary OHLC of that one path's points, so bars of different
 * periods agree wherever they overlap: the last 60 one-minute bars make up the
 * last one-hour bar, and so on. A period only gets bars inside its own stretch
 * and the finer ones, where each bar holds at least STEPS_PER_BAR points; older
 * points are too sparse for its bars. The minute's stretch also covers the
 * 24-hour ticker's window, so the 24 h high, low, volume and change come from
 * the same bars the chart shows. About 35,000 points per coin in all.
 *
 * The walk is the index simulator's model (geometric, the coin's volatility,
 * each step's variance in proportion to its length), drawn from its own seeded
 * stream per coin, and run backwards from the index's current level: the
 * history ends at the price the live walk steps on from, so the chart and the
 * index continue without a jump. The same seed and end time give the same
 * history, on every market of the coin (spot, futures and cycle agree).
 *
 * Volume: each step trades the market's typical daily volume (what its live
 * trading makes, so history and live bars look alike) in proportion to its
 * length, scaled by a seeded activity factor (higher on bigger moves). It is
 * counted in whole volume steps (a spot pair's amount step, one futures
 * contract), so sums are exact and a day's volume is its minutes' volumes.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 1440 * MINUTE_MS;
/** Bars of every period: a full default chart page (300) and a little to page back to. */
export const HISTORY_BARS = 320;
/** Walk points inside each bar of a period's own stretch: enough for a body and wicks. */
const STEPS_PER_BAR = 12;
/** Every stretch reaches back at least this far: the 24-hour ticker's window and the bar before it. */
const TICKER_DEPTH_MS = 25 * 60 * MINUTE_MS;

/** A market to fill, with what its bars need to know about it. */
export interface HistoryMarket {
  market: MarketRef;
  priceAccuracy: number;
  /**
   * The market's volume: a typical day's, in the trade coin (what its live
   * trading makes, so the history's bars match the live ones), counted in
   * whole `step`s (spot: the amount step; futures: one contract's coins).
   * Null when the market's prints carry no volume (cycle: index ticks).
   */
  volume: { perDay: Dec; step: Dec } | null;
}

/** One period's part of the walk: its points from `from` on are `stepMs` apart. */
export interface HistoryStretch {
  period: KlineMinutes;
  from: number;
  stepMs: number;
}

/** The stretches of a history ending at `end`, coarsest (the week) first, each starting later than the one before. */
export function historyStretches(end: number): HistoryStretch[] {
  return [...KLINE_MINUTES].reverse().map((period) => {
    const periodMs = period * MINUTE_MS;
    const depth = Math.max(HISTORY_BARS * periodMs, TICKER_DEPTH_MS);
    return { period, from: bucketStart(end - depth, period), stepMs: periodMs / STEPS_PER_BAR };
  });
}

/** A coin's walk: point i is at times[i], at the end price times factors[i], with shares[i] of a typical day's volume traded since the point before. */
export interface CoinPath {
  times: number[];
  factors: Float64Array;
  shares: Float64Array;
  /** Index of each stretch's first point, by period. */
  firstPoint: Map<KlineMinutes, number>;
}

function pointTimes(stretches: readonly HistoryStretch[], end: number) {
  const times: number[] = [];
  const firstPoint = new Map<KlineMinutes, number>();
  stretches.forEach((stretch, index) => {
    firstPoint.set(stretch.period, times.length);
    const until = stretches[index + 1]?.from ?? end;
    for (let ts = stretch.from; ts < until; ts += stretch.stepMs) times.push(ts);
  });
  times.push(end);
  return { times, firstPoint };
}

/** The coin's walk through the stretches, ending at `end` at factor 1 (the price it is scaled to). */
export function coinPath(
  coin: SimulatedCoin,
  seed: string,
  stretches: readonly HistoryStretch[],
  end: number,
): CoinPath {
  const { times, firstPoint } = pointTimes(stretches, end);
  const steps = seededNormal(seededUniform(hash32(`${seed}:${coin.coin}:history`)));
  const activity = seededNormal(seededUniform(hash32(`${seed}:${coin.coin}:volume`)));
  const count = times.length;
  const logs = new Float64Array(count);
  const shares = new Float64Array(count);
  for (let index = 0; index < count; index += 1) {
    const previous = times[index - 1] ?? (times[0] as number) - (stretches[0]?.stepMs ?? MINUTE_MS);
    const elapsed = (times[index] as number) - previous;
    const draw = steps();
    logs[index] = (logs[index - 1] ?? 0) + coin.volatility * Math.sqrt(elapsed / YEAR_MS) * draw;
    // Mean 1: E[exp(0.6 z − 0.18)] = 1 and E[0.4 + 0.75 |z|] ≈ 1.
    const busy = Math.exp(0.6 * activity() - 0.18) * (0.4 + 0.75 * Math.abs(draw));
    shares[index] = (elapsed * busy) / DAY_MS;
  }
  const last = logs[count - 1] as number;
  const factors = logs.map((log) => Math.exp(log - last));
  factors[count - 1] = 1;
  return { times, factors, shares, firstPoint };
}

/** A price or volume counted in whole steps, as a Dec. */
function fromSteps(count: number, step: Dec): Dec {
  return Dec.fromUnits(BigInt(count) * step.units);
}

/**
 * The bars of every period of one market, from the coin's path scaled to end
 * at `endPrice` (floored to the market's accuracy). Prices are floored to the
 * accuracy and never below one step, like the index's.
 */
export function historyBars(
  path: CoinPath,
  stretches: readonly HistoryStretch[],
  target: HistoryMarket,
  endPrice: Dec,
): Candle[] {
  const priceStep = Dec.step(target.priceAccuracy);
  const endSteps = Number(endPrice.floorTo(target.priceAccuracy).units / priceStep.units);
  const prices = Array.from(path.factors, (factor) => Math.max(1, Math.floor(endSteps * factor)));
  const volumeStep = target.volume?.step ?? null;
  const stepsPerDay = target.volume ? Number(target.volume.perDay.div(target.volume.step).toString()) : 0;
  // Whole steps per point, the fractions carried on: a contract-sized step still trades at its daily rate.
  let traded = 0;
  const volumes = Array.from(path.shares, (share) => {
    const before = Math.floor(traded);
    traded += stepsPerDay * share;
    return Math.floor(traded) - before;
  });
  const bars: Candle[] = [];
  const pair = pairName(target.market);
  for (const { period } of stretches) {
    const series = { kind: target.market.kind, pair, period };
    const periodMs = period * MINUTE_MS;
    let open = 0;
    let high = 0;
    let low = 0;
    let volume = 0;
    let first = 0;
    let start = Number.NaN;
    const emit = (close: number, last: number) =>
      bars.push({
        ...series,
        start,
        open: fromSteps(open, priceStep),
        high: fromSteps(high, priceStep),
        low: fromSteps(low, priceStep),
        close: fromSteps(close, priceStep),
        volume: volumeStep ? fromSteps(volume, volumeStep) : Dec.ZERO,
        firstTs: first,
        lastTs: last,
      });
    for (let index = path.firstPoint.get(period) ?? 0; index < path.times.length; index += 1) {
      const ts = path.times[index] as number;
      const price = prices[index] as number;
      // Bars are contiguous (the week's too), so the next one starts where this one ends.
      if (!(ts < start + periodMs)) {
        if (!Number.isNaN(start)) emit(prices[index - 1] as number, path.times[index - 1] as number);
        start = bucketStart(ts, period);
        open = price;
        high = price;
        low = price;
        volume = 0;
        first = ts;
      }
      if (price > high) high = price;
      if (price < low) low = price;
      volume += volumes[index] as number;
    }
    emit(prices.at(-1) as number, path.times.at(-1) as number);
  }
  return bars;
}
