import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { serialTimer } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import { registerReferralRoutes } from './routes.ts';
import { ReferralService, type ReferralServiceOptions } from './service.ts';

export { DEMO_INVITER, DEMO_PASSWORD, seedReferralDemo } from './demo.ts';
export { CommissionBatch, type FeeCharge, type ReferralFees } from './fees.ts';
export { maskUserId, ReferralService } from './service.ts';
export {
  insertCommissions,
  type NewCommissionRow,
  type PromotionRebate,
  promotionRebateRow,
} from './store.ts';

/** What createApp holds as `app.referral`. */
export interface ReferralModule {
  service: ReferralService;
  registerRoutes(http: FastifyInstance): void;
  /** Demo mode: seeds the demo team on a timer until it is done (main.ts; tests call seedReferralDemo). */
  start(): void;
  close(): Promise<void>;
}

/** How often the demo seed tries again while the pair has no price yet. */
const DEMO_RETRY_MS = 5_000;

export interface ReferralModuleOptions extends ReferralServiceOptions {
  requireUser: preHandlerAsyncHookHandler;
  operatorGuard: OperatorGuard;
  demo: boolean;
  /** The demo team's seed (seedReferralDemo with the services it trades through); answers true once done. */
  seedDemo: () => Promise<boolean>;
  onError: (error: unknown) => void;
}

/**
 * Invites, team and commissions (issue 17). Spot and futures take
 * `service.fees` and pay each fee's commissions in the fee's own ledger
 * transaction.
 */
export async function createReferralModule(options: ReferralModuleOptions): Promise<ReferralModule> {
  const service = new ReferralService(options);
  await service.fees.loadSettings();
  let seeded = !options.demo;
  const demoSeed = serialTimer(
    async () => {
      if (!seeded) seeded = await options.seedDemo();
    },
    DEMO_RETRY_MS,
    options.onError,
  );
  return {
    service,
    registerRoutes: (http) => registerReferralRoutes(http, { referral: service, ...options }),
    start: () => {
      if (!seeded) demoSeed.start();
    },
    close: () => demoSeed.stop(),
  };
}
