import { REFERRAL_PRODUCTS, type ReferralCommissionQuery } from '@halyard/protocol';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { currentUser, type OperatorGuard } from '../../http/auth.ts';
import { epochMsField, idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import type { ReferralService } from './service.ts';

const USER = [{ token: [] }];
const TAGS = ['referral'];

const page = { type: 'integer', minimum: 1, maximum: 100_000, default: 1 } as const;
const limit = { type: 'integer', minimum: 1, maximum: 100, default: 20 } as const;
const commissionFilters = {
  product: { type: 'string', enum: REFERRAL_PRODUCTS },
  coin: { type: 'string', pattern: '^[A-Za-z0-9]{1,20}$' },
  from: epochMsField('From (inclusive)'),
  to: epochMsField('Until (exclusive)'),
} as const;

export interface ReferralRouteOptions {
  referral: ReferralService;
  requireUser: preHandlerAsyncHookHandler;
  operatorGuard: OperatorGuard;
}

/** Spec §7 /user/getMyTeam and issue 17's /referral routes, /user/feeDeduction and the operator's settings. */
export function registerReferralRoutes(http: FastifyInstance, options: ReferralRouteOptions): void {
  const { referral } = options;
  const guard = { preHandler: options.requireUser };

  http.get<{ Querystring: { page: number; limit: number; level?: 1 | 2; search?: string } }>(
    '/user/getMyTeam',
    {
      ...guard,
      schema: {
        summary:
          "The user's team (spec §3 Team member): direct and level-2 members, newest first, masked ids, invitation time and the profit each earned the user; team size and direct count",
        tags: TAGS,
        security: USER,
        querystring: {
          type: 'object',
          properties: {
            page,
            limit,
            level: { type: 'integer', enum: [1, 2] },
            search: { type: 'string', maxLength: 20, description: 'A member user id' },
          },
        },
      },
    },
    async (request) => ok(await referral.team(currentUser(request).id, request.query)),
  );

  http.get(
    '/referral/summary',
    {
      ...guard,
      schema: {
        summary:
          "Today's tier and rate, the 24 h time-weighted average HAL and what the next tier needs, totals by coin and day, kickback, fee deduction and the reward rules",
        tags: TAGS,
        security: USER,
      },
    },
    async (request) => ok(await referral.summary(currentUser(request).id)),
  );

  http.get<{ Querystring: ReferralCommissionQuery & { page: number; limit: number } }>(
    '/referral/commissions',
    {
      ...guard,
      schema: {
        summary:
          "The user's commission ledger, one row per fee and level: the trade, friend (masked), product, fee and coin, tier and rate used, amount, kickback, and why a row earned nothing",
        tags: TAGS,
        security: USER,
        querystring: { type: 'object', properties: { page, limit, ...commissionFilters } },
      },
    },
    async (request) => ok(await referral.commissions(currentUser(request).id, request.query)),
  );

  http.get<{ Querystring: ReferralCommissionQuery }>(
    '/referral/commissions.csv',
    {
      ...guard,
      schema: {
        summary: 'The commission ledger as CSV (same filters, newest first, at most 10,000 rows)',
        tags: TAGS,
        security: USER,
        querystring: { type: 'object', properties: commissionFilters },
      },
    },
    async (request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="commissions.csv"')
        .send(await referral.commissionsCsv(currentUser(request).id, request.query)),
  );

  http.post<{ Body: { code: string } }>(
    '/referral/bind',
    {
      ...guard,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        summary: 'Bind an inviter by code: once, within 14 days of sign-up, not your own code, no cycles',
        tags: TAGS,
        security: USER,
        body: {
          type: 'object',
          required: ['code'],
          properties: { code: { type: 'string', maxLength: 16 } },
        },
      },
    },
    async (request) => {
      await referral.bind(currentUser(request).id, request.body.code);
      return ok(null);
    },
  );

  http.post<{ Body: { rate: string } }>(
    '/referral/kickback',
    {
      ...guard,
      schema: {
        summary:
          "The part of the user's level-1 rate given back to each invitee (a fraction, at most the rate)",
        tags: TAGS,
        security: USER,
        body: {
          type: 'object',
          required: ['rate'],
          properties: { rate: { type: 'string', maxLength: 20 } },
        },
      },
    },
    async (request) => {
      await referral.setKickback(currentUser(request).id, request.body.rate);
      return ok(null);
    },
  );

  http.post<{ Body: { enabled: boolean } }>(
    '/user/feeDeduction',
    {
      ...guard,
      schema: {
        summary:
          'Pay trading fees in HAL at the discount, when enough HAL is held (otherwise in the usual coin)',
        tags: TAGS,
        security: USER,
        body: {
          type: 'object',
          required: ['enabled'],
          properties: { enabled: { type: 'boolean' } },
        },
      },
    },
    async (request) => {
      await referral.setFeeDeduction(currentUser(request).id, request.body.enabled);
      return ok(null);
    },
  );

  const operator = { preHandler: options.operatorGuard('referral.settings') };
  http.get(
    '/admin/referral/settings',
    { ...operator, schema: { summary: 'HAL fee discount and market-maker accounts', tags: TAGS } },
    async () => ok(referral.settingsView()),
  );
  http.post<{ Body: { halDiscount?: string; marketMakers?: number[] } }>(
    '/admin/referral/settings',
    {
      ...operator,
      schema: {
        summary:
          'Set the HAL fee discount (0 to 0.5) and the market-maker accounts (excluded from commissions)',
        tags: TAGS,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            halDiscount: { type: 'string', maxLength: 20 },
            marketMakers: { type: 'array', maxItems: 1000, items: idField },
          },
        },
      },
    },
    async (request) => ok(await referral.saveSettings(request.body)),
  );
}
