import { timingSafeEqual } from 'node:crypto';
import { type OperatorRole, type Permission, roleAllows } from '@halyard/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from './errors.ts';

/** The signed-in user behind a request's `token` header. */
export interface AuthUser {
  id: number;
}

/** Implemented by the identity module: an opaque token to its live session's user. */
export interface SessionResolver {
  resolve(token: string): Promise<AuthUser | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser`; only read it on routes guarded by it. */
    user: AuthUser | null;
    /** Set by an `OperatorGuard`; only read it on routes guarded by one. */
    operator: OperatorIdentity | null;
  }
  interface FastifyContextConfig {
    /**
     * The route reads no table the sequenced core's projector writes (a spot
     * order checks the money state, which is ahead of SQL): `requireUser`
     * does not wait for SQL to catch up with the user's commands.
     */
    readsOnlyState?: boolean;
    /**
     * The route serves visitors too, and the signed-in user's own data when
     * the `token` header names a live session (a listing with the user's
     * balance, say): `requireUser` lets a request without one through as a
     * visitor (`request.user` null, read it with `signedInUserId`) instead of
     * answering 401, and a signed-in user's waits as on any guarded route.
     */
    signInOptional?: boolean;
  }
}

/**
 * The operator behind an /admin request: a signed-in operator account, or
 * `bootstrap` for the configured admin token while no administrator exists
 * (id 0; it holds every permission and never a TOTP secret).
 */
export interface OperatorIdentity {
  id: number;
  email: string;
  role: OperatorRole | 'bootstrap';
}

/** An operator session travels in this header (the console's sign-in answer). */
export const OPERATOR_TOKEN_HEADER = 'operator-token';
/** A fresh TOTP code for a money action; each code is accepted once per operator. */
export const OPERATOR_TOTP_HEADER = 'operator-totp';
/** The configured ADMIN_TOKEN: only bootstraps the first administrator. */
export const ADMIN_TOKEN_HEADER = 'admin-token';

/** OpenAPI security of /admin routes: an operator session, or the admin token while no administrator exists. */
export const OPERATOR_SECURITY: Array<Record<string, string[]>> = [{ operator: [] }, { admin: [] }];

/**
 * preHandler factory for /admin routes (the operators module builds it):
 * refuses unless the operator's role allows `permission`; `freshTotp` also
 * asks for an unused TOTP code in the `operator-totp` header.
 */
export type OperatorGuard = (
  permission: Permission,
  options?: { freshTotp?: boolean },
) => (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export function readToken(request: FastifyRequest): string | null {
  return readHeader(request, 'token');
}

/** A header's first value, or null when it is missing or empty. */
export function readHeader(request: FastifyRequest, name: string): string | null {
  const header = request.headers[name];
  const value = Array.isArray(header) ? header[0] : header;
  return value && value.length > 0 ? value : null;
}

/**
 * preHandler: code 401 unless the `token` header names a live session (a
 * route that serves visitors too lets one without through: `signInOptional`).
 * Given `caughtUp` (on the sequenced core), it then waits until SQL holds the
 * commands already answered to that user, so the route, whatever it reads,
 * sees the user's own writes (read-your-writes); a route that reads only the
 * money state says so (`readsOnlyState`) and does not wait.
 */
export function requireUser(sessions: SessionResolver, caughtUp?: (userId: number) => Promise<void>) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const { config } = request.routeOptions;
    const token = readToken(request);
    const user = token ? await sessions.resolve(token) : null;
    if (!user) {
      // An expired token on such a route reads as a visitor.
      if (config.signInOptional === true) return;
      throw unauthorized();
    }
    request.user = user;
    if (caughtUp && config.readsOnlyState !== true) await caughtUp(user.id);
  };
}

/** The signed-in user's id on a route that serves visitors too (`signInOptional`), or null for a visitor. */
export function signedInUserId(request: FastifyRequest): number | null {
  return request.user?.id ?? null;
}

/** The user of a guarded route; a missing user is a wiring bug, not a user error. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new Error('currentUser() on a route without requireUser');
  return request.user;
}

/** The operator of a guarded route; a missing operator is a wiring bug, not a user error. */
export function currentOperator(request: FastifyRequest): OperatorIdentity {
  if (!request.operator) throw new Error('currentOperator() on a route without an OperatorGuard');
  return request.operator;
}

/** Whether an operator holds `permission`: the bootstrap token holds every one, an account what its role allows. */
export function operatorHolds(operator: OperatorIdentity, permission: Permission): boolean {
  return operator.role === 'bootstrap' || roleAllows(operator.role, permission);
}

/** Whether the operator of a guarded route also holds `permission`. */
export function operatorMay(request: FastifyRequest, permission: Permission): boolean {
  return operatorHolds(currentOperator(request), permission);
}

/**
 * Who an operator's action is recorded as: the signed-in operator's e-mail,
 * and the account id (null for the bootstrap token, which has no account).
 */
export interface AuditActor {
  name: string;
  id: number | null;
}

/**
 * The acting operator of a guarded route as audit entries name it: always the
 * session's operator, never a name the request itself gives.
 */
export function auditActor(request: FastifyRequest): AuditActor {
  const operator = currentOperator(request);
  return { name: operator.email, id: operator.role === 'bootstrap' ? null : operator.id };
}

/** True when the `admin-token` header is the configured admin token, compared in constant time. */
export function adminTokenMatches(request: FastifyRequest, adminToken: string): boolean {
  const expected = Buffer.from(adminToken);
  const given = Buffer.from(readHeader(request, ADMIN_TOKEN_HEADER) ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
