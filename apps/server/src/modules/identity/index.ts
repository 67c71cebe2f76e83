import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { type Clock, serialTimer } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { type OperatorGuard, requireUser } from '../../http/auth.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Store } from '../../store/connect.ts';
import type { ForgetNotices } from './checks-cache.ts';
import { createSmtpMailer, type Messengers } from './messenger.ts';
import { registerIdentityRoutes } from './routes.ts';
import { IdentityService } from './service.ts';
import { checkUploadDir } from './upload-dir.ts';

export type { ForgetNotices, Forgotten } from './checks-cache.ts';
export type { Mailer, Messengers, SmsSender } from './messenger.ts';
export type { AuditEntry, FreezeView, KycStatus, LoginResult, UserInfo, UserSummary } from './model.ts';
export {
  type ClientInfo,
  IdentityService,
  type StoredImage,
  type UserSummaryRow,
  uploadNameOf,
} from './service.ts';
export type { UserSearch } from './store.ts';

/** What createApp exposes as `app.identity`: the service and the ready `token` guard. */
export interface IdentityModule {
  service: IdentityService;
  /** preHandler for routes marked "login": 401 without a live session; then `currentUser(request)`. */
  requireUser: preHandlerAsyncHookHandler;
  registerRoutes(http: FastifyInstance): void;
  /** Demo mode: starts the demo reviewer's timer (see IdentityService.approveDueDemoKyc). */
  start(): void;
  /** Throws when uploads cannot be kept in the configured directory (upload-dir.ts); a server's start calls it. */
  checkUploads(): Promise<void>;
  close(): Promise<void>;
}

/** How often the demo reviewer looks for submissions that have waited long enough. */
const DEMO_REVIEW_EVERY_MS = 1_000;

export interface IdentityModuleOptions {
  config: Config;
  store: Store;
  clock: Clock;
  /** Overrides the channels chosen from config (SMTP when `smtpUrl` is set; else demo codes, or none). */
  messengers?: Messengers;
  /** Where the demo reviewer's failures are reported. */
  onError?: (error: unknown) => void;
  /** Guards the /admin routes: the signed-in operator's role must allow the route's permission. */
  operatorGuard: OperatorGuard;
  /**
   * The sequenced core, when the money runs on it: `requireUser` waits until SQL holds
   * the commands answered to the user before SQL did (MoneyCoreHandle.caughtUp).
   */
  core?: Pick<MoneyCoreHandle, 'caughtUp'>;
  /**
   * Cluster mode: the other gateways' forgets of sessions, emails and
   * freezes, and where this one's go (ChecksCache), so a logout or a freeze
   * through one gateway takes effect on every one.
   */
  forgetNotices?: ForgetNotices;
}

export function createIdentityModule(options: IdentityModuleOptions): IdentityModule {
  const { config } = options;
  const messengers = options.messengers ?? {
    mailer: config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : null,
    sms: null,
  };
  const service = new IdentityService({ ...options, messengers });
  const { core } = options;
  const guard = requireUser(service, core ? (userId) => core.caughtUp(userId) : undefined);
  const demoReviewer = serialTimer(
    async () => {
      await service.approveDueDemoKyc();
    },
    DEMO_REVIEW_EVERY_MS,
    (error: unknown) => options.onError?.(error),
  );
  return {
    service,
    requireUser: guard,
    registerRoutes: (http) =>
      registerIdentityRoutes(http, {
        service,
        requireUser: guard,
        config,
        operatorGuard: options.operatorGuard,
      }),
    start() {
      if (config.demo) demoReviewer.start();
    },
    checkUploads: () => checkUploadDir(config.uploadDir),
    async close() {
      await demoReviewer.stop();
      service.close();
    },
  };
}
