/**
 * The back office's markets (issue 18 item 5): read and edit the settings of
 * spot pairs, futures contracts and cycle pairs, live (each module applies
 * them through its own queue), and list new ones through the four-eyes kind
 * `market_listing`. The modules keep their tables and rules; this one only
 * calls their services.
 *
 * Routes: GET /admin/markets, PUT /admin/markets/{spot,futures,cycle}/:id,
 * POST /admin/markets/listings.
 */
import type { FastifyInstance } from 'fastify';
import { followMarketChanges, type MarketChange, type MarketNotices } from './changes.ts';
import { MARKET_LISTING, marketListingHandler } from './listing.ts';
import { type MarketRoutesOptions, registerMarketRoutes } from './routes.ts';

export type { MarketChange, MarketNotices } from './changes.ts';
export { MARKET_LISTING } from './listing.ts';

export interface MarketsModule {
  registerRoutes(http: FastifyInstance): void;
  /** Stops hearing the other gateways' changes. */
  close(): void;
}

export interface MarketsModuleOptions extends Omit<MarketRoutesOptions, 'changed'> {
  /**
   * Cluster mode: the gateways' channel of market changes, so a cycle pair
   * listed or changed through one gateway is read again by every one (spot
   * and futures follow the money state by themselves).
   */
  notices?: MarketNotices;
  onError?: (error: unknown) => void;
}

export function createMarketsModule(options: MarketsModuleOptions): MarketsModule {
  const { notices } = options;
  const onError = options.onError ?? ((error: unknown) => console.error('markets', error));
  const changed = (change: MarketChange) => notices?.publish(change);
  const routes = { ...options, changed };
  options.approvals.register(MARKET_LISTING, marketListingHandler(routes));
  const stop = notices ? followMarketChanges(notices, options.cycle, onError) : () => {};
  return { registerRoutes: (http) => registerMarketRoutes(http, routes), close: stop };
}
