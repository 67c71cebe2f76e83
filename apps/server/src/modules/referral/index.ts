import { REFERRAL_PAYOUT_INTERVAL_MS } from '@halyard/rules';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { serialTimer } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import type { Ledger } from '../../ledger/index.ts';
import { payAllCommissions } from './payouts.ts';
import { registerReferralRoutes } from './routes.ts';
import { ReferralService, type ReferralServiceOptions } from './service.ts';

export { DEMO_INVITER, DEMO_PASSWORD, seedReferralDemo } from './demo.ts';
export { CommissionBatch, type FeeCharge, type ReferralFees } from './fees.ts';
export { payCommissions } from './payouts.ts';
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
  /** Pays every commission accrued unpaid, now: what the payout timer runs (tests call it by hand). Answers the rows paid. */
  payCommissions(): Promise<number>;
  /**
   * Starts the payout sweep, every REFERRAL_PAYOUT_INTERVAL_MS, and in demo
   * mode seeds the demo team on a timer until it is done (main.ts; tests
   * call seedReferralDemo and payCommissions).
   */
  start(): void;
  close(): Promise<void>;
}

/** How often the demo seed tries again while the pair has no price yet. */
const DEMO_RETRY_MS = 5_000;

export interface ReferralModuleOptions extends ReferralServiceOptions {
  /** The payout sweep's transfers go through it (on the SQL path; on the core the state credits them). */
  ledger: Ledger;
  requireUser: preHandlerAsyncHookHandler;
  operatorGuard: OperatorGuard;
  demo: boolean;
  /** The demo team's seed (seedReferralDemo with the services it trades through); answers true once done. */
  seedDemo: () => Promise<boolean>;
  onError: (error: unknown) => void;
}

/**
 * Invites, team and commissions (issue 17). Spot, futures and cycle take
 * `service.fees` and write each fee's commission row in the fee's own
 * ledger transaction, unpaid; the payout sweep credits them every
 * REFERRAL_PAYOUT_INTERVAL_MS (payouts.ts).
 */
export async function createReferralModule(options: ReferralModuleOptions): Promise<ReferralModule> {
  const service = new ReferralService(options);
  await service.fees.loadSettings();
  const { onCore } = options;
  const payCommissions = onCore
    ? () => onCore.payCommissions()
    : () => payAllCommissions(options.ledger, options.clock.now());
  const payouts = serialTimer(
    async () => {
      await payCommissions();
    },
    REFERRAL_PAYOUT_INTERVAL_MS,
    options.onError,
  );
  let seeded = !options.demo;
  const demoSeed = serialTimer(
    async () => {
      if (seeded) return;
      seeded = await options.seedDemo();
      // The demo inviter sees credited commissions at once, not a minute later.
      if (seeded) await payCommissions();
    },
    DEMO_RETRY_MS,
    options.onError,
  );
  return {
    service,
    registerRoutes: (http) => registerReferralRoutes(http, { referral: service, ...options }),
    payCommissions,
    start: () => {
      payouts.start();
      if (!seeded) demoSeed.start();
    },
    close: async () => {
      await demoSeed.stop();
      await payouts.stop();
    },
  };
}
