import { Dec } from '@halyard/money';
import type { MarketKind, MarketTicker } from '@halyard/protocol';
import type { Clock } from '../clock.ts';
import { bucketStart } from './kline.ts';
import { splitPair } from './pair.ts';
import type { Candle } from './store.ts';

const MINUTE_MS = 60_000;
/** Minute bars in the rolling window, the current minute included. */
const WINDOW_MINUTES = 24 * 60;
const HUNDRED = Dec.fromInt(100);

interface MarketWindow {
  kind: MarketKind;
  pair: string;
  /** The 1-minute bars inside the window, oldest first. */
  bars: Candle[];
  /** The newest bar before the window: its close is the price 24 h ago. */
  anchor: Candle | null;
}

/** First instant of the 24-hour window at `now`: 1440 whole minutes ending with the current one. */
export function windowStart(now: number): number {
  return bucketStart(now, 1) - (WINDOW_MINUTES - 1) * MINUTE_MS;
}

/** Percent change, 2 decimals, cut toward zero so a tiny fall reads 0.00 rather than -0.01. */
export function risePercent(price: Dec, reference: Dec): string {
  if (reference.isZero()) return '0.00';
  const change = price.sub(reference).mul(HUNDRED).div(reference);
  const cut = change.abs().floorTo(2);
  return (change.isNegative() ? cut.neg() : cut).toFixed(2);
}

/**
 * The 24-hour ticker of every market (last price, rise, high, low, volume),
 * computed from the 1-minute bars it is fed as they are committed, kept in
 * memory and rolled forward by the clock.
 */
export class TickerBook {
  private readonly markets = new Map<string, MarketWindow>();

  constructor(private readonly clock: Clock) {}

  /** Takes a committed 1-minute bar (other periods are ignored); a bar already held is replaced. */
  apply(bar: Candle): void {
    if (bar.period !== 1) return;
    const market = this.window(bar.kind, bar.pair);
    // Rolling here too keeps the window bounded even for a market nobody reads.
    this.roll(market);
    if (bar.start < windowStart(this.clock.now())) {
      if (!market.anchor || bar.start >= market.anchor.start) market.anchor = bar;
      return;
    }
    const at = market.bars.findLastIndex((held) => held.start <= bar.start);
    if (at >= 0 && market.bars[at]?.start === bar.start) market.bars[at] = bar;
    else market.bars.splice(at + 1, 0, bar);
  }

  ticker(kind: MarketKind, pair: string): MarketTicker | null {
    const market = this.markets.get(`${kind}|${pair}`);
    if (!market) return null;
    this.roll(market);
    const last = market.bars.at(-1) ?? market.anchor;
    if (!last) return null;
    const reference = market.anchor?.close ?? market.bars[0]?.open ?? last.close;
    // The last close lies inside its own bar's range, so it is a safe seed for both folds.
    const high = market.bars.reduce((top, bar) => Dec.max(top, bar.high), last.close);
    const low = market.bars.reduce((bottom, bar) => Dec.min(bottom, bar.low), last.close);
    return {
      ...splitPair(pair),
      price: last.close.toString(),
      rise: risePercent(last.close, reference),
      high: high.toString(),
      low: low.toString(),
      volume: Dec.sum(market.bars.map((bar) => bar.volume)).toString(),
      ts: last.lastTs,
    };
  }

  private window(kind: MarketKind, pair: string): MarketWindow {
    const key = `${kind}|${pair}`;
    let market = this.markets.get(key);
    if (!market) {
      market = { kind, pair, bars: [], anchor: null };
      this.markets.set(key, market);
    }
    return market;
  }

  /** Moves bars that fell out of the window into the anchor. */
  private roll(market: MarketWindow): void {
    const start = windowStart(this.clock.now());
    let expired = 0;
    while (expired < market.bars.length && (market.bars[expired]?.start ?? start) < start) expired += 1;
    if (expired === 0) return;
    market.anchor = market.bars[expired - 1] ?? market.anchor;
    market.bars.splice(0, expired);
  }
}
