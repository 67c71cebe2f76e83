import { Dec } from '@halyard/money';
import type { App } from './app.ts';
import type { Config } from './config.ts';
import type { HistoryMarket } from './market/index.ts';
import { houseDailyVolume } from './modules/spot/quoting.ts';

/**
 * The demo markets whose charts get seeded history (market/history.ts):
 * every spot pair, futures contract and cycle pair. A day's volume is what the
 * house's crossing orders trade on the market (spot: its minimum amounts;
 * futures: its minimum lots, in whole contracts), so the seeded bars look like
 * the live ones; cycle bars (index ticks) have none.
 */
export function demoHistoryMarkets(
  app: Pick<App, 'spot' | 'futures' | 'cycle'>,
  tickMs: Config['priceTickMs'],
): HistoryMarket[] {
  const spot = app.spot.service.pairs().map(({ pair }) => {
    const daily = houseDailyVolume(Dec.parse(pair.minnumber), tickMs);
    return {
      market: { kind: 'trad' as const, tradcoin: pair.tradcoin, maincoin: pair.maincoin },
      priceAccuracy: pair.price_accuracy,
      volume: { perDay: daily, step: Dec.step(pair.amount_accuracy) },
    };
  });
  const futures = [...app.futures.service.engine.markets.values()].map(({ contract, unit }) => ({
    market: { kind: 'contract' as const, tradcoin: contract.tradcoin, maincoin: contract.maincoin },
    priceAccuracy: contract.price_accuracy,
    volume: { perDay: houseDailyVolume(Dec.parse(contract.minnumber), tickMs).mul(unit), step: unit },
  }));
  const cycle = app.cycle.service.symbols().map((pair) => ({
    market: { kind: 'cycle' as const, tradcoin: pair.tradcoin, maincoin: pair.maincoin },
    priceAccuracy: pair.price_accuracy,
    volume: null,
  }));
  return [...spot, ...futures, ...cycle];
}

/** Seeds the demo history where it is missing; logs what it did and how long it took. */
export async function seedDemoHistory(app: App, config: Config): Promise<void> {
  const started = performance.now();
  const seeded = await app.market.seedDemoHistory(demoHistoryMarkets(app, config.priceTickMs));
  if (seeded === 0) return;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  app.http.log.info(`demo history: ${seeded} markets seeded in ${seconds} s`);
}
