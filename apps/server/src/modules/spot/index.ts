import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { MarketModule } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { Store } from '../../store/connect.ts';
import type { IdentityService } from '../identity/index.ts';
import type { ReferralFees } from '../referral/index.ts';
import { MarketMaker } from './market-maker.ts';
import { registerSpotRoutes } from './routes.ts';
import { SpotService } from './service.ts';

export { MarketMaker } from './market-maker.ts';
export type { BookLevelView, Coins, OrderInput, OrderView, PageView } from './service.ts';
export { SpotService } from './service.ts';
export type { OrderState } from './store.ts';

/** How often both pair lists are pushed to every client. */
const LISTS_EVERY_MS = 2000;

/** What createApp holds as `app.spot`. */
export interface SpotModule {
  service: SpotService;
  marketMaker: MarketMaker;
  registerRoutes(http: FastifyInstance): void;
  /** Demo seed: the demo pairs and the house's funding (idempotent). */
  seedDemo(): Promise<void>;
  /** The market maker and the periodic `overview`/`symbols` pushes (main.ts; tests step by hand). */
  start(): void;
  /** Only the pushes: a cluster gateway that does not run the jobs serves its own clients (the jobs' market maker is elsewhere). */
  startPushes(): void;
  /** Stops the timers and waits for every queued order to commit. */
  close(): Promise<void>;
}

export interface SpotModuleOptions {
  store: Store;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  /** HAL fee deduction and referral commissions, in each fee's transaction. */
  referral: ReferralFees;
  market: MarketModule;
  publisher: Publisher;
  requireUser: preHandlerAsyncHookHandler;
  /** The sequenced core, when the pairs run on it (SpotServiceOptions.core). */
  core?: MoneyCoreHandle;
  /** On the core: see SpotServiceOptions.beforeFee. */
  beforeFee?: (userId: number) => Promise<void>;
  onError: (error: unknown) => void;
}

/** The spot exchange: pairs, books rebuilt from the store, the API and the market maker. */
export async function createSpotModule(options: SpotModuleOptions): Promise<SpotModule> {
  const service = new SpotService({ ...options, db: options.store.db });
  await service.load();
  const marketMaker = new MarketMaker({
    spot: service,
    index: options.market.index,
    onError: options.onError,
  });
  let lists: NodeJS.Timeout | null = null;
  const startPushes = () => {
    if (lists) return;
    lists = setInterval(() => service.publishLists(), LISTS_EVERY_MS);
    lists.unref();
  };
  return {
    service,
    marketMaker,
    registerRoutes: (http) => registerSpotRoutes(http, { spot: service, requireUser: options.requireUser }),
    seedDemo: () => service.seedDemo(),
    start() {
      marketMaker.start();
      startPushes();
    },
    startPushes,
    async close() {
      if (lists) clearInterval(lists);
      lists = null;
      await marketMaker.stop();
      await service.idle();
      service.close();
    },
  };
}
