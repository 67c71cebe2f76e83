import type { FiatAdInput, FiatPayType } from '@halyard/protocol';
import { FIAT_AD_TERMS_MAX_CHARS, FIAT_PAY_METHODS, FIAT_PAY_WINDOW_MINUTES } from '@halyard/rules';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { currentUser } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import {
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

/** The merchants' fiat routes: their application, status and ads. */
export function registerFiatMerchantRoutes(
  http: FastifyInstance,
  options: { fiat: FiatService; requireUser: preHandlerAsyncHookHandler },
): void {
  const { fiat: service } = options;
  const guard = { preHandler: options.requireUser };

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
}
