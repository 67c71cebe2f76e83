import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from './errors.ts';

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
  }
}

export function readToken(request: FastifyRequest): string | null {
  const header = request.headers.token;
  const token = Array.isArray(header) ? header[0] : header;
  return token && token.length > 0 ? token : null;
}

/** preHandler: code 401 unless the `token` header names a live session. */
export function requireUser(sessions: SessionResolver) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = readToken(request);
    const user = token ? await sessions.resolve(token) : null;
    if (!user) throw unauthorized();
    request.user = user;
  };
}

/** The user of a guarded route; a missing user is a wiring bug, not a user error. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new Error('currentUser() on a route without requireUser');
  return request.user;
}

/** preHandler for operator routes: the configured admin token, compared in constant time. */
export function requireAdmin(adminToken: string) {
  const expected = Buffer.from(adminToken);
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers['admin-token'];
    const given = Buffer.from(typeof header === 'string' ? header : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw forbidden('common.forbidden');
    }
  };
}
