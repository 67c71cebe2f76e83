import { TICKET_STATUSES } from '@halyard/protocol';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { currentUser, OPERATOR_SECURITY, type OperatorGuard } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import type { SupportService } from './service.ts';
import type { TicketStatus } from './store.ts';

export interface SupportRoutesOptions {
  support: SupportService;
  /** The identity module's `token` guard: tickets are for signed-in users only. */
  requireUser: preHandlerAsyncHookHandler;
  operatorGuard: OperatorGuard;
}

const STATUSES: TicketStatus[] = [...TICKET_STATUSES];

const pageProperties = {
  page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
} as const;

const idBody = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: idField },
} as const;

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: idField },
} as const;

export function registerSupportRoutes(http: FastifyInstance, options: SupportRoutesOptions) {
  registerUserRoutes(http, options.support, options.requireUser);
  registerAdminRoutes(http, options.support, options.operatorGuard);
}

function registerUserRoutes(
  http: FastifyInstance,
  support: SupportService,
  requireUser: preHandlerAsyncHookHandler,
) {
  const guard = { preHandler: requireUser };
  const base = { tags: ['user'], security: [{ token: [] }] };

  http.post<{ Body: { title?: string; content?: string } }>(
    '/user/addOnline',
    {
      ...guard,
      // A person writes a handful of tickets; this stops a script filling the operator's queue.
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        ...base,
        summary: 'Submit a help ticket: title required, content 10-200 characters; starts as waiting',
        // Not `required`: a missing title or content gets the rule's own message (spec §5).
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            title: { type: 'string', maxLength: 100 },
            // The rule allows 200 characters and says so; past this, the schema refuses before anything is read.
            content: { type: 'string', maxLength: 10_000 },
          },
        },
      },
    },
    async (request) => {
      const ticket = await support.submit(currentUser(request).id, {
        title: request.body?.title ?? '',
        content: request.body?.content ?? '',
      });
      return ok(ticket, 'support.submitted');
    },
  );

  http.get<{ Querystring: { page: number; limit: number } }>(
    '/user/onlineList',
    {
      ...guard,
      schema: {
        ...base,
        summary: "The user's tickets, newest first, with reply and status: {list, count}",
        querystring: { type: 'object', properties: pageProperties },
      },
    },
    async (request) =>
      ok(await support.listForUser(currentUser(request).id, request.query.page, request.query.limit)),
  );

  http.post<{ Body: { id: number } }>(
    '/user/closeOnline',
    { ...guard, schema: { ...base, summary: 'Close one of your own tickets', body: idBody } },
    async (request) => {
      await support.closeByUser(currentUser(request).id, request.body.id);
      return ok(null, 'support.closed');
    },
  );
}

function registerAdminRoutes(http: FastifyInstance, support: SupportService, operatorGuard: OperatorGuard) {
  const guard = { preHandler: operatorGuard('tickets.manage') };
  const base = { tags: ['admin'], security: OPERATOR_SECURITY };

  http.get<{ Querystring: { status?: TicketStatus; page: number; limit: number } }>(
    '/admin/support/tickets',
    {
      ...guard,
      schema: {
        ...base,
        querystring: {
          type: 'object',
          properties: { status: { type: 'string', enum: STATUSES }, ...pageProperties },
        },
      },
    },
    async (request) =>
      ok(await support.listForOperator(request.query.status, request.query.page, request.query.limit)),
  );

  http.post<{ Params: { id: number }; Body: { reply: string } }>(
    '/admin/support/tickets/:id/reply',
    {
      ...guard,
      schema: {
        ...base,
        params: idParams,
        body: {
          type: 'object',
          required: ['reply'],
          additionalProperties: false,
          properties: { reply: { type: 'string', minLength: 1, maxLength: 2_000, pattern: '\\S' } },
        },
      },
    },
    async (request) => {
      await support.reply(request.params.id, request.body.reply);
      return ok(null, 'support.replied');
    },
  );

  http.post<{ Params: { id: number } }>(
    '/admin/support/tickets/:id/close',
    { ...guard, schema: { ...base, params: idParams } },
    async (request) => {
      await support.close(request.params.id);
      return ok(null, 'support.closed');
    },
  );
}
