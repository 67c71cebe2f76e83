import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { Store } from '../store/connect.ts';
import { type IndexPriceSource, SimulatedIndexSource } from './index-price.ts';
import { registerMarketRoutes } from './routes.ts';
import { MarketData } from './service.ts';

export type { IndexPriceSource, IndexTick } from './index-price.ts';
export type { Print } from './kline.ts';
export { MarketData } from './service.ts';

export interface MarketModule {
  /** Reference prices: futures marks and cycle settlement read them. */
  index: IndexPriceSource;
  /** The simulator behind `index`, for tests that step it by hand. */
  simulator: SimulatedIndexSource;
  /** K-lines and tickers; the spot and futures modules feed it their committed trades. */
  data: MarketData;
  registerRoutes(http: FastifyInstance): void;
  /** Starts the index ticks (main.ts; tests step `simulator.tick()` instead). */
  start(): void;
  close(): Promise<void>;
}

export interface MarketModuleOptions {
  config: Config;
  store: Store;
  clock: Clock;
  publisher: Publisher;
  onError: (error: unknown) => void;
}

/**
 * Index prices, K-lines and tickers. The cycle markets trade against the
 * index, so every index tick is also a zero-volume print on the coin's cycle
 * market, which gives the cycle chart and its ticker.
 */
export async function createMarketModule(options: MarketModuleOptions): Promise<MarketModule> {
  const { config, store, clock, publisher, onError } = options;
  const simulator = new SimulatedIndexSource({
    db: store.db,
    clock,
    seed: config.priceSeed,
    tickMs: config.priceTickMs,
    onError,
  });
  await simulator.load();
  const data = new MarketData({ db: store.db, clock, publisher, onError });
  await data.load();
  simulator.subscribe((tick) =>
    data.recordPrice({ kind: 'cycle', maincoin: simulator.quote, tradcoin: tick.coin }, tick.price, tick.ts),
  );
  return {
    index: simulator,
    simulator,
    data,
    registerRoutes: (http) => registerMarketRoutes(http, data),
    start: () => simulator.start(),
    async close() {
      simulator.stop();
      await simulator.settle();
      await data.close();
    },
  };
}
