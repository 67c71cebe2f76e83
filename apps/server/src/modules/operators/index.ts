import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { PasswordHashCost } from '../../config.ts';
import type { OperatorGuard } from '../../http/auth.ts';
import type { Executor } from '../../store/database.ts';
import type { ApprovalService } from '../approvals/index.ts';
import { AuditTrail, registerAuditTrail } from './audit.ts';
import { createOperatorGuards, type GuardRule, guardBeforeParsing } from './guard.ts';
import { registerRoleChanges } from './role-change.ts';
import { registerOperatorRoutes } from './routes.ts';
import { OperatorsService } from './service.ts';

export { type AuditedView, auditView } from './audit.ts';
export type { GuardRule } from './guard.ts';
export { OperatorsService };

/** What createApp holds as `app.operators`. */
export interface OperatorsModule {
  service: OperatorsService;
  audit: AuditTrail;
  /** The preHandler factory every module's /admin routes take (`operatorGuard('kyc.review')`). */
  guard: OperatorGuard;
  /** `METHOD /url` of every guarded route and what it asks, once the routes are registered. */
  routeRules: ReadonlyMap<string, GuardRule>;
  /** The audit hook and the /admin/auth, /admin/operators and /admin/audit routes; before any other /admin route. */
  registerRoutes(http: FastifyInstance): void;
  /** Role changes through four-eyes: the kind and POST /admin/operators/:id/role, once the approvals module exists. */
  registerRoleChanges(http: FastifyInstance, approvals: ApprovalService): void;
}

export interface OperatorsModuleOptions {
  db: Executor;
  clock: Clock;
  passwordHashCost: PasswordHashCost;
  /** The configured ADMIN_TOKEN: it bootstraps the first administrator and is refused afterwards. */
  adminToken: string;
  onError: (error: unknown) => void;
}

/** Operator accounts, roles, two-factor sign-in and the audit trail of the back office (issue 18). */
export function createOperatorsModule(options: OperatorsModuleOptions): OperatorsModule {
  const service = new OperatorsService(options);
  const audit = new AuditTrail(options.db, options.clock);
  const guards = createOperatorGuards(service, options.adminToken);
  const guard = guards.guard;
  const routeRules = new Map<string, GuardRule>();
  return {
    service,
    audit,
    guard,
    routeRules,
    registerRoutes(http) {
      guardBeforeParsing(http, guards, routeRules);
      registerAuditTrail(http, audit, options.onError);
      registerOperatorRoutes(http, { service, audit, guard, adminToken: options.adminToken });
    },
    registerRoleChanges(http, approvals) {
      registerRoleChanges(http, { operators: service, approvals, guard });
    },
  };
}
