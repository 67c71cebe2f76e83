/**
 * Four-eyes approvals (issue 18 item 3). The public face other modules use:
 *
 * - `approvals.service.register(kind, handler)`: a module that owns a
 *   sensitive action registers it once at start-up. A handler names the
 *   permission to request and to approve, `validate(payload)` (answers the
 *   payload normalised or throws a localised AppError; it runs at request
 *   and again at approval), `describe(payload)` (a summary line and the
 *   subject, e.g. `user:7`), and `execute(payload, ctx)`, run at approval
 *   inside the ledger transaction `ctx.trx` that also marks the request
 *   executed (`ctx.afterCommit(work)` for what must wait for the commit).
 * - `service.request(kind, payload, operator, reason)` stores a pending request.
 * - `service.approve(id, operator)` refuses the requester
 *   (`approvals.selfApproval`) and anything not pending
 *   (`approvals.notPending`), else executes; a refused execution is rolled
 *   back and recorded as `failed` with its error, answered as `failure`.
 * - `service.reject(id, operator, reason)`: nothing executes.
 * - `service.resumeApproved()`, at start once every kind is registered: on
 *   the core, a request approved whose command never became durable is
 *   submitted again (idempotent by the request's id).
 *
 * Routes: GET /admin/approvals, GET /admin/approvals/:id,
 * POST /admin/approvals/:id/approve, POST /admin/approvals/:id/reject,
 * POST /admin/adjustments. Kinds registered here: `balance_adjustment`,
 * `withdrawal_release` (the wallet module is given `withdrawalFourEyes` to
 * ask for it); elsewhere: `market_listing` (modules/markets),
 * `operator_role_change` (modules/operators).
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Db } from '../../store/database.ts';
import { registerAdjustmentRoutes } from './adjustment-routes.ts';
import { BALANCE_ADJUSTMENT, balanceAdjustmentHandler } from './adjustments.ts';
import { registerApprovalRoutes } from './routes.ts';
import { ApprovalService } from './service.ts';
import { WITHDRAWAL_RELEASE, type WithdrawalReleaser, withdrawalReleaseHandler } from './withdrawals.ts';

export { BALANCE_ADJUSTMENT } from './adjustments.ts';
export {
  type ApprovalHandler,
  type ApprovalOutcome,
  ApprovalService,
  type ExecutionContext,
} from './service.ts';
export { WITHDRAWAL_RELEASE, withdrawalFourEyes } from './withdrawals.ts';

export interface ApprovalsModule {
  service: ApprovalService;
  registerRoutes(http: FastifyInstance): void;
}

export interface ApprovalsModuleOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  operatorGuard: OperatorGuard;
  /** Throws the identity module's localised not-found when there is no such user. */
  requireUser: (userId: number) => Promise<void>;
  /** Every coin the exchange knows: an adjustment names one of them. */
  knownCoins: () => Promise<string[]>;
  /** The wallet module's release of an approved withdrawal. */
  wallet: WithdrawalReleaser;
  /**
   * The sequenced core (issue 19's cut-over): an approved balance adjustment
   * submits `adjust`, a withdrawal's release the state's approve; the other
   * kinds (they move no money) execute in the decision's transaction as on SQL.
   */
  core?: MoneyCoreHandle;
  onError: (error: unknown) => void;
}

export function createApprovalsModule(options: ApprovalsModuleOptions): ApprovalsModule {
  const service = new ApprovalService(options);
  service.register(BALANCE_ADJUSTMENT, balanceAdjustmentHandler(options));
  service.register(WITHDRAWAL_RELEASE, withdrawalReleaseHandler(options.wallet, options.core !== undefined));
  return {
    service,
    registerRoutes(http) {
      registerApprovalRoutes(http, { approvals: service, operatorGuard: options.operatorGuard });
      registerAdjustmentRoutes(http, { approvals: service, operatorGuard: options.operatorGuard });
    },
  };
}
