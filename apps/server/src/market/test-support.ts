import type { Dec } from '@halyard/money';
import { KLINE_MINUTES } from '@halyard/protocol';
import type { App } from '../app.ts';
import type { Executor } from '../store/database.ts';
import type { IndexPriceSource, IndexTick } from './index.ts';
import { formatSeriesRow } from './kline.ts';
import { type Candle, selectCandlesSince } from './store.ts';

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

/** A bar as one line, `kind|pair|period|` its series row `|firstTs|lastTs`, decimals in their canonical text. */
export function barLine(bar: Candle): string {
  return `${bar.kind}|${bar.pair}|${bar.period}|${formatSeriesRow(bar)}|${bar.firstTs}|${bar.lastTs}`;
}

/** Every stored bar as a line (barLine), sorted: whatever the database pads decimals to. */
export async function storedBars(db: Executor): Promise<string[]> {
  const lines: string[] = [];
  for (const period of KLINE_MINUTES)
    for (const bar of await selectCandlesSince(db, period, Number.MIN_SAFE_INTEGER)) lines.push(barLine(bar));
  return lines.sort();
}

/**
 * One index tick, charted: on the core, the tick reaches the state as an
 * `indexPrices` command the edge sends without waiting (ReferralOnCore), so
 * this waits until the state has published every coin's price, then until
 * the bars are written and announced.
 */
export async function tickCharted(app: Pick<App, 'market' | 'moneyCore'>): Promise<IndexTick[]> {
  const core = app.moneyCore;
  const published = new Set<string>();
  let wake = () => {};
  const stop = core?.sequencer.subscribe((batch) => {
    for (const { events } of batch)
      for (const event of events)
        if (event.type === 'indexPrices') for (const [coin] of event.prices) published.add(coin);
    wake();
  });
  try {
    const ticks = await app.market.simulator.tick();
    while (core && !ticks.every((tick) => published.has(tick.coin)))
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    await app.market.data.flush();
    return ticks;
  } finally {
    stop?.();
  }
}
