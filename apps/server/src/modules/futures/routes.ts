import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { TdMode } from '../../core/state/futures-rows.ts';
import { currentUser } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { CLIENT_OID_BODY } from '../../http/idempotency.ts';
import {
  type Coins,
  coin,
  coinsQuery,
  money,
  optionalCoins,
  optionalCoinsQuery,
  upperCoins,
} from '../../http/pair-params.ts';
import type { FuturesService } from './service.ts';

export interface FuturesRoutesOptions {
  futures: FuturesService;
  requireUser: preHandlerAsyncHookHandler;
}

const id = idField;

const pageQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    tradcoin: coin,
    maincoin: coin,
  },
} as const;

/** Spec §3 "Futures order payload". Quantities and prices get the spec §5 rule's own message when missing. */
const orderBody = (withPrice: boolean) =>
  ({
    type: 'object',
    required: ['tradcoin', 'maincoin', 'lever'],
    properties: {
      maincoin: coin,
      tradcoin: coin,
      ...CLIENT_OID_BODY,
      ...(withPrice ? { price: money('Limit price in the main coin') } : {}),
      profitPrice: money('Take-profit trigger price (optional)'),
      lossPrice: money('Stop-loss trigger price (optional)'),
      number: money('Quantity in whole lots (lot = the contract unit in coins)'),
      lever: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        description: "One of the contract's leverage list",
      },
      style: {
        type: 'string',
        enum: ['limit', 'market', '1', '2'],
        description: 'Informative: the path decides',
      },
      tdMode: {
        type: 'string',
        enum: ['lsolate', 'cross'],
        default: 'cross',
        description: 'Margin mode; isolated is spelled "lsolate"',
      },
    },
  }) as const;

interface OrderBody extends Coins {
  price?: string;
  profitPrice?: string;
  lossPrice?: string;
  number?: string;
  lever: number;
  tdMode: TdMode;
}

interface PageQuery {
  page: number;
  limit: number;
  tradcoin?: string;
  maincoin?: string;
}

const ORDER_ROUTES = [
  { path: '/contract/buyLimit', side: 'buy', style: 'limit' },
  { path: '/contract/sellLimit', side: 'sell', style: 'limit' },
  { path: '/contract/buyMarket', side: 'buy', style: 'market' },
  { path: '/contract/sellMarket', side: 'sell', style: 'market' },
] as const;

const tpSlBody = {
  profitPrice: money('Take-profit price'),
  lossPrice: money('Stop-loss price'),
  number: money('Lots to close when it fires; empty closes the whole position'),
} as const;

/** Spec §7 "Contract"; `/contract/kline` is served by the market module. */
export function registerFuturesRoutes(http: FastifyInstance, options: FuturesRoutesOptions): void {
  registerMarketReads(http, options.futures);
  registerAccountReads(http, options);
  registerOrderWrites(http, options);
  registerPositionWrites(http, options);
}

function registerMarketReads(http: FastifyInstance, futures: FuturesService): void {
  const tags = ['futures'];
  http.get(
    '/contract/symbols',
    { schema: { tags, summary: 'Every contract (spec §3 Futures pair)' } },
    async () => ok(futures.symbols()),
  );
  http.get<{ Querystring: Coins }>(
    '/contract/contract',
    {
      schema: {
        tags,
        querystring: coinsQuery,
        summary: 'Contract info and its book: buy and sell, 7 rows each',
      },
    },
    async (request) => ok(futures.info(upperCoins(request.query))),
  );
  http.get<{ Querystring: Coins }>(
    '/contract/lever',
    { schema: { tags, querystring: coinsQuery, summary: 'The leverage list: [{lever}]' } },
    async (request) => ok(futures.levers(upperCoins(request.query))),
  );
}

function registerAccountReads(http: FastifyInstance, { futures, requireUser }: FuturesRoutesOptions): void {
  const guarded = { preHandler: requireUser };
  const schema = { tags: ['futures'], security: [{ token: [] }] };
  http.get<{ Querystring: Coins }>(
    '/contract/contractAccount',
    {
      ...guarded,
      schema: { ...schema, querystring: coinsQuery, summary: 'balance {usable} and entrust_order' },
    },
    async (request) => ok(await futures.account(currentUser(request).id, upperCoins(request.query))),
  );
  http.get<{ Querystring: { tradcoin?: string; maincoin?: string } }>(
    '/contract/position',
    {
      ...guarded,
      schema: {
        ...schema,
        querystring: optionalCoinsQuery,
        summary: 'Open positions (of one contract when given)',
      },
    },
    async (request) => ok(await futures.positions(currentUser(request).id, optionalCoins(request.query))),
  );
  http.get<{ Querystring: Coins }>(
    '/contract/positionByCoin',
    { ...guarded, schema: { ...schema, querystring: coinsQuery, summary: 'Open positions of one contract' } },
    async (request) => ok(await futures.positions(currentUser(request).id, upperCoins(request.query))),
  );
  const pages = [
    { path: '/contract/tradEntrust', open: true, summary: 'Open entrusts, newest first, paged' },
    {
      path: '/contract/tradOrder',
      open: false,
      summary: 'Finished entrusts (all, cancel, uncancel), newest first, paged',
    },
  ];
  for (const page of pages) {
    http.get<{ Querystring: PageQuery }>(
      page.path,
      { ...guarded, schema: { ...schema, querystring: pageQuery, summary: page.summary } },
      async (request) => {
        const query = request.query;
        return ok(
          await futures.entrustPage(
            currentUser(request).id,
            page.open,
            optionalCoins(query),
            query.page,
            query.limit,
          ),
        );
      },
    );
  }
  http.get<{ Querystring: PageQuery }>(
    '/contract/tradHistory',
    {
      ...guarded,
      schema: {
        ...schema,
        querystring: pageQuery,
        summary: 'Closed and liquidated positions (poster orders), paged',
      },
    },
    async (request) => {
      const query = request.query;
      return ok(
        await futures.historyPage(currentUser(request).id, optionalCoins(query), query.page, query.limit),
      );
    },
  );
  http.get<{ Querystring: { autoid?: number } }>(
    '/contract/profitLossOrder',
    {
      ...guarded,
      schema: {
        ...schema,
        querystring: { type: 'object', properties: { autoid: id } },
        summary: 'Active TP/SL orders (of one position when autoid is given)',
      },
    },
    async (request) => ok(futures.triggers(currentUser(request).id, request.query.autoid ?? null)),
  );
}

function registerOrderWrites(http: FastifyInstance, { futures, requireUser }: FuturesRoutesOptions): void {
  const schema = { tags: ['futures'], security: [{ token: [] }] };
  // A person places a few orders a second at most; this stops a script flooding the queue.
  const rateLimit = { max: 1200, timeWindow: '1 minute' };
  // On the core an order or a cancel is checked against the money state and answered from it, never from
  // SQL: it need not wait for the projection.
  const stateOnly = { preHandler: requireUser, config: { rateLimit, readsOnlyState: true } };
  for (const route of ORDER_ROUTES) {
    http.post<{ Body: OrderBody }>(
      route.path,
      { ...stateOnly, schema: { ...schema, body: orderBody(route.style === 'limit') } },
      async (request) => {
        const body = request.body;
        const view = await futures.placeForUser(currentUser(request).id, {
          ...upperCoins(body),
          side: route.side,
          style: route.style,
          price: route.style === 'limit' ? body.price : undefined,
          profitPrice: blankToUndefined(body.profitPrice),
          lossPrice: blankToUndefined(body.lossPrice),
          number: body.number ?? '',
          lever: body.lever,
          tdMode: body.tdMode,
        });
        return ok(view, 'futures.placed');
      },
    );
  }
  http.post<{ Body: { id: number } }>(
    '/contract/closeEntrust',
    {
      ...stateOnly,
      schema: {
        ...schema,
        summary: 'Cancel one open entrust (id = its autoid)',
        body: { type: 'object', required: ['id'], properties: { id } },
      },
    },
    async (request) =>
      ok(await futures.cancelForUser(currentUser(request).id, request.body.id), 'futures.cancelled'),
  );
}

function registerPositionWrites(http: FastifyInstance, { futures, requireUser }: FuturesRoutesOptions): void {
  const schema = { tags: ['futures'], security: [{ token: [] }] };
  const rateLimit = { max: 600, timeWindow: '1 minute' };
  // On the core a close or a TP/SL order finds its position (or trigger) in the money state, is checked
  // there and answered from it, never from SQL.
  const stateOnly = { preHandler: requireUser, config: { rateLimit, readsOnlyState: true } };
  http.post<{ Body: { autoid: number; number?: string } }>(
    '/contract/closePosition',
    {
      ...stateOnly,
      schema: {
        ...schema,
        summary: 'Close `number` lots of a position at market (partial close)',
        body: {
          type: 'object',
          required: ['autoid'],
          properties: { autoid: id, number: money('Lots to close'), ...CLIENT_OID_BODY },
        },
      },
    },
    async (request) => {
      const { autoid, number } = request.body;
      return ok(await futures.closePosition(currentUser(request).id, autoid, number ?? ''), 'futures.closed');
    },
  );
  http.post<{ Body: Coins }>(
    '/contract/closeCoinPosition',
    {
      ...stateOnly,
      schema: {
        ...schema,
        summary: 'Close every position of one contract at market',
        body: { ...coinsQuery, properties: { ...coinsQuery.properties, ...CLIENT_OID_BODY } },
      },
    },
    async (request) => {
      const closed = await futures.closeMany(currentUser(request).id, {
        coins: upperCoins(request.body),
        type: 'all',
      });
      return ok(closed, 'futures.allClosed', { count: closed.length });
    },
  );
  http.post<{ Body: { coin?: string; maincoin?: string; type: 'all' | 'buy' | 'sell' } }>(
    '/contract/closeAllPosition',
    {
      ...stateOnly,
      schema: {
        ...schema,
        summary: 'Close by side: every position (of coin when given) of type all, buy or sell',
        body: {
          type: 'object',
          required: ['type'],
          properties: {
            coin,
            maincoin: coin,
            type: { type: 'string', enum: ['all', 'buy', 'sell'] },
            ...CLIENT_OID_BODY,
          },
        },
      },
    },
    async (request) => {
      const { coin: tradcoin, maincoin, type } = request.body;
      const coins = tradcoin ? upperCoins({ tradcoin, maincoin: maincoin ?? 'USDT' }) : null;
      const closed = await futures.closeMany(currentUser(request).id, { coins, type });
      return ok(closed, 'futures.allClosed', { count: closed.length });
    },
  );
  http.post<{ Body: { autoid: number; profitPrice?: string; lossPrice?: string; number?: string } }>(
    '/contract/profitLoss',
    {
      ...stateOnly,
      schema: {
        ...schema,
        summary: 'Set a TP/SL order on a position (autoid)',
        body: {
          type: 'object',
          required: ['autoid'],
          properties: { autoid: id, ...tpSlBody, ...CLIENT_OID_BODY },
        },
      },
    },
    async (request) => {
      const { autoid, ...prices } = request.body;
      return ok(
        await futures.setTrigger(currentUser(request).id, { positionId: autoid, ...cleanTpSl(prices) }),
        'futures.tpSlSet',
      );
    },
  );
  http.post<{ Body: { id: number; profitPrice?: string; lossPrice?: string; number?: string } }>(
    '/contract/editProfitLoss',
    {
      ...stateOnly,
      schema: {
        ...schema,
        summary: 'Change a TP/SL order (id)',
        body: { type: 'object', required: ['id'], properties: { id, ...tpSlBody } },
      },
    },
    async (request) => {
      const { id: triggerId, ...prices } = request.body;
      return ok(
        await futures.editTrigger(currentUser(request).id, { triggerId, ...cleanTpSl(prices) }),
        'futures.tpSlSet',
      );
    },
  );
  http.post<{ Body: { id: number } }>(
    '/contract/closeProfitLoss',
    {
      ...stateOnly,
      schema: {
        ...schema,
        summary: 'Cancel a TP/SL order (id)',
        body: { type: 'object', required: ['id'], properties: { id } },
      },
    },
    async (request) =>
      ok(await futures.cancelTrigger(currentUser(request).id, request.body.id), 'futures.tpSlCancelled'),
  );
}

function cleanTpSl(prices: { profitPrice?: string; lossPrice?: string; number?: string }) {
  const profitPrice = blankToUndefined(prices.profitPrice);
  const lossPrice = blankToUndefined(prices.lossPrice);
  const number = blankToUndefined(prices.number);
  return {
    ...(profitPrice === undefined ? {} : { profitPrice }),
    ...(lossPrice === undefined ? {} : { lossPrice }),
    ...(number === undefined ? {} : { number }),
  };
}

function blankToUndefined(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}
