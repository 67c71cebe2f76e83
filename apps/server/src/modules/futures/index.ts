import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { MarketModule } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { Store } from '../../store/connect.ts';
import type { IdentityService } from '../identity/index.ts';
import type { ReferralFees } from '../referral/index.ts';
import { FuturesMarketMaker } from './market-maker.ts';
import { registerFuturesRoutes } from './routes.ts';
import { FuturesService } from './service.ts';

// The interval's one definition is funding.ts's: snapshot 0 from SQL reads it too (projection/initial-state.ts).
export { FUNDING_INTERVAL_MS_DEFAULT, fundingIntervalFrom } from './funding.ts';
export { FuturesMarketMaker } from './market-maker.ts';
export type {
  EntrustView,
  FuturesExposureView,
  FuturesOrderInput,
  PositionView,
  TriggerView,
} from './service.ts';
export { FuturesService } from './service.ts';

/** How often the contract list is pushed to every client (`consymbols`). */
const SYMBOLS_EVERY_MS = 2000;

/** What createApp holds as `app.futures`. */
export interface FuturesModule {
  service: FuturesService;
  marketMaker: FuturesMarketMaker;
  registerRoutes(http: FastifyInstance): void;
  /** Demo seed: the demo contracts, the house and the insurance fund (idempotent). */
  seedDemo(): Promise<void>;
  /** Mark-price risk checks on every index tick (always); with `demo`, the market maker and the `consymbols` pushes. */
  start(options: { demo: boolean }): void;
  /** Only the `consymbols` pushes (with `demo`): a cluster gateway that does not run the jobs serves its own clients. */
  startPushes(options: { demo: boolean }): void;
  close(): Promise<void>;
}

export interface FuturesModuleOptions {
  store: Store;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  market: MarketModule;
  publisher: Publisher;
  requireUser: preHandlerAsyncHookHandler;
  fundingIntervalMs: number;
  /** Referral commissions on fees (modules/referral). */
  referral: ReferralFees;
  /** The sequenced core (issue 19): orders, closes, cancels, TP/SL and marks go to the money state. */
  core?: MoneyCoreHandle;
  /** On the core: see CoreFuturesOptions.beforeFee. */
  beforeFee?: (userId: number) => Promise<void>;
  onError: (error: unknown) => void;
}

/** Perpetual futures: contracts, books and positions rebuilt from the store, the API, the risk loop and the market maker. */
export async function createFuturesModule(options: FuturesModuleOptions): Promise<FuturesModule> {
  const service = new FuturesService({ ...options, db: options.store.db });
  await service.load();
  const marketMaker = new FuturesMarketMaker({
    futures: service,
    index: options.market.index,
    onError: options.onError,
  });
  let symbols: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  const startPushes = ({ demo }: { demo: boolean }) => {
    if (!demo || symbols) return;
    symbols = setInterval(() => service.publishSymbols(), SYMBOLS_EVERY_MS);
    symbols.unref();
  };
  return {
    service,
    marketMaker,
    registerRoutes: (http) =>
      registerFuturesRoutes(http, { futures: service, requireUser: options.requireUser }),
    seedDemo: () => service.seedDemo(),
    start({ demo }) {
      if (unsubscribe) return;
      unsubscribe = options.market.index.subscribe((tick) => {
        service.onIndexTick(tick).catch(options.onError);
      });
      if (!demo) return;
      marketMaker.start();
      startPushes({ demo });
    },
    startPushes,
    async close() {
      unsubscribe?.();
      unsubscribe = null;
      if (symbols) clearInterval(symbols);
      symbols = null;
      await marketMaker.stop();
      await service.idle();
      service.close();
    },
  };
}
