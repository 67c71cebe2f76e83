import type { Dec } from '@halyard/money';
import { KLINE_MINUTES } from '@halyard/protocol';
import type { Executor } from '../store/database.ts';
import type { IndexPriceSource, IndexTick } from './index.ts';
import { formatSeriesRow } from './kline.ts';
import { selectCandlesSince } from './store.ts';

/** An index whose current prices a test sets by hand (`prices.set(coin, price)`); it records no history. */
export class SetPriceIndex implements IndexPriceSource {
  readonly name = 'test';
  readonly quote = 'USDT';
  readonly tickMs = 1_000;
  readonly prices = new Map<string, Dec>();
  coins(): string[] {
    return [...this.prices.keys()];
  }
  priceAccuracy(): number {
    return 8;
  }
  current(coin: string): IndexTick | null {
    const price = this.prices.get(coin);
    return price === undefined ? null : { coin, price, ts: 0, source: this.name };
  }
  async priceAt(): Promise<IndexTick | null> {
    return null;
  }
  subscribe(): () => void {
    return () => {};
  }
}

/**
 * Every stored bar as one line (`kind|pair|period|` the series row `|firstTs|lastTs`),
 * in key order: decimals in their canonical text, whatever the database pads them to.
 */
export async function storedBars(db: Executor): Promise<string[]> {
  const lines: string[] = [];
  for (const period of KLINE_MINUTES)
    for (const bar of await selectCandlesSince(db, period, Number.MIN_SAFE_INTEGER))
      lines.push(`${bar.kind}|${bar.pair}|${period}|${formatSeriesRow(bar)}|${bar.firstTs}|${bar.lastTs}`);
  return lines.sort();
}
