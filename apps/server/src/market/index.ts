import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { MoneyCoreHandle } from '../money-core/handle.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { Store } from '../store/connect.ts';
import { type CoinPath, coinPath, type HistoryMarket, historyBars, historyStretches } from './history.ts';
import { SimulatedIndexSource } from './index-price.ts';
import { LiveIndex } from './live-index.ts';
import { registerMarketRoutes } from './routes.ts';
import { MarketData } from './service.ts';

export type { HistoryMarket } from './history.ts';
export type { IndexPriceSource, IndexTick } from './index-price.ts';
export type { Print } from './kline.ts';
export { LiveIndex } from './live-index.ts';
export { MarketData } from './service.ts';

export interface MarketModule {
  /** Reference prices: futures marks and cycle settlement read them (the simulator's ticks, or the core's: LiveIndex). */
  index: LiveIndex;
  /** The simulator behind `index`, for tests that step it by hand. */
  simulator: SimulatedIndexSource;
  /** K-lines and tickers; the spot and futures modules feed it their committed trades. */
  data: MarketData;
  registerRoutes(http: FastifyInstance): void;
  /**
   * Demo mode's first start (history.ts): months of bars on each market that
   * has none, ending at the index's current level. Once per market (a marker
   * in the store); returns how many markets were seeded.
   */
  seedDemoHistory(markets: readonly HistoryMarket[]): Promise<number>;
  /** Starts the index ticks (main.ts; tests step `simulator.tick()` instead). */
  start(): void;
  /**
   * Cluster mode, a gateway that does not run the index source: stops the
   * simulator here and feeds `index` from the core's `indexPrices` events
   * (LiveIndex.follow). Needs the module built with `core`.
   */
  followIndex(): void;
  /**
   * Cluster mode, the gateway that takes the jobs lease: stops following,
   * continues the walk from the last tick SQL holds (the previous holder's),
   * and starts the ticks.
   */
  leadIndex(): Promise<void>;
  close(): Promise<void>;
}

export interface MarketModuleOptions {
  config: Config;
  store: Store;
  clock: Clock;
  publisher: Publisher;
  /** The sequenced core, when the money runs on it: the projector writes the K-lines (MarketDataOptions.core). */
  core?: MoneyCoreHandle;
  onError: (error: unknown) => void;
}

/**
 * Index prices, K-lines and tickers. The cycle markets trade against the
 * index, so every index tick is also a zero-volume print on the coin's cycle
 * market, which gives the cycle chart and its ticker (on the core, the tick
 * reaches the state as `indexPrices`, and the projector charts it).
 */
export async function createMarketModule(options: MarketModuleOptions): Promise<MarketModule> {
  const { config, store, clock, publisher, core, onError } = options;
  const simulator = new SimulatedIndexSource({
    db: store.db,
    clock,
    seed: config.priceSeed,
    tickMs: config.priceTickMs,
    onError,
  });
  await simulator.load();
  const data = new MarketData({ db: store.db, clock, publisher, onError, ...(core ? { core } : {}) });
  await data.load();
  if (data.recordsPrints)
    simulator.subscribe((tick) =>
      data.recordPrice(
        { kind: 'cycle', maincoin: simulator.quote, tradcoin: tick.coin },
        tick.price,
        tick.ts,
      ),
    );
  // After the K-lines' subscription: the charts move before the modules hear of a tick, as before.
  const index = new LiveIndex(simulator, onError);
  return {
    index,
    simulator,
    data,
    registerRoutes: (http) => registerMarketRoutes(http, data),
    async seedDemoHistory(markets) {
      const end = clock.now();
      const stretches = historyStretches(end);
      const paths = new Map<string, CoinPath>();
      let seeded = 0;
      for (const target of markets) {
        const { tradcoin, maincoin } = target.market;
        const spec = simulator.spec(tradcoin);
        const level = simulator.level(tradcoin);
        // A coin the index does not walk has no history to draw.
        if (!spec || !level || maincoin !== simulator.quote) continue;
        if (await data.hasHistory(target.market)) continue;
        let path = paths.get(tradcoin);
        if (!path) {
          path = coinPath(spec, config.priceSeed, stretches, end);
          paths.set(tradcoin, path);
        }
        if (await data.importHistory(target.market, historyBars(path, stretches, target, level))) seeded += 1;
      }
      return seeded;
    },
    start: () => simulator.start(),
    followIndex() {
      if (!core) throw new Error('market: only a module on the core can follow its index prices');
      simulator.stop();
      index.follow(core);
    },
    async leadIndex() {
      index.unfollow();
      await simulator.settle();
      await simulator.load();
      simulator.start();
    },
    async close() {
      simulator.stop();
      await simulator.settle();
      await data.close();
    },
  };
}
