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
import { MARKET_LISTING, marketListingHandler } from './listing.ts';
import { type MarketRoutesOptions, registerMarketRoutes } from './routes.ts';

export { MARKET_LISTING } from './listing.ts';

export interface MarketsModule {
  registerRoutes(http: FastifyInstance): void;
}

export function createMarketsModule(options: MarketRoutesOptions): MarketsModule {
  options.approvals.register(MARKET_LISTING, marketListingHandler(options));
  return { registerRoutes: (http) => registerMarketRoutes(http, options) };
}
