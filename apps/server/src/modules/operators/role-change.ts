import { isOperatorRole, OPERATOR_ROLES, type OperatorRole } from '@halyard/protocol';
import type { FastifyInstance } from 'fastify';
import { currentOperator, OPERATOR_SECURITY, type OperatorGuard } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import type { ApprovalHandler, ApprovalService } from '../approvals/index.ts';
import type { OperatorsService } from './service.ts';

/** The four-eyes kind of a role change (issue 18 item 3): one administrator asks, another approves. */
export const OPERATOR_ROLE_CHANGE = 'operator_role_change';

export interface RoleChange {
  operatorId: number;
  /** Kept for the queue's summary: who, and from which role. */
  email: string;
  from: OperatorRole;
  role: OperatorRole;
}

function field(payload: unknown, name: string): unknown {
  return payload !== null && typeof payload === 'object' && Object.hasOwn(payload, name)
    ? (payload as Record<string, unknown>)[name]
    : undefined;
}

/**
 * `validate` checks the payload's shape only: at approval it runs inside the
 * approval's transaction, where the store is read through `trx` alone. The
 * route checks the operator and the new role before asking; `execute` reads
 * them again inside the transaction (the role may have changed meanwhile) and
 * ends the operator's sessions, so the new role applies from their next sign-in.
 */
export function roleChangeHandler(operators: OperatorsService): ApprovalHandler<RoleChange> {
  return {
    permissionToRequest: 'operators.manage',
    permissionToApprove: 'operators.manage',
    validate(payload) {
      const operatorId = field(payload, 'operatorId');
      const email = field(payload, 'email');
      const from = field(payload, 'from');
      const role = field(payload, 'role');
      if (typeof role !== 'string' || !isOperatorRole(role)) throw badRequest('operators.roleInvalid');
      if (typeof from !== 'string' || !isOperatorRole(from)) throw badRequest('operators.roleInvalid');
      if (typeof operatorId !== 'number' || !Number.isSafeInteger(operatorId) || typeof email !== 'string') {
        throw badRequest('operators.notFound');
      }
      return { operatorId, email, from, role };
    },
    describe: (change) => ({
      summary: `${change.email}: ${change.from} → ${change.role}`,
      subject: `operator:${change.operatorId}`,
    }),
    async execute(change, { trx }) {
      const operator = await operators.existing(change.operatorId, trx);
      if (operator.role === change.role) throw badRequest('operators.sameRole');
      return operators.changeRole(change.operatorId, change.role, trx);
    },
  };
}

/** Registers the kind with the four-eyes framework and the route that asks for it. */
export function registerRoleChanges(
  http: FastifyInstance,
  options: { operators: OperatorsService; approvals: ApprovalService; guard: OperatorGuard },
): void {
  options.approvals.register(OPERATOR_ROLE_CHANGE, roleChangeHandler(options.operators));
  http.post<{ Params: { id: number }; Body: { role: OperatorRole; reason: string } }>(
    '/admin/operators/:id/role',
    {
      preHandler: options.guard('operators.manage'),
      schema: {
        summary:
          "Ask for an operator's new role: a second administrator approves it at /admin/approvals/:id/approve, and the operator's sessions end",
        tags: ['operator'],
        security: OPERATOR_SECURITY,
        params: { type: 'object', required: ['id'], properties: { id: idField } },
        body: {
          type: 'object',
          required: ['role', 'reason'],
          additionalProperties: false,
          properties: {
            role: { type: 'string', enum: [...OPERATOR_ROLES] },
            reason: { type: 'string', minLength: 1, maxLength: 500 },
          },
        },
      },
    },
    async (request) => {
      const operator = await options.operators.existing(request.params.id);
      if (operator.role === request.body.role) throw badRequest('operators.sameRole');
      const change: RoleChange = {
        operatorId: Number(operator.id),
        email: operator.email,
        from: operator.role,
        role: request.body.role,
      };
      const asked = await options.approvals.request(
        OPERATOR_ROLE_CHANGE,
        change,
        currentOperator(request),
        request.body.reason,
      );
      return ok(asked, 'approvals.requested');
    },
  );
}
