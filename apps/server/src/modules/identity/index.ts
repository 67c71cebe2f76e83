import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { requireUser } from '../../http/auth.ts';
import type { Store } from '../../store/connect.ts';
import { createSmtpMailer, type Messengers } from './messenger.ts';
import { registerIdentityRoutes } from './routes.ts';
import { IdentityService } from './service.ts';

export type { Mailer, Messengers, SmsSender } from './messenger.ts';
export type { AuditEntry, FreezeView, KycStatus, LoginResult, UserInfo, UserSummary } from './model.ts';
export { IdentityService } from './service.ts';

/** What createApp exposes as `app.identity`: the service and the ready `token` guard. */
export interface IdentityModule {
  service: IdentityService;
  /** preHandler for routes marked "login": 401 without a live session; then `currentUser(request)`. */
  requireUser: preHandlerAsyncHookHandler;
  registerRoutes(http: FastifyInstance): void;
}

export interface IdentityModuleOptions {
  config: Config;
  store: Store;
  clock: Clock;
  /** Overrides the channels chosen from config (SMTP when `smtpUrl` is set, else the dev outbox). */
  messengers?: Messengers;
}

export function createIdentityModule(options: IdentityModuleOptions): IdentityModule {
  const { config } = options;
  const messengers = options.messengers ?? {
    mailer: config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : null,
    sms: null,
  };
  const service = new IdentityService({ ...options, messengers });
  const guard = requireUser(service);
  return {
    service,
    requireUser: guard,
    registerRoutes: (http) => registerIdentityRoutes(http, { service, requireUser: guard, config }),
  };
}
