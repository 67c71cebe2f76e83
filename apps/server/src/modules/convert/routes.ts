import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { currentUser } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { CLIENT_OID_BODY } from '../../http/idempotency.ts';
import type { ConvertService } from './service.ts';

const USER = [{ token: [] }];

export function registerConvertRoutes(
  http: FastifyInstance,
  options: { convert: ConvertService; requireUser: preHandlerAsyncHookHandler },
): void {
  const { convert } = options;
  const guard = { preHandler: options.requireUser };

  http.get(
    '/flash/flashCoin',
    {
      ...guard,
      schema: {
        summary:
          'Flash exchange pairs: from, to, min, max, rate (index price less the spread) and a quote id that locks the rate for a few seconds',
        tags: ['flash'],
        security: USER,
      },
    },
    async (request) => ok(await convert.pairs(currentUser(request).id)),
  );

  http.post<{ Body: { quoteId: string; number?: string } }>(
    '/flash/addFlash',
    {
      ...guard,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        summary:
          'Exchange at a quote: answers consumed, received and rate; an expired or used quote is refused',
        tags: ['flash'],
        security: USER,
        body: {
          type: 'object',
          required: ['quoteId'],
          properties: {
            quoteId: { type: 'string', maxLength: 64 },
            number: { type: 'string', maxLength: 40, description: 'Amount of the coin consumed' },
            ...CLIENT_OID_BODY,
          },
        },
      },
    },
    async (request) => {
      const { quoteId, number = '' } = request.body;
      return ok(
        await convert.convert(currentUser(request).id, { quoteId, amount: number }),
        'wallet.converted',
      );
    },
  );

  http.get<{ Querystring: { page: number; limit: number } }>(
    '/flash/flashOrder',
    {
      ...guard,
      schema: {
        summary: 'Exchange records, newest first: consumed, received, rate, time',
        tags: ['flash'],
        security: USER,
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          },
        },
      },
    },
    async (request) =>
      ok(await convert.records(currentUser(request).id, request.query.page, request.query.limit)),
  );
}
