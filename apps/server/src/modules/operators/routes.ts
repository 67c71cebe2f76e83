import {
  OPERATOR_ROLES,
  type OperatorAuditQuery,
  type OperatorBootstrapStatus,
  type OperatorCreateRequest,
  type OperatorLoginRequest,
} from '@halyard/protocol';
import type { FastifyInstance } from 'fastify';
import { adminTokenMatches, currentOperator, type OperatorGuard } from '../../http/auth.ts';
import { epochMsField, idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { forbidden } from '../../http/errors.ts';
import type { AuditTrail } from './audit.ts';
import { currentSession, requireOperatorSession } from './guard.ts';
import { type OperatorsService, sessionExpired } from './service.ts';

const TAGS = ['operator'];
const OPERATOR = [{ operator: [] }];
const ADMIN = [{ admin: [] }];
// Sign-in is the door an attacker knocks on: per IP, on top of the account lock.
const SIGN_IN_RATE_LIMIT = { rateLimit: { max: 20, timeWindow: '1 minute' } };

const email = { type: 'string', minLength: 3, maxLength: 254 } as const;
const newPassword = { type: 'string', minLength: 12, maxLength: 128 } as const;
const totpCode = { type: 'string', pattern: '^\\s*\\d{6}\\s*$' } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: idField } } as const;

export interface OperatorRoutesOptions {
  service: OperatorsService;
  audit: AuditTrail;
  guard: OperatorGuard;
  adminToken: string;
}

export function registerOperatorRoutes(http: FastifyInstance, options: OperatorRoutesOptions): void {
  registerAuthRoutes(http, options);
  registerAccountRoutes(http, options);
  registerAuditRoutes(http, options);
}

function registerAuthRoutes(http: FastifyInstance, { service, adminToken }: OperatorRoutesOptions): void {
  const session = { preHandler: requireOperatorSession(service) };

  http.get(
    '/admin/auth/bootstrap',
    {
      schema: {
        summary:
          'Whether the first administrator may still be created with the admin token (the console offers it only then)',
        tags: TAGS,
      },
    },
    async () => {
      const status: OperatorBootstrapStatus = { open: !(await service.administratorExists()) };
      return ok(status);
    },
  );

  http.post<{ Body: { email: string; password: string } }>(
    '/admin/auth/bootstrap',
    {
      config: SIGN_IN_RATE_LIMIT,
      schema: {
        summary:
          'The first administrator, named by the holder of the configured admin-token; refused once an administrator exists. Answers a session that enrols TOTP',
        tags: TAGS,
        security: ADMIN,
        body: {
          type: 'object',
          required: ['email', 'password'],
          additionalProperties: false,
          properties: { email, password: newPassword },
        },
      },
    },
    async (request) => {
      if (!adminTokenMatches(request, adminToken)) throw forbidden('common.forbidden');
      request.operator = { id: 0, email: 'bootstrap', role: 'bootstrap' };
      return ok(await service.bootstrap(request.body.email, request.body.password, request.ip));
    },
  );

  http.post<{ Body: OperatorLoginRequest }>(
    '/admin/auth/login',
    {
      config: SIGN_IN_RATE_LIMIT,
      schema: {
        summary:
          'Sign in with e-mail, password and a TOTP code (or a recovery code). Before TOTP is enrolled: step enrolTotp with the secret and its otpauth URI',
        tags: TAGS,
        body: {
          type: 'object',
          required: ['email', 'password'],
          additionalProperties: false,
          properties: {
            email,
            password: { type: 'string', minLength: 1, maxLength: 128 },
            totp: { type: 'string', maxLength: 16 },
            recoveryCode: { type: 'string', maxLength: 32 },
          },
        },
      },
    },
    async (request) => {
      const answer = await service.login(request.body, request.ip);
      // The audit entry of this sign-in names who signed in.
      request.operator = { id: answer.operator.id, email: answer.operator.email, role: answer.operator.role };
      return ok(answer);
    },
  );

  http.post<{ Body: { code: string } }>(
    '/admin/auth/totp/confirm',
    {
      ...session,
      config: SIGN_IN_RATE_LIMIT,
      schema: {
        summary:
          'Confirm the authenticator app with its current code: TOTP is on, the session is signed in, and ten one-time recovery codes are answered once',
        tags: TAGS,
        security: OPERATOR,
        body: {
          type: 'object',
          required: ['code'],
          additionalProperties: false,
          properties: { code: totpCode },
        },
      },
    },
    async (request) => ok(await service.confirmTotp(currentSession(request), request.body.code)),
  );

  http.post(
    '/admin/auth/logout',
    { ...session, schema: { summary: 'End this operator session', tags: TAGS, security: OPERATOR } },
    async (request) => {
      await service.logout(currentSession(request));
      return ok(null);
    },
  );

  http.post<{ Body: { current: string; password: string } }>(
    '/admin/auth/password',
    {
      ...session,
      config: SIGN_IN_RATE_LIMIT,
      schema: {
        summary:
          "Change one's own password (the current one, then the new one of at least 12 characters); one's other sessions end",
        tags: TAGS,
        security: OPERATOR,
        body: {
          type: 'object',
          required: ['current', 'password'],
          additionalProperties: false,
          properties: { current: { type: 'string', minLength: 1, maxLength: 128 }, password: newPassword },
        },
      },
    },
    async (request) => {
      const signedIn = currentSession(request);
      if (!signedIn.secondFactor) throw sessionExpired();
      await service.changePassword(signedIn, request.body.current, request.body.password);
      return ok(null, 'operators.passwordChanged');
    },
  );

  http.get(
    '/admin/auth/me',
    {
      ...session,
      schema: { summary: 'The signed-in operator, role and permissions', tags: TAGS, security: OPERATOR },
    },
    async (request) => ok(await service.me(currentOperator(request).id)),
  );
}

function registerAccountRoutes(http: FastifyInstance, { service, guard }: OperatorRoutesOptions): void {
  const manage = { preHandler: guard('operators.manage') };

  http.get(
    '/admin/operators',
    { ...manage, schema: { summary: 'Every operator account', tags: TAGS, security: OPERATOR } },
    async () => ok(await service.list()),
  );

  http.post<{ Body: OperatorCreateRequest }>(
    '/admin/operators',
    {
      ...manage,
      schema: {
        summary:
          'Create an operator with a role and a first password; they enrol TOTP at their first sign-in',
        tags: TAGS,
        security: OPERATOR,
        body: {
          type: 'object',
          required: ['email', 'password', 'role'],
          additionalProperties: false,
          properties: { email, password: newPassword, role: { type: 'string', enum: [...OPERATOR_ROLES] } },
        },
      },
    },
    async (request) =>
      ok(await service.create(request.body, accountIdOf(currentOperator(request).id)), 'operators.created'),
  );

  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    http.post<{ Params: { id: number } }>(
      `/admin/operators/:id/${action}`,
      {
        ...manage,
        schema: {
          summary:
            action === 'disable'
              ? 'Disable an operator: their sessions end at once (not yourself)'
              : 'Enable a disabled operator again',
          tags: TAGS,
          security: OPERATOR,
          params: idParams,
        },
      },
      async (request) =>
        ok(
          await service.setStatus(request.params.id, status, currentOperator(request).id),
          'operators.saved',
        ),
    );
  }
}

/** The bootstrap token acts as no account (id 0): rows it creates name no creator. */
function accountIdOf(operatorId: number): number | null {
  return operatorId === 0 ? null : operatorId;
}

const auditQuerystring = {
  type: 'object',
  additionalProperties: false,
  properties: {
    operatorId: idField,
    action: { type: 'string', maxLength: 200 },
    subject: { type: 'string', maxLength: 200 },
    userId: idField,
    from: epochMsField('From this instant (ms since the epoch), included'),
    to: epochMsField('Until this instant, excluded'),
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
  },
} as const;

function registerAuditRoutes(http: FastifyInstance, { audit, guard }: OperatorRoutesOptions): void {
  const read = { preHandler: guard('audit.read') };

  http.get<{ Querystring: OperatorAuditQuery }>(
    '/admin/audit',
    {
      ...read,
      schema: {
        summary:
          'The append-only audit trail, newest first: operator writes and views of personal data; search by operator, action, subject, user and time',
        tags: TAGS,
        security: OPERATOR,
        querystring: auditQuerystring,
      },
    },
    async (request) => ok(await audit.search(request.query)),
  );

  http.get<{ Querystring: OperatorAuditQuery }>(
    '/admin/audit.csv',
    {
      ...read,
      schema: {
        summary: 'The audit entries matching the same search as CSV (at most 10,000 rows)',
        tags: TAGS,
        security: OPERATOR,
        querystring: auditQuerystring,
      },
    },
    async (request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="halyard-audit.csv"')
        .header('cache-control', 'private, no-store')
        .send(await audit.csv(request.query)),
  );
}
