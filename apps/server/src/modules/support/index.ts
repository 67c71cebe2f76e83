import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import type { Store } from '../../store/connect.ts';
import { registerSupportRoutes } from './routes.ts';
import { SupportService } from './service.ts';

export type { AdminTicketView, TicketPage, TicketView } from '@halyard/protocol';
export { SupportService } from './service.ts';
export type { TicketStatus } from './store.ts';

/** What createApp holds as `app.support`. */
export interface SupportModule {
  service: SupportService;
  registerRoutes(http: FastifyInstance): void;
}

export interface SupportModuleOptions {
  store: Store;
  clock: Clock;
  /** Guards the /admin routes: the signed-in operator's role must allow the route's permission. */
  operatorGuard: OperatorGuard;
  /** The identity module's `token` guard. */
  requireUser: preHandlerAsyncHookHandler;
}

export function createSupportModule(options: SupportModuleOptions): SupportModule {
  const service = new SupportService(options.store.db, options.clock);
  return {
    service,
    registerRoutes: (http) =>
      registerSupportRoutes(http, {
        support: service,
        requireUser: options.requireUser,
        operatorGuard: options.operatorGuard,
      }),
  };
}
