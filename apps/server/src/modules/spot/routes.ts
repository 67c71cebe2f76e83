import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { currentUser } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { CLIENT_OID_BODY } from '../../http/idempotency.ts';
import { type Coins, coin, coinsQuery, money, optionalCoins, upperCoins } from '../../http/pair-params.ts';
import type { OrderInput, SpotService } from './service.ts';

export interface SpotRoutesOptions {
  spot: SpotService;
  /** The identity module's `token` guard. */
  requireUser: preHandlerAsyncHookHandler;
}

const pageQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    tradcoin: coin,
    maincoin: coin,
  },
} as const;

/** Not `required` beyond the pair: a missing price or amount gets the spec §5 rule's own message. */
const orderBody = (withPrice: boolean) =>
  ({
    type: 'object',
    required: ['tradcoin', 'maincoin'],
    properties: {
      ...(withPrice ? { price: money('Limit price in the main coin') } : {}),
      number: money('Amount in the trade coin (a market buy too: it is held at latest price × amount + 5 %)'),
      tradcoin: coin,
      maincoin: coin,
      ...CLIENT_OID_BODY,
      plate: {
        type: 'integer',
        minimum: 0,
        maximum: 99,
        description: "The pair's board; must match when given",
      },
    },
  }) as const;

interface OrderBody {
  price?: string;
  number?: string;
  tradcoin: string;
  maincoin: string;
  plate?: number;
}

interface PageQuery {
  page: number;
  limit: number;
  tradcoin?: string;
  maincoin?: string;
}

const ORDER_ROUTES = [
  { path: '/trad/buyLimit', side: 'buy', style: 'limit' },
  { path: '/trad/sellLimit', side: 'sell', style: 'limit' },
  { path: '/trad/buyMarket', side: 'buy', style: 'market' },
  { path: '/trad/sellMarket', side: 'sell', style: 'market' },
] as const;

/** Spec §7 "Spot (trad)"; `/trad/kline` is served by the market module. */
export function registerSpotRoutes(http: FastifyInstance, options: SpotRoutesOptions): void {
  registerMarketReads(http, options.spot);
  registerAccountReads(http, options);
  registerOrderWrites(http, options);
}

function registerMarketReads(http: FastifyInstance, spot: SpotService): void {
  const tags = ['spot'];
  http.get(
    '/trad/overview',
    { schema: { tags, summary: 'Pairs open for trading with price, rise and volume' } },
    async () => ok(spot.overview()),
  );
  http.get(
    '/trad/symbols',
    { schema: { tags, summary: 'Every spot pair (spec §3 Market pair)' } },
    async () => ok(spot.symbols()),
  );
  http.get<{ Querystring: Coins }>(
    '/trad/trad',
    {
      schema: {
        tags,
        querystring: coinsQuery,
        summary: 'Pair info and its book: buy and sell, 20 levels each with bar width',
      },
    },
    async (request) => ok(spot.trad(upperCoins(request.query))),
  );
  http.get<{ Querystring: Coins }>(
    '/trad/currencyIntroduction',
    {
      schema: {
        tags,
        querystring: coinsQuery,
        summary: "The trade coin's introduction in the request's language",
      },
    },
    async (request) => ok(spot.introduction(upperCoins(request.query), request.locale)),
  );
}

function registerAccountReads(http: FastifyInstance, { spot, requireUser }: SpotRoutesOptions): void {
  const guarded = { preHandler: requireUser };
  const schema = { tags: ['spot'], security: [{ token: [] }] };
  http.get<{ Querystring: Coins }>(
    '/trad/tradAccount',
    {
      ...guarded,
      schema: {
        ...schema,
        querystring: coinsQuery,
        summary: 'balance {mainusable, tradusable} and entrust_order',
      },
    },
    async (request) => ok(await spot.tradAccount(currentUser(request).id, upperCoins(request.query))),
  );
  const pages = [
    { path: '/trad/entrustOrder', open: true, summary: 'Open orders, newest first, paged' },
    {
      path: '/trad/entrustHistory',
      open: false,
      summary: 'Filled and cancelled orders, newest first, paged',
    },
  ];
  for (const { path, open, summary } of pages) {
    http.get<{ Querystring: PageQuery }>(
      path,
      { ...guarded, schema: { ...schema, querystring: pageQuery, summary } },
      async (request) => {
        const { page, limit } = request.query;
        const coins = optionalCoins(request.query);
        return ok(await spot.orderPage(currentUser(request).id, open, coins, page, limit));
      },
    );
  }
}

function registerOrderWrites(http: FastifyInstance, { spot, requireUser }: SpotRoutesOptions): void {
  const schema = { tags: ['spot'], security: [{ token: [] }] };
  // A person places a few orders a second at most; this stops a script flooding one pair's queue.
  const rateLimit = { max: 1200, timeWindow: '1 minute' };
  const limited = { preHandler: requireUser, config: { rateLimit } };
  for (const route of ORDER_ROUTES) {
    http.post<{ Body: OrderBody }>(
      route.path,
      {
        ...limited,
        // On the core an order is checked against the money state, never SQL: it need not wait for the projection.
        config: { rateLimit, readsOnlyState: true },
        schema: { ...schema, body: orderBody(route.style === 'limit') },
      },
      async (request) => {
        const body = request.body;
        const coins = upperCoins(body);
        if (body.plate !== undefined && body.plate !== spot.market(coins).pair.plate) {
          throw badRequest('common.invalidParams', { field: 'plate' });
        }
        // Field by field, not `...coins`: a spread followed by new fields takes V8's slow path (ledger/accounts.ts, accountKey).
        const input: OrderInput = {
          tradcoin: coins.tradcoin,
          maincoin: coins.maincoin,
          side: route.side,
          style: route.style,
          price: route.style === 'limit' ? body.price : undefined,
          number: body.number ?? '',
        };
        return ok(await spot.placeForUser(currentUser(request).id, input), 'spot.placed');
      },
    );
  }
  http.post<{ Body: { id: number } }>(
    '/trad/closeEntrust',
    {
      ...limited,
      schema: {
        ...schema,
        summary: 'Cancel one open order (id = its autoid)',
        body: { type: 'object', required: ['id'], properties: { id: idField } },
      },
    },
    async (request) =>
      ok(await spot.cancelForUser(currentUser(request).id, request.body.id), 'spot.cancelled'),
  );
  http.post<{ Body: { tradcoin?: string; maincoin?: string } }>(
    '/trad/closeAllEntrust',
    {
      ...limited,
      schema: {
        ...schema,
        summary: 'Cancel every open order, of one pair when tradcoin and maincoin are given',
        body: { type: 'object', properties: { tradcoin: coin, maincoin: coin } },
      },
    },
    async (request) => {
      const cancelled = await spot.cancelAllForUser(
        currentUser(request).id,
        optionalCoins(request.body ?? {}),
      );
      return ok(cancelled, 'spot.allCancelled', { count: cancelled.length });
    },
  );
}
