import { Dec } from '@halyard/money';
import type { App } from './app.ts';
import type { HistoryMarket } from './market/index.ts';

/**
 * The demo markets whose charts get seeded history (market/history.ts):
 * every spot pair, futures contract and cycle pair, with the volume step
 * their live bars count in (spot: the amount step; futures: one contract's
 * coins; cycle: none, its bars are index ticks).
 */
export function demoHistoryMarkets(app: Pick<App, 'spot' | 'futures' | 'cycle'>): HistoryMarket[] {
  const spot = app.spot.service.pairs().map(({ pair }) => ({
    market: { kind: 'trad' as const, tradcoin: pair.tradcoin, maincoin: pair.maincoin },
    priceAccuracy: pair.price_accuracy,
    volumeStep: Dec.step(pair.amount_accuracy),
  }));
  const futures = [...app.futures.service.engine.markets.values()].map(({ contract, unit }) => ({
    market: { kind: 'contract' as const, tradcoin: contract.tradcoin, maincoin: contract.maincoin },
    priceAccuracy: contract.price_accuracy,
    volumeStep: unit,
  }));
  const cycle = app.cycle.service.symbols().map((pair) => ({
    market: { kind: 'cycle' as const, tradcoin: pair.tradcoin, maincoin: pair.maincoin },
    priceAccuracy: pair.price_accuracy,
    volumeStep: null,
  }));
  return [...spot, ...futures, ...cycle];
}

/** Seeds the demo history where it is missing; logs what it did and how long it took. */
export async function seedDemoHistory(app: App): Promise<void> {
  const started = performance.now();
  const seeded = await app.market.seedDemoHistory(demoHistoryMarkets(app));
  if (seeded === 0) return;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  app.http.log.info(`demo history: ${seeded} markets seeded in ${seconds} s`);
}
