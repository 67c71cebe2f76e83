import {
  ADJUSTMENT_CATEGORIES,
  ADJUSTMENT_DIRECTIONS,
  type BalanceAdjustmentRequest,
} from '@halyard/protocol';
import type { FastifyInstance } from 'fastify';
import { currentOperator, OPERATOR_SECURITY } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { USER_WALLETS } from '../../ledger/index.ts';
import { BALANCE_ADJUSTMENT } from './adjustments.ts';
import { type ApprovalRoutesOptions, reasonField, TAGS } from './routes.ts';

/** POST /admin/adjustments: a manual credit or debit waits for a second operator (adjustments.approve). */
export function registerAdjustmentRoutes(
  http: FastifyInstance,
  { approvals, operatorGuard }: ApprovalRoutesOptions,
) {
  http.post<{ Body: BalanceAdjustmentRequest }>(
    '/admin/adjustments',
    {
      preHandler: operatorGuard('adjustments.request', { freshTotp: true }),
      schema: {
        summary:
          'Request a manual credit or debit of a user wallet against the operator_adjustments account; a second operator approves it at /admin/approvals/:id/approve',
        tags: TAGS,
        security: OPERATOR_SECURITY,
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['userId', 'wallet', 'coin', 'direction', 'amount', 'category', 'reason'],
          properties: {
            userId: idField,
            wallet: { type: 'string', enum: [...USER_WALLETS] },
            coin: { type: 'string', maxLength: 20 },
            direction: { type: 'string', enum: [...ADJUSTMENT_DIRECTIONS] },
            amount: { type: 'string', maxLength: 60, description: 'Exact decimal, above 0' },
            category: { type: 'string', enum: [...ADJUSTMENT_CATEGORIES] },
            reason: reasonField,
          },
        },
      },
    },
    async (request) =>
      ok(
        await approvals.request(
          BALANCE_ADJUSTMENT,
          request.body,
          currentOperator(request),
          request.body.reason,
        ),
        'approvals.requested',
      ),
  );
}
