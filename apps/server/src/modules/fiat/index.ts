import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { serialTimer } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import { seedFiatDemo } from './demo.ts';
import { registerFiatMerchantRoutes } from './merchant-routes.ts';
import { registerFiatOperatorRoutes } from './operator-routes.ts';
import { registerFiatRoutes } from './routes.ts';
import { FiatService, type FiatServiceOptions } from './service.ts';

export { DEMO_MERCHANT_DELAY_MS, FiatService } from './service.ts';

/** How often the scheduler looks at the clock: expiries and the demo merchant's steps. */
const TICK_MS = 1_000;

/** What createApp holds as `app.fiat`. */
export interface FiatModule {
  service: FiatService;
  registerRoutes(http: FastifyInstance): void;
  seedDemo(): Promise<void>;
  /** Expires unpaid orders on the clock every second (main.ts; tests call `service.tick()`). */
  start(): void;
  close(): Promise<void>;
}

export interface FiatModuleOptions extends FiatServiceOptions {
  requireUser: preHandlerAsyncHookHandler;
  /** Guards the /admin routes: the signed-in operator's role must allow the route's permission. */
  operatorGuard: OperatorGuard;
  onError: (error: unknown) => void;
}

/** Fiat through merchants. On creation it catches up with the clock: orders that expired while the server was down are cancelled now. */
export async function createFiatModule(options: FiatModuleOptions): Promise<FiatModule> {
  const service = new FiatService(options);
  await service.holdLiveAds();
  await service.tick();
  const scheduler = serialTimer(() => service.tick(), TICK_MS, options.onError);
  return {
    service,
    registerRoutes: (http) => {
      registerFiatRoutes(http, { fiat: service, requireUser: options.requireUser });
      registerFiatMerchantRoutes(http, { fiat: service, requireUser: options.requireUser });
      registerFiatOperatorRoutes(http, { fiat: service, operatorGuard: options.operatorGuard });
    },
    seedDemo: () => seedFiatDemo(options, service),
    start: () => scheduler.start(),
    close: () => scheduler.stop(),
  };
}
