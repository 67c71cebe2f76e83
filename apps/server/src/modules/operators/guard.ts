import { roleAllows } from '@halyard/protocol';
import type { FastifyRequest } from 'fastify';
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

/**
 * The guard of every /admin route. An `operator-token` session must be signed
 * in with its second factor and its role must allow the permission; money
 * routes also take a fresh TOTP code. The configured admin token stands for an
 * operator with every permission only until the first administrator exists.
 */
export function createOperatorGuard(service: OperatorsService, adminToken: string): OperatorGuard {
  return (permission, options = {}) =>
    async (request) => {
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
