import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import type { Store } from '../../store/connect.ts';
import { registerContentRoutes } from './routes.ts';
import { ContentService, type Deployment } from './service.ts';

export type { AreaCode } from './area-codes.ts';
export { seedContentDemo } from './seed.ts';
export type {
  AboutUsView,
  BannerView,
  Deployment,
  NativeAppLinks,
  NoticeView,
  Page,
  TipsView,
  TipView,
  VersionsView,
} from './service.ts';
export { ContentService } from './service.ts';

/** What createApp holds as `app.content`. */
export interface ContentModule {
  service: ContentService;
  registerRoutes(http: FastifyInstance): Promise<void>;
}

export interface ContentModuleOptions {
  store: Store;
  clock: Clock;
  /** Guards the /admin routes: the signed-in operator's role must allow the route's permission. */
  operatorGuard: OperatorGuard;
  /** The session guard: /user/tipsList serves visitors too, and adds the signed-in user's own tip. */
  requireUser: preHandlerAsyncHookHandler;
  /** Demo mode (AMENDMENTS A5), reported by /home/versions. */
  demo?: boolean;
  /** The release this server runs and its native apps, reported by /home/versions. */
  deployment?: Deployment;
}

export function createContentModule(options: ContentModuleOptions): ContentModule {
  const service = new ContentService(options.store.db, options.clock, options.deployment);
  return {
    service,
    registerRoutes: (http) =>
      registerContentRoutes(http, {
        content: service,
        operatorGuard: options.operatorGuard,
        requireUser: options.requireUser,
        demo: options.demo ?? false,
      }),
  };
}
