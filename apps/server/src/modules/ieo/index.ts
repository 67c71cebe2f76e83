import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { serialTimer } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import { seedIeoDemo } from './demo.ts';
import { registerIeoRoutes } from './routes.ts';
import { IeoService, type IeoServiceOptions } from './service.ts';

export { IeoService };

/** How often the scheduler looks at the clock: project windows and tranche releases. */
const TICK_MS = 1_000;

/** What createApp holds as `app.ieo`. */
export interface IeoModule {
  service: IeoService;
  registerRoutes(http: FastifyInstance): void;
  seedDemo(): Promise<void>;
  /** Moves states and releases due tranches on the clock every second (main.ts; tests call `service.tick()`). */
  start(): void;
  close(): Promise<void>;
}

export interface IeoModuleOptions extends IeoServiceOptions {
  /** The session guard: the user routes', and the pay coins' (the signed-in user's balances), which serve visitors too. */
  requireUser: preHandlerAsyncHookHandler;
  /** Guards the /admin routes: the signed-in operator's role must allow the route's permission. */
  operatorGuard: OperatorGuard;
  /** Demo mode: the demo sales start again when their windows are over. */
  demo: boolean;
  onError: (error: unknown) => void;
}

/** Token launches. On creation it catches up with the clock: what was due while the server was down happens now. */
export async function createIeoModule(options: IeoModuleOptions): Promise<IeoModule> {
  const service = new IeoService(options);
  await service.tick();
  const scheduler = serialTimer(
    async () => {
      await service.tick();
      if (options.demo) await seedIeoDemo(service, options);
    },
    TICK_MS,
    options.onError,
  );
  return {
    service,
    registerRoutes: (http) => registerIeoRoutes(http, { ieo: service, ...options }),
    seedDemo: () => seedIeoDemo(service, options),
    start: () => scheduler.start(),
    close: () => scheduler.stop(),
  };
}
