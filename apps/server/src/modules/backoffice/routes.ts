import type { ClusterOverview, ClusterStatus } from '@halyard/protocol';
import type { FastifyInstance } from 'fastify';
import { OPERATOR_SECURITY, type OperatorGuard, operatorMay } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import type { IdentityService } from '../identity/index.ts';
import { auditView } from '../operators/index.ts';
import type { DepositState, WalletOperatorReads } from '../wallet/index.ts';
import type { BooksCheckCache } from './books.ts';
import type { DashboardService } from './dashboard.ts';
import type { UserDirectory } from './users.ts';

export interface BackofficeRoutesOptions {
  guard: OperatorGuard;
  dashboard: DashboardService;
  books: BooksCheckCache;
  users: UserDirectory;
  identity: IdentityService;
  wallet: WalletOperatorReads;
  /** A cluster's reading, or null in one process. */
  clusterOverview: (() => Promise<ClusterStatus>) | null;
}

const base = { tags: ['operator'], security: OPERATOR_SECURITY };
/** A page of a list: pages past 10,000 are never useful and would only make the database skip rows. */
const page = { type: 'integer', minimum: 1, maximum: 10_000, default: 1 } as const;
const limit = { type: 'integer', minimum: 1, maximum: 100, default: 20 } as const;
const userParams = { type: 'object', required: ['userId'], properties: { userId: idField } } as const;

export function registerBackofficeRoutes(http: FastifyInstance, options: BackofficeRoutesOptions): void {
  registerDashboardRoutes(http, options);
  registerUserRoutes(http, options);
  registerDepositRoutes(http, options);
}

function registerDashboardRoutes(
  http: FastifyInstance,
  { guard, dashboard, books, clusterOverview }: BackofficeRoutesOptions,
) {
  http.get(
    '/admin/dashboard',
    {
      preHandler: guard('dashboard.read'),
      schema: {
        ...base,
        summary:
          "Users, today's deposits and withdrawals, the operators' queues, the last books check, chain watchers and engine queues",
      },
    },
    async () => ok(await dashboard.dashboard()),
  );

  http.post(
    '/admin/dashboard/audit',
    {
      preHandler: guard('dashboard.read'),
      schema: {
        ...base,
        summary:
          'Runs the books check again: the ledger audit, and the hot wallet against what users are owed',
      },
    },
    async () => ok(await books.run()),
  );

  http.get(
    '/admin/cluster',
    {
      preHandler: guard('dashboard.read'),
      schema: {
        ...base,
        summary:
          "The cluster: the lease's holder and since when, each node's and gateway's sequence and lag, SQL's watermark; or that one process runs",
      },
    },
    async () => ok<ClusterOverview>(clusterOverview ? await clusterOverview() : { mode: 'single' }),
  );
}

function registerUserRoutes(http: FastifyInstance, { guard, users, identity }: BackofficeRoutesOptions) {
  http.get<{ Querystring: { q: string; page: number; limit: number } }>(
    '/admin/users',
    {
      preHandler: guard('users.read'),
      schema: {
        ...base,
        summary:
          'Users whose id, e-mail, phone, invitation code, wallet or deposit address matches q; contact fields masked without pii.read',
        querystring: {
          type: 'object',
          properties: { q: { type: 'string', maxLength: 254, default: '' }, page, limit },
        },
      },
    },
    async (request) => {
      const { q, page: pageNumber, limit: pageSize } = request.query;
      const found = await users.search(q, pageNumber, pageSize, operatorMay(request, 'pii.read'));
      if (found.unmasked && found.items.length > 0) {
        await auditView(request, {
          action: 'users.search.view',
          details: { q, userIds: found.items.map((item) => item.id) },
        });
      }
      return ok(found);
    },
  );

  http.get<{ Params: { userId: number } }>(
    '/admin/users/:userId',
    {
      preHandler: guard('users.read'),
      schema: {
        ...base,
        summary:
          "A user's profile, identity verification, balances, orders, positions, login history and sessions; personal data only with pii.read, and audited",
        params: userParams,
      },
    },
    async (request) => {
      const { userId } = request.params;
      const detail = await users.detail(userId, operatorMay(request, 'pii.read'));
      if (detail.unmasked) {
        await auditView(request, {
          action: 'user.profile.view',
          subject: `user:${userId}`,
          userId,
          details: { kycSubmission: detail.kycSubmission?.id ?? null },
        });
      }
      return ok(detail);
    },
  );

  http.post<{ Params: { userId: number; sessionId: number } }>(
    '/admin/users/:userId/sessions/:sessionId/revoke',
    {
      preHandler: guard('users.sessions'),
      schema: {
        ...base,
        summary: "Ends one of the user's sessions: its next request answers 401",
        params: {
          type: 'object',
          required: ['userId', 'sessionId'],
          properties: { userId: idField, sessionId: idField },
        },
      },
    },
    async (request) => {
      await identity.revokeSession(request.params.userId, request.params.sessionId);
      return ok(null);
    },
  );
}

const DEPOSIT_STATES: readonly DepositState[] = ['waiting', 'completed', 'rejected'];

function registerDepositRoutes(http: FastifyInstance, { guard, wallet }: BackofficeRoutesOptions) {
  http.get<{ Querystring: { coin?: string; status?: DepositState; page: number; limit: number } }>(
    '/admin/deposits',
    {
      preHandler: guard('deposits.read'),
      schema: {
        ...base,
        summary: 'Every deposit seen on chain, newest first, of one coin and state when given',
        querystring: {
          type: 'object',
          properties: {
            coin: { type: 'string', pattern: '^[A-Z0-9]{1,20}$' },
            status: { type: 'string', enum: DEPOSIT_STATES },
            page,
            limit,
          },
        },
      },
    },
    async (request) => {
      const { coin, status, page: pageNumber, limit: pageSize } = request.query;
      return ok(
        await wallet.depositsPage({ coin: coin ?? null, state: status ?? null }, pageNumber, pageSize),
      );
    },
  );
}
