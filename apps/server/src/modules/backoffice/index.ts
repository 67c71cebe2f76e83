import type { ClusterStatus } from '@halyard/protocol';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { Executor } from '../../store/database.ts';
import type { CycleService } from '../cycle/index.ts';
import type { FiatService } from '../fiat/index.ts';
import type { FuturesService } from '../futures/index.ts';
import type { IdentityService } from '../identity/index.ts';
import type { SpotService } from '../spot/index.ts';
import type { WalletOperatorReads } from '../wallet/index.ts';
import { BooksCheckCache, type CoreChecks } from './books.ts';
import { DashboardService } from './dashboard.ts';
import { registerBackofficeRoutes } from './routes.ts';
import { UserDirectory } from './users.ts';

export { BooksCheckCache, solvencyOf } from './books.ts';
export { DashboardService } from './dashboard.ts';
export { maskAnyPhone, maskEmail } from './masking.ts';
export { UserDirectory } from './users.ts';

/** What createApp holds as `app.backoffice`. */
export interface BackofficeModule {
  dashboard: DashboardService;
  books: BooksCheckCache;
  users: UserDirectory;
  registerRoutes(http: FastifyInstance): void;
}

export interface BackofficeModuleOptions {
  db: Executor;
  clock: Clock;
  ledger: Ledger;
  guard: OperatorGuard;
  identity: IdentityService;
  wallet: WalletOperatorReads;
  fiat: FiatService;
  spot: SpotService;
  futures: FuturesService;
  cycle: CycleService;
  /** On the sequenced core: its status and audit for the dashboard. */
  core?: CoreChecks;
  /** On a gateway of a cluster: the cluster panel's reading (GET /admin/cluster); without it, one process. */
  clusterOverview?: () => Promise<ClusterStatus>;
}

/**
 * The back office's read side (issue 18): the dashboard, the users screen and
 * the deposits list. It owns no table: every figure is read from the module
 * that owns it, through that module's service.
 */
export function createBackofficeModule(options: BackofficeModuleOptions): BackofficeModule {
  const books = new BooksCheckCache(options);
  const dashboard = new DashboardService({ ...options, books });
  const users = new UserDirectory(options);
  return {
    dashboard,
    books,
    users,
    registerRoutes: (http) =>
      registerBackofficeRoutes(http, {
        guard: options.guard,
        dashboard,
        books,
        users,
        identity: options.identity,
        wallet: options.wallet,
        clusterOverview: options.clusterOverview ?? null,
      }),
  };
}
