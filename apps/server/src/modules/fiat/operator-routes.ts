import type { FastifyInstance } from 'fastify';
import { auditActor, OPERATOR_SECURITY, type OperatorGuard, operatorMay } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { requestLocale } from '../../http/locale.ts';
import { auditView } from '../operators/index.ts';
import { id, text } from './schemas.ts';
import type { FiatService } from './service.ts';

const ADMIN = OPERATOR_SECURITY;

/** The operators' fiat routes: merchant applications, ads, appeals and their rulings. */
export function registerFiatOperatorRoutes(
  http: FastifyInstance,
  options: { fiat: FiatService; operatorGuard: OperatorGuard },
): void {
  const { fiat: service } = options;

  http.post<{ Body: { userId: number; approve: boolean; reason: string } }>(
    '/admin/fiat/merchants/decide',
    {
      preHandler: options.operatorGuard('fiat.merchants'),
      schema: {
        summary:
          "Approve (the security deposit is held in the ledger) or reject a user's merchant application; audited",
        tags: ['operator'],
        security: ADMIN,
        body: {
          type: 'object',
          required: ['userId', 'approve', 'reason'],
          properties: {
            userId: id,
            approve: { type: 'boolean' },
            reason: text(500),
          },
        },
      },
    },
    async (request) => {
      const { userId, approve, reason } = request.body;
      await service.decideMerchant({ userId, approve, reason }, auditActor(request));
      return ok(null);
    },
  );

  http.get<{ Querystring: { status?: 'review' | 'approved' | 'rejected'; limit: number } }>(
    '/admin/fiat/merchants',
    {
      preHandler: options.operatorGuard('fiat.merchants'),
      schema: {
        summary:
          'Merchant applications and merchants, newest first: masked contact, status, deposit, applied and decided times; the verified name only with pii.read (audited)',
        tags: ['operator'],
        security: ADMIN,
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['review', 'approved', 'rejected'] },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 200 },
          },
        },
      },
    },
    async (request) => {
      const withName = operatorMay(request, 'pii.read');
      const merchants = await service.merchantsForOperator(
        request.query.status,
        withName,
        request.query.limit,
      );
      if (withName && merchants.length > 0) {
        await auditView(request, {
          action: 'fiat.merchants.view',
          details: { merchants: merchants.map((merchant) => merchant.merchantId) },
        });
      }
      return ok(merchants);
    },
  );

  http.get<{ Querystring: { merchantId?: number; status?: 'online' | 'offline'; limit: number } }>(
    '/admin/fiat/ads',
    {
      preHandler: options.operatorGuard('fiat.merchants'),
      schema: {
        summary: "Merchants' ads, newest first, of one merchant or all, online or offline or both",
        tags: ['operator'],
        security: ADMIN,
        querystring: {
          type: 'object',
          properties: {
            merchantId: id,
            status: { type: 'string', enum: ['online', 'offline'] },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 200 },
          },
        },
      },
    },
    async (request) => {
      const { merchantId, status, limit } = request.query;
      return ok(
        await service.adsForOperator(
          { merchantId, online: status === undefined ? undefined : status === 'online' },
          limit,
        ),
      );
    },
  );

  http.post<{ Params: { id: number }; Body: { reason: string } }>(
    '/admin/fiat/ads/:id/offline',
    {
      preHandler: options.operatorGuard('fiat.merchants'),
      schema: {
        summary:
          "Takes a merchant's ad offline (a sell ad's held coin goes back to the merchant; open orders keep going); the reason is written to the audit log",
        tags: ['operator'],
        security: ADMIN,
        params: { type: 'object', required: ['id'], properties: { id } },
        body: { type: 'object', required: ['reason'], properties: { reason: text(500) } },
      },
    },
    async (request) => {
      await service.takeAdOffline(
        { id: request.params.id, reason: request.body.reason },
        auditActor(request),
      );
      return ok(null);
    },
  );

  http.post<{ Body: { id: number; text: string } }>(
    '/admin/fiat/chat',
    {
      preHandler: options.operatorGuard('fiat.appeals'),
      schema: {
        summary: 'An operator writes in the chat of an order under appeal (written to the audit log)',
        tags: ['operator'],
        security: ADMIN,
        body: {
          type: 'object',
          required: ['id', 'text'],
          properties: { id, text: text(500) },
        },
      },
    },
    async (request) => {
      await service.operatorSay({ id: request.body.id, text: request.body.text }, auditActor(request));
      return ok(null);
    },
  );

  http.get<{ Querystring: { limit: number } }>(
    '/admin/fiat/appeals',
    {
      preHandler: options.operatorGuard('fiat.appeals'),
      schema: {
        summary:
          'Fiat orders under appeal, oldest first, with their events and chat (screenshots and chat images: /admin/uploads/<name>, audited)',
        tags: ['operator'],
        security: ADMIN,
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 } },
        },
      },
    },
    async (request) => {
      const appeals = await service.appeals(request.query.limit, requestLocale(request));
      // The parties' chat and payment evidence are personal data: each read is audited.
      await auditView(request, {
        action: 'fiat.appeals.view',
        details: { orders: appeals.map((appeal) => appeal.id) },
      });
      return ok(appeals);
    },
  );

  http.post<{ Body: { id: number; decision: 'release' | 'refund'; reason: string } }>(
    '/admin/fiat/resolve',
    {
      // Moves coin: a fresh TOTP code (operator-token sessions).
      preHandler: options.operatorGuard('fiat.appeals', { freshTotp: true }),
      schema: {
        summary:
          'Rule on an appeal: release (coin to the buyer) or refund (coin back to the seller); the reason is written to the audit log',
        tags: ['operator'],
        security: ADMIN,
        body: {
          type: 'object',
          required: ['id', 'decision', 'reason'],
          properties: {
            id,
            decision: { type: 'string', enum: ['release', 'refund'] },
            reason: text(500),
          },
        },
      },
    },
    async (request) => {
      const { id: orderId, decision, reason } = request.body;
      await service.resolve({ id: orderId, decision, reason }, auditActor(request));
      return ok(null, 'fiat.resolved');
    },
  );
}
