import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { OperatorGuard } from '../../http/auth.ts';
import { registerReferralRoutes } from './routes.ts';
import { ReferralService, type ReferralServiceOptions } from './service.ts';

export { CommissionBatch, type FeeCharge, type ReferralFees } from './fees.ts';
export { maskUserId, ReferralService } from './service.ts';
export { insertCommissions, type NewCommissionRow } from './store.ts';

/** What createApp holds as `app.referral`. */
export interface ReferralModule {
  service: ReferralService;
  registerRoutes(http: FastifyInstance): void;
}

export interface ReferralModuleOptions extends ReferralServiceOptions {
  requireUser: preHandlerAsyncHookHandler;
  operatorGuard: OperatorGuard;
}

/**
 * Invites, team and commissions (issue 17). Spot and futures take
 * `service.fees` and pay each fee's commissions in the fee's own ledger
 * transaction.
 */
export async function createReferralModule(options: ReferralModuleOptions): Promise<ReferralModule> {
  const service = new ReferralService(options);
  await service.fees.loadSettings();
  return {
    service,
    registerRoutes: (http) => registerReferralRoutes(http, { referral: service, ...options }),
  };
}
