import type { FiatOrder } from '@halyard/protocol';
import type { FastifyInstance, FastifyReply, preHandlerAsyncHookHandler } from 'fastify';
import { currentUser } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { notFound } from '../../http/errors.ts';
import { CLIENT_OID_BODY } from '../../http/idempotency.ts';
import { requestLocale } from '../../http/locale.ts';
import {
  amount,
  coin,
  fiat,
  id,
  orderRate,
  PAYEE_FIELDS,
  type PayeeBody,
  payeeOf,
  payType,
  text,
  USER,
} from './schemas.ts';
import type { FiatService } from './service.ts';

interface OrderBody {
  coin: string;
  fiat: string;
  amount: string;
  payType: 'bank' | 'wechat';
  /** The quoted ad (GET /fiat/quote) the order must go to. */
  adId?: number;
}

/** The routes of users buying and selling; merchants' are in merchant-routes.ts, operators' in operator-routes.ts. */
export function registerFiatRoutes(
  http: FastifyInstance,
  options: { fiat: FiatService; requireUser: preHandlerAsyncHookHandler },
): void {
  const { fiat: service } = options;
  const guard = { preHandler: options.requireUser };

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
}

/** A new order, with the message that tells the payer its own payment window. */
function created(order: FiatOrder) {
  return ok(order, 'fiat.created', { minutes: order.payWindowMinutes });
}

function sendImage(reply: FastifyReply, image: { contentType: string; bytes: Buffer } | null) {
  if (!image) throw notFound();
  return reply
    .header('content-type', image.contentType)
    .header('cache-control', 'private, no-store')
    .send(image.bytes);
}
