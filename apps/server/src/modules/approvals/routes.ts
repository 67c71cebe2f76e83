import { APPROVAL_STATUSES, type ApprovalStatus } from '@halyard/protocol';
import type { FastifyInstance } from 'fastify';
import { currentOperator, OPERATOR_SECURITY, type OperatorGuard } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import type { ApprovalService } from './service.ts';

export const TAGS = ['operator'];
export const reasonField = {
  type: 'string',
  maxLength: 500,
  description: 'Why (recorded with the request)',
} as const;
const idParams = { type: 'object', required: ['id'], properties: { id: idField } } as const;

export interface ApprovalRoutesOptions {
  approvals: ApprovalService;
  operatorGuard: OperatorGuard;
}

/**
 * The four-eyes queue. Listing needs any operator with the dashboard; each
 * decision is then checked against the request's kind (its approve
 * permission), and approving asks for a fresh TOTP code.
 */
export function registerApprovalRoutes(
  http: FastifyInstance,
  { approvals, operatorGuard }: ApprovalRoutesOptions,
) {
  http.get<{ Querystring: { status?: ApprovalStatus; kind?: string; limit: number } }>(
    '/admin/approvals',
    {
      preHandler: operatorGuard('dashboard.read'),
      schema: {
        summary: 'Four-eyes requests, newest first, by status and kind',
        tags: TAGS,
        security: OPERATOR_SECURITY,
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: [...APPROVAL_STATUSES] },
            kind: { type: 'string', maxLength: 64 },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
          },
        },
      },
    },
    async (request) =>
      ok(
        await approvals.list({
          status: request.query.status ?? null,
          kind: request.query.kind ?? null,
          limit: request.query.limit,
        }),
      ),
  );

  http.get<{ Params: { id: number } }>(
    '/admin/approvals/:id',
    {
      preHandler: operatorGuard('dashboard.read'),
      schema: { summary: 'One four-eyes request', tags: TAGS, security: OPERATOR_SECURITY, params: idParams },
    },
    async (request) => ok(await approvals.get(request.params.id)),
  );

  http.post<{ Params: { id: number } }>(
    '/admin/approvals/:id/approve',
    {
      preHandler: operatorGuard('dashboard.read', { freshTotp: true }),
      schema: {
        summary:
          'A second operator approves: the action executes now. Refused to the requester; answers the request, `failed` with the reason as the message when the action was refused',
        tags: TAGS,
        security: OPERATOR_SECURITY,
        params: idParams,
      },
    },
    async (request) => {
      const { approval, failure } = await approvals.approve(request.params.id, currentOperator(request));
      return failure ? ok(approval, failure.key, failure.params) : ok(approval, 'approvals.executed');
    },
  );

  http.post<{ Params: { id: number }; Body: { reason: string } }>(
    '/admin/approvals/:id/reject',
    {
      preHandler: operatorGuard('dashboard.read'),
      schema: {
        summary: 'A second operator rejects with a reason: nothing executes',
        tags: TAGS,
        security: OPERATOR_SECURITY,
        params: idParams,
        body: { type: 'object', required: ['reason'], properties: { reason: reasonField } },
      },
    },
    async (request) =>
      ok(
        await approvals.reject(request.params.id, currentOperator(request), request.body.reason),
        'approvals.rejected',
      ),
  );
}
