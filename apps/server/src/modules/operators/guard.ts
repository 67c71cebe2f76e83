import { type Permission, roleAllows } from '@halyard/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ADMIN_TOKEN_HEADER,
  adminTokenMatches,
  OPERATOR_TOKEN_HEADER,
  OPERATOR_TOTP_HEADER,
  type OperatorGuard,
  readHeader,
} from '../../http/auth.ts';
import { forbidden } from '../../http/errors.ts';
import { type OperatorsService, type SignedIn, sessionExpired } from './service.ts';

/** The bootstrap token's identity: every permission, no account, no TOTP. */
const BOOTSTRAP = { id: 0, email: 'bootstrap', role: 'bootstrap' } as const;

/** What a guarded route asks: the permission, and whether a fresh TOTP code. */
export interface GuardRule {
  permission: Permission;
  freshTotp: boolean;
}

/** The guard factory, and what each guard it made asks (read by the onRoute hook and the role tests). */
export interface OperatorGuards {
  guard: OperatorGuard;
  ruleOf(handler: unknown): GuardRule | undefined;
}

/**
 * The guard of every /admin route. An `operator-token` session must be signed
 * in with its second factor and its role must allow the permission; money
 * routes also take a fresh TOTP code. The configured admin token stands for an
 * operator with every permission only until the first administrator exists.
 */
export function createOperatorGuards(service: OperatorsService, adminToken: string): OperatorGuards {
  const rules = new WeakMap<object, GuardRule>();
  const guard: OperatorGuard = (permission, options = {}) => {
    const check = async (request: FastifyRequest): Promise<void> => {
      const token = readHeader(request, OPERATOR_TOKEN_HEADER);
      if (token) {
        const signedIn = await service.authenticate(token);
        if (!signedIn?.secondFactor) throw sessionExpired();
        if (!roleAllows(signedIn.operator.role, permission)) throw forbidden('operators.notAllowed');
        if (options.freshTotp) {
          await service.checkFreshTotp(
            Number(signedIn.operator.id),
            readHeader(request, OPERATOR_TOTP_HEADER),
          );
        }
        request.operator = identityOf(signedIn);
        return;
      }
      if (readHeader(request, ADMIN_TOKEN_HEADER) === null || !adminTokenMatches(request, adminToken)) {
        throw forbidden('common.forbidden');
      }
      if (await service.administratorExists()) throw forbidden('operators.bootstrapClosed');
      request.operator = { ...BOOTSTRAP };
    };
    rules.set(check, { permission, freshTotp: options.freshTotp ?? false });
    return check;
  };
  return { guard, ruleOf: (handler) => (typeof handler === 'function' ? rules.get(handler) : undefined) };
}

/**
 * Moves each route's guard from preHandler (where the modules declare it) to
 * onRequest: an operator is refused before the body is parsed and validated,
 * so a role without the permission gets the same answer for every body and
 * learns nothing of the route's schema. Records each route's rule.
 */
export function guardBeforeParsing(
  http: FastifyInstance,
  guards: OperatorGuards,
  routeRules: Map<string, GuardRule>,
): void {
  http.addHook('onRoute', (route) => {
    const preHandlers = [route.preHandler ?? []].flat();
    const guard = preHandlers.find((handler) => guards.ruleOf(handler) !== undefined);
    if (!guard) return;
    route.preHandler = preHandlers.filter((handler) => handler !== guard);
    route.onRequest = [guard, ...[route.onRequest ?? []].flat()];
    const rule = guards.ruleOf(guard);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (rule) for (const method of methods) routeRules.set(`${method} ${route.url}`, rule);
  });
}

/**
 * preHandler of the operator's own auth routes (me, logout, TOTP confirmation):
 * any live session, also one that has yet to enrol TOTP.
 */
export function requireOperatorSession(service: OperatorsService) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = readHeader(request, OPERATOR_TOKEN_HEADER);
    const signedIn = token ? await service.authenticate(token) : null;
    if (!signedIn) throw sessionExpired();
    request.operator = identityOf(signedIn);
    signedInOf.set(request, signedIn);
  };
}

// The session behind a request of requireOperatorSession, for its handler.
const signedInOf = new WeakMap<FastifyRequest, SignedIn>();

export function currentSession(request: FastifyRequest): SignedIn {
  const signedIn = signedInOf.get(request);
  if (!signedIn) throw new Error('currentSession() on a route without requireOperatorSession');
  return signedIn;
}

function identityOf(signedIn: SignedIn) {
  return { id: Number(signedIn.operator.id), email: signedIn.operator.email, role: signedIn.operator.role };
}
