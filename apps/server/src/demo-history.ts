import { Dec } from '@halyard/money';
import type { App } from './app.ts';
import type { Config } from './config.ts';
import type { HistoryMarket } from './market/index.ts';
import { houseDailyVolume } from './modules/spot/market-maker.ts';

/**
 * The demo markets whose charts get seeded history (market/history.ts):
 * every spot pair, futures contract and cycle pair. A day's volume is what the
 * house's crossing orders trade on the coin's spot pair, so the seeded bars
 * look like the live ones; futures count it in contracts, and cycle bars (index
 * ticks) have none.
 */
export function demoHistoryMarkets(
  app: Pick<App, 'spot' | 'futures' | 'cycle'>,
  tickMs: Config['priceTickMs'],
): HistoryMarket[] {
  const perDay = new Map<string, Dec>();
  const spot = app.spot.service.pairs().map(({ pair }) => {
    const daily = houseDailyVolume(Dec.parse(pair.minnumber), tickMs);
    perDay.set(pair.tradcoin, daily);
    return {
      market: { kind: 'trad' as const, tradcoin: pair.tradcoin, maincoin: pair.maincoin },
      priceAccuracy: pair.price_accuracy,
      volume: { perDay: daily, step: Dec.step(pair.amount_accuracy) },
    };
  });
  const futures = [...app.futures.service.engine.markets.values()].map(({ contract, unit }) => {
    const daily = perDay.get(contract.tradcoin);
    return {
      market: { kind: 'contract' as const, tradcoin: contract.tradcoin, maincoin: contract.maincoin },
      priceAccuracy: contract.price_accuracy,
      volume: daily ? { perDay: daily, step: unit } : null,
    };
  });
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
