import type { FiatAdInput, FiatOrder, FiatPayee, FiatPayType } from '@halyard/protocol';
import { FIAT_AD_TERMS_MAX_CHARS, FIAT_PAY_METHODS, FIAT_PAY_WINDOW_MINUTES } from '@halyard/rules';
import type { FastifyInstance, FastifyReply, preHandlerAsyncHookHandler } from 'fastify';
import {
  auditActor,
  currentUser,
  OPERATOR_SECURITY,
  type OperatorGuard,
  operatorMay,
} from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { notFound } from '../../http/errors.ts';
import { CLIENT_OID_BODY } from '../../http/idempotency.ts';
import { requestLocale } from '../../http/locale.ts';
import { auditView } from '../operators/index.ts';
import type { FiatService } from './service.ts';

const USER = [{ token: [] }];
const ADMIN = OPERATOR_SECURITY;

const text = (maxLength: number, description?: string) => ({
  type: 'string',
  maxLength,
  ...(description ? { description } : {}),
});
const id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const coin = { type: 'string', pattern: '^[A-Z0-9]{1,20}$' };
const fiat = { type: 'string', pattern: '^[A-Z]{3}$' };
const payType = { type: 'string', enum: [...FIAT_PAY_METHODS] };
const amount = text(40, 'Fiat amount to pay or receive, within the ad limits (2 decimals)');

/** The payee fields of spec §3 "Fiat order", each optional text (the rules say which a method needs). */
const PAYEE_FIELDS = {
  payeeName: text(100),
  cardNumber: text(40),
  bank: text(100),
  branch: text(100),
  accountType: text(40),
  bankAddress: text(200),
  swift: text(20),
  iban: text(50),
  remark: text(200),
  wechatAccount: text(100),
  wechatCode: text(512, 'The url /user/img answered for the WeChat pay code'),
} as const;
type PayeeBody = { [K in keyof typeof PAYEE_FIELDS]?: string };

interface OrderBody {
  coin: string;
  fiat: string;
  amount: string;
  payType: 'bank' | 'wechat';
  /** The quoted ad (GET /fiat/quote) the order must go to. */
  adId?: number;
}

export function registerFiatRoutes(
  http: FastifyInstance,
  options: { fiat: FiatService; requireUser: preHandlerAsyncHookHandler; operatorGuard: OperatorGuard },
): void {
  const { fiat: service } = options;
  const guard = { preHandler: options.requireUser };
  const orderRate = { rateLimit: { max: 30, timeWindow: '1 minute' } };

  http.get(
    '/fiat/fiatCoin',
    {
      schema: {
        summary: 'Coins that can be bought or sold for fiat, with their fiat currencies',
        tags: ['fiat'],
      },
    },
    async () => ok(await service.coins()),
  );

  http.get<{ Querystring: { coin?: string; side?: 'buy' | 'sell' } }>(
    '/fiat/payCoinList',
    {
      schema: {
        summary: 'Per coin, fiat and side: best price, single-order min and max (fiat) and payment methods',
        tags: ['fiat'],
        querystring: {
          type: 'object',
          properties: { coin, side: { type: 'string', enum: ['buy', 'sell'] } },
        },
      },
    },
    async (request) => ok(await service.offers(request.query.coin, request.query.side)),
  );

  http.get<{ Querystring: Omit<OrderBody, 'adId'> & { side: 'buy' | 'sell' } }>(
    '/fiat/quote',
    {
      ...guard,
      schema: {
        summary:
          'The ad an order of this amount and method would be matched to now: merchant, price, payment window and terms, to read before ordering (then order with its adId)',
        tags: ['fiat'],
        security: USER,
        querystring: {
          type: 'object',
          required: ['coin', 'fiat', 'amount', 'payType', 'side'],
          properties: { coin, fiat, amount, payType, side: { type: 'string', enum: ['buy', 'sell'] } },
        },
      },
    },
    async (request) => ok(await service.quote(currentUser(request).id, request.query)),
  );

  http.get<{ Querystring: { page: number; limit: number } }>(
    '/fiat/fiatOrderList',
    {
      ...guard,
      schema: {
        summary: 'Your fiat orders, newest first, with their states and transitions',
        tags: ['fiat'],
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
      ok(await service.orders(currentUser(request).id, request.query.page, request.query.limit)),
  );

  http.get<{ Querystring: { id: number } }>(
    '/fiat/fiatOrderById',
    {
      ...guard,
      schema: {
        summary: 'One fiat order of yours (as its user or its merchant): payee details, countdown, events',
        tags: ['fiat'],
        security: USER,
        querystring: { type: 'object', required: ['id'], properties: { id } },
      },
    },
    async (request) => ok(await service.order(currentUser(request).id, request.query.id)),
  );

  http.post<{ Body: OrderBody }>(
    '/fiat/addFiatPayOrder',
    {
      ...guard,
      config: orderRate,
      schema: {
        summary:
          'Buy a coin for fiat: the best-priced eligible merchant ad is matched and its coin locked in escrow; pay within the window',
        tags: ['fiat'],
        security: USER,
        body: {
          type: 'object',
          required: ['coin', 'fiat', 'amount', 'payType'],
          properties: { coin, fiat, amount, payType, adId: id, ...CLIENT_OID_BODY },
        },
      },
    },
    async (request) =>
      created(await service.buy(currentUser(request).id, request.body, requestLocale(request))),
  );

  http.post<{ Body: OrderBody & PayeeBody }>(
    '/fiat/sellFiatOrder',
    {
      ...guard,
      config: orderRate,
      schema: {
        summary:
          'Sell a coin for fiat: your coin (c2c wallet) is locked in escrow; the merchant pays to your details, then you release',
        tags: ['fiat'],
        security: USER,
        body: {
          type: 'object',
          required: ['coin', 'fiat', 'amount', 'payType'],
          properties: { coin, fiat, amount, payType, adId: id, ...PAYEE_FIELDS, ...CLIENT_OID_BODY },
        },
      },
    },
    async (request) => {
      const { coin: c, fiat: f, amount: a, payType: p, adId, ...rest } = request.body;
      const payee = payeeOf(rest);
      const order = await service.sell(
        currentUser(request).id,
        { coin: c, fiat: f, amount: a, payType: p, payee, ...(adId === undefined ? {} : { adId }) },
        requestLocale(request),
      );
      return created(order);
    },
  );

  http.post<{ Body: { id: number; img?: string } }>(
    '/fiat/addFiatPayOrderImg',
    {
      ...guard,
      config: orderRate,
      schema: {
        summary:
          '"I have paid": attach the payment screenshot (the url /user/img answered); the order becomes paid',
        tags: ['fiat'],
        security: USER,
        body: { type: 'object', required: ['id'], properties: { id, img: text(512) } },
      },
    },
    async (request) =>
      ok(
        await service.markPaid(currentUser(request).id, { id: request.body.id, img: request.body.img ?? '' }),
        'fiat.markedPaid',
      ),
  );

  http.post<{ Body: { id: number } }>(
    '/fiat/releaseFiatOrder',
    {
      ...guard,
      config: orderRate,
      schema: {
        summary:
          'The seller confirms the payment arrived: the escrowed coin goes to the buyer (after "paid" only)',
        tags: ['fiat'],
        security: USER,
        body: { type: 'object', required: ['id'], properties: { id, ...CLIENT_OID_BODY } },
      },
    },
    async (request) => ok(await service.release(currentUser(request).id, request.body.id), 'fiat.released'),
  );

  http.post<{ Body: { id: number } }>(
    '/fiat/cancelFiatOrder',
    {
      ...guard,
      config: orderRate,
      schema: {
        summary: 'The buyer cancels before "paid": the escrow is returned (frequent cancels set a ban)',
        tags: ['fiat'],
        security: USER,
        body: { type: 'object', required: ['id'], properties: { id } },
      },
    },
    async (request) => ok(await service.cancel(currentUser(request).id, request.body.id), 'fiat.cancelled'),
  );

  http.post<{ Body: { id: number; kind: string; reason: string } }>(
    '/fiat/appealFiatOrder',
    {
      ...guard,
      config: orderRate,
      schema: {
        summary:
          'Either party, after "paid" or in the window\'s last minutes: the escrow stays locked until an operator rules. kind: paidNotReleased (buyer); notReceived, wrongAmount, thirdPartyPayment (seller); other (either)',
        tags: ['fiat'],
        security: USER,
        body: {
          type: 'object',
          required: ['id', 'kind', 'reason'],
          properties: { id, kind: text(32), reason: text(500) },
        },
      },
    },
    async (request) => ok(await service.appeal(currentUser(request).id, request.body), 'fiat.appealed'),
  );

  http.get<{ Querystring: { id: number } }>(
    '/fiat/payImg',
    {
      ...guard,
      schema: {
        summary:
          "An order's payment screenshot, for its two parties (operators: /admin/uploads/<name>, audited)",
        tags: ['fiat'],
        security: USER,
        querystring: { type: 'object', required: ['id'], properties: { id } },
      },
    },
    async (request, reply) =>
      sendImage(reply, await service.payImage(currentUser(request).id, request.query.id)),
  );

  http.get(
    '/fiat/myBans',
    {
      ...guard,
      schema: {
        summary:
          'Your fiat-trading standing: the ban in force (rule, reason, start, end), recent bans and the ladder',
        tags: ['fiat'],
        security: USER,
      },
    },
    async (request) => ok(await service.standing(currentUser(request).id, requestLocale(request))),
  );

  http.get<{ Querystring: { id: number } }>(
    '/fiat/chatList',
    {
      ...guard,
      schema: {
        summary: "An order's chat (its two parties, and an operator during an appeal), oldest first",
        tags: ['fiat'],
        security: USER,
        querystring: { type: 'object', required: ['id'], properties: { id } },
      },
    },
    async (request) => ok(await service.chat(currentUser(request).id, request.query.id)),
  );

  http.post<{ Body: { id: number; text?: string; img?: string } }>(
    '/fiat/chatSend',
    {
      ...guard,
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        summary: "Write in an open order's chat: text, an image (the url /user/img answered), or both",
        tags: ['fiat'],
        security: USER,
        body: { type: 'object', required: ['id'], properties: { id, text: text(2000), img: text(512) } },
      },
    },
    async (request) =>
      ok(
        await service.say(currentUser(request).id, {
          id: request.body.id,
          text: request.body.text ?? '',
          img: request.body.img ?? '',
        }),
      ),
  );

  http.get<{ Querystring: { id: number; message: number } }>(
    '/fiat/chatImg',
    {
      ...guard,
      schema: {
        summary: "An image of an order's chat, for the order's two parties",
        tags: ['fiat'],
        security: USER,
        querystring: { type: 'object', required: ['id', 'message'], properties: { id, message: id } },
      },
    },
    async (request, reply) =>
      sendImage(
        reply,
        await service.chatImage(currentUser(request).id, request.query.id, request.query.message),
      ),
  );

  http.get(
    '/fiat/myMerchant',
    {
      ...guard,
      schema: {
        summary:
          'Your merchant standing: application state, security deposit, your ads and your latest orders',
        tags: ['fiat'],
        security: USER,
      },
    },
    async (request) => ok(await service.merchantView(currentUser(request).id)),
  );

  http.post(
    '/fiat/applyMerchant',
    {
      ...guard,
      config: orderRate,
      schema: {
        summary:
          'Apply to be a merchant (verified identity, the security deposit in your c2c wallet); an operator decides',
        tags: ['fiat'],
        security: USER,
      },
    },
    async (request) => ok(await service.applyMerchant(currentUser(request).id), 'fiat.merchantApplied'),
  );

  http.post<{
    Body: PayeeBody & {
      side: 'buy' | 'sell';
      coin: string;
      fiat: string;
      priceType?: 'fixed' | 'floating';
      price?: string;
      premium?: string;
      min: string;
      max: string;
      available: string;
      payType?: FiatPayType;
      methods?: (PayeeBody & { payType: FiatPayType })[];
      payWindowMinutes?: number;
      terms?: string;
    };
  }>(
    '/fiat/publishAd',
    {
      ...guard,
      config: orderRate,
      schema: {
        summary:
          "An approved merchant publishes an ad: side (users' view), coin, fiat, a fixed price or a floating premium (% over the index, refreshed), single-order min and max (fiat), coin available, its payment methods with their payee details (`methods`, or one method as top-level `payType` and payee fields), the payment window in minutes (default 20) and free-text terms",
        tags: ['fiat'],
        security: USER,
        body: {
          type: 'object',
          required: ['side', 'coin', 'fiat', 'min', 'max', 'available'],
          properties: {
            side: { type: 'string', enum: ['buy', 'sell'] },
            coin,
            fiat,
            priceType: { type: 'string', enum: ['fixed', 'floating'] },
            price: text(40),
            premium: text(40),
            min: text(40),
            max: text(40),
            available: text(40),
            payType,
            ...PAYEE_FIELDS,
            methods: {
              type: 'array',
              maxItems: FIAT_PAY_METHODS.length,
              items: {
                type: 'object',
                required: ['payType'],
                properties: { payType, ...PAYEE_FIELDS },
                additionalProperties: false,
              },
            },
            payWindowMinutes: {
              type: 'integer',
              description: `Minutes a payer has to pay (${FIAT_PAY_WINDOW_MINUTES.min}–${FIAT_PAY_WINDOW_MINUTES.max}, default ${FIAT_PAY_WINDOW_MINUTES.default})`,
            },
            terms: text(4 * FIAT_AD_TERMS_MAX_CHARS, 'Free-text terms shown to users, plain text'),
          },
        },
      },
    },
    async (request) => {
      const {
        side,
        coin: c,
        fiat: f,
        priceType,
        price,
        premium,
        min,
        max,
        available,
        payType: p,
        methods,
        payWindowMinutes,
        terms,
        ...rest
      } = request.body;
      const input: FiatAdInput = {
        side,
        coin: c,
        fiat: f,
        priceType: priceType ?? 'fixed',
        price: price ?? '',
        premium: premium ?? '',
        min,
        max,
        available,
        methods:
          methods?.map(({ payType: method, ...payee }) => ({ payType: method, payee: payeeOf(payee) })) ??
          (p === undefined ? [] : [{ payType: p, payee: payeeOf(rest) }]),
        payWindowMinutes: payWindowMinutes ?? FIAT_PAY_WINDOW_MINUTES.default,
        terms: terms ?? '',
      };
      return ok(await service.publishAd(currentUser(request).id, input), 'fiat.adPublished');
    },
  );

  http.post<{ Body: { id: number; online: boolean; available?: string } }>(
    '/fiat/adOnline',
    {
      ...guard,
      schema: {
        summary:
          'Take one of your ads offline (away) or back online, optionally with a new available amount (a sell ad holds it while live)',
        tags: ['fiat'],
        security: USER,
        body: {
          type: 'object',
          required: ['id', 'online'],
          properties: { id, online: { type: 'boolean' }, available: { type: 'string', maxLength: 40 } },
        },
      },
    },
    async (request) =>
      ok(
        await service.setAdOnline(
          currentUser(request).id,
          request.body.id,
          request.body.online,
          request.body.available,
        ),
      ),
  );

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

/** A new order, with the message that tells the payer its own payment window. */
function created(order: FiatOrder) {
  return ok(order, 'fiat.created', { minutes: order.payWindowMinutes });
}

/** The payee fields of a body, each empty when not given. */
function payeeOf(body: PayeeBody): FiatPayee {
  return {
    payeeName: body.payeeName ?? '',
    cardNumber: body.cardNumber ?? '',
    bank: body.bank ?? '',
    branch: body.branch ?? '',
    accountType: body.accountType ?? '',
    bankAddress: body.bankAddress ?? '',
    swift: body.swift ?? '',
    iban: body.iban ?? '',
    remark: body.remark ?? '',
    wechatAccount: body.wechatAccount ?? '',
    wechatCode: body.wechatCode ?? '',
  };
}

function sendImage(reply: FastifyReply, image: { contentType: string; bytes: Buffer } | null) {
  if (!image) throw notFound();
  return reply
    .header('content-type', image.contentType)
    .header('cache-control', 'private, no-store')
    .send(image.bytes);
}
