import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { MarketModule } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { Store } from '../../store/connect.ts';
import type { IdentityService } from '../identity/index.ts';
import type { ReferralFees } from '../referral/index.ts';
import { registerCycleRoutes } from './routes.ts';
import { CycleService } from './service.ts';
import type { SettledOrder } from './settlement.ts';

export { type Coins, type CycleOrderInput, CycleService, positionView } from './service.ts';
export type { SettledOrder } from './settlement.ts';

/** What createApp holds as `app.cycle`. */
export interface CycleModule {
  service: CycleService;
  registerRoutes(http: FastifyInstance): void;
  seedDemo(): Promise<void>;
  /**
   * Settles the open orders whose expiry is at or before `cut` (default: now)
   * from the recorded index history. The scheduler calls it on every index
   * tick; tests call it by hand.
   */
  settleDue(cut?: number): Promise<SettledOrder[]>;
  /** Settles on every recorded index tick and pushes `cycleinfo` (main.ts; tests step by hand). */
  start(): void;
  /** Only the `cycleinfo` push on every index tick: a cluster gateway that does not run the jobs (settlement) serves its own clients. */
  startPushes(): void;
  close(): Promise<void>;
}

export interface CycleModuleOptions {
  store: Store;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  market: MarketModule;
  publisher: Publisher;
  requireUser: preHandlerAsyncHookHandler;
  refusedAreaCodes: readonly string[];
  /** Referral commissions on the wins' fees (modules/referral). */
  referral: ReferralFees;
  /** The sequenced core, when the contracts run on it (CycleServiceOptions.core). */
  core?: MoneyCoreHandle;
  /** On the core: see CycleServiceOptions.beforeFee. */
  beforeFee?: (userId: number) => Promise<void>;
  onError: (error: unknown) => void;
}

/**
 * Cycle contracts. Created after the ledger, identity and market. On
 * creation it settles every order whose expiry passed while the server was
 * down: nothing has been recorded since, so the history up to now is final.
 * With a core, the money state settles (core-settlement.ts) the same way.
 */
export async function createCycleModule(options: CycleModuleOptions): Promise<CycleModule> {
  const { clock, market, onError } = options;
  const service = new CycleService({ ...options, db: options.store.db });
  await service.load();
  await service.settlement.load();
  const settleDue = async (cut: number, coin: string | null) => {
    const settled = await service.settlement.settleDue(cut, coin);
    if (settled.length > 0) await service.publishSettled(settled);
    return settled;
  };
  await settleDue(clock.now(), null);
  let stopPushes: (() => void) | null = null;
  let stopSettling: (() => void) | null = null;
  const startPushes = () => {
    if (stopPushes) return;
    stopPushes = market.index.subscribe((tick) => service.publishInfo(tick.coin));
  };
  return {
    service,
    registerRoutes: (http) => registerCycleRoutes(http, { cycle: service, requireUser: options.requireUser }),
    seedDemo: () => service.seedDemo(),
    settleDue: (cut = clock.now()) => settleDue(cut, null),
    start() {
      startPushes();
      if (stopSettling) return;
      // A tick is announced after it is recorded, and ticks come in time order:
      // the history of its coin up to its time is final, so orders expiring by then can settle.
      stopSettling = market.index.subscribe((tick) => {
        settleDue(tick.ts, tick.coin).catch(onError);
      });
    },
    startPushes,
    async close() {
      stopPushes?.();
      stopSettling?.();
      stopPushes = null;
      stopSettling = null;
      await service.settlement.close();
    },
  };
}
