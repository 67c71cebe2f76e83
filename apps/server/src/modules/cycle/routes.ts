import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { currentUser } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { CLIENT_OID_BODY } from '../../http/idempotency.ts';
import {
  type Coins,
  coin,
  coinsQuery,
  optionalCoins,
  optionalCoinsQuery,
  upperCoins,
} from '../../http/pair-params.ts';
import type { CycleService } from './service.ts';

export interface CycleRoutesOptions {
  cycle: CycleService;
  /** The identity module's `token` guard. */
  requireUser: preHandlerAsyncHookHandler;
}

const pageQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 15, description: 'Spec §9: 15 per page' },
    tradcoin: coin,
    maincoin: coin,
  },
} as const;

/** The pair, pay coin and duration must be given; a missing stake gets the spec §5 rule's own message. */
const orderBody = {
  type: 'object',
  required: ['tradcoin', 'maincoin', 'paycoin', 'lever'],
  properties: {
    tradcoin: coin,
    maincoin: coin,
    paycoin: coin,
    number: { type: 'string', maxLength: 40, description: 'The stake, in the pay coin (decimal string)' },
    ...CLIENT_OID_BODY,
    lever: {
      type: 'integer',
      minimum: 1,
      maximum: 86_400,
      description: 'Duration in seconds, one of the pair options',
    },
  },
} as const;

interface OrderBody extends Coins {
  paycoin: string;
  number?: string;
  lever: number;
}

interface PageQuery {
  page: number;
  limit: number;
  tradcoin?: string;
  maincoin?: string;
}

/**
 * The only two routes that write to the cycle tables: they accept an order.
 * Nothing else in the module writes, and there is no route, setting or admin
 * action that settles, edits or cancels an order (AMENDMENTS A3).
 */
export const CYCLE_ORDER_ROUTES = [
  {
    path: '/cycle/buyMarket',
    side: 'buy',
    summary: 'Open an up contract: wins if the index closes above the open',
  },
  {
    path: '/cycle/sellMarket',
    side: 'sell',
    summary: 'Open a down contract: wins if the index closes below the open',
  },
] as const;

/** Spec §7 "Cycle"; `/cycle/kline` is served by the market module. */
export function registerCycleRoutes(http: FastifyInstance, options: CycleRoutesOptions): void {
  registerMarketReads(http, options.cycle);
  registerAccountReads(http, options);
  registerOrderWrites(http, options);
}

function registerMarketReads(http: FastifyInstance, cycle: CycleService): void {
  const tags = ['cycle'];
  http.get(
    '/cycle/symbols',
    { schema: { tags, summary: 'Every cycle pair (spec §3 Cycle pair info)' } },
    async () => ok(cycle.symbols()),
  );
  http.get<{ Querystring: Coins }>(
    '/cycle/info',
    {
      schema: {
        tags,
        querystring: coinsQuery,
        summary: 'One pair: price, rise, high, low, new_date, pay coins, durations',
      },
    },
    async (request) => ok(cycle.info(upperCoins(request.query))),
  );
  http.get<{ Querystring: Coins }>(
    '/cycle/topOrders',
    {
      schema: {
        tags,
        querystring: coinsQuery,
        summary: 'The latest 20 settled orders of the pair: time, direction, income, last profit',
      },
    },
    async (request) => ok(await cycle.topOrders(upperCoins(request.query))),
  );
}

function registerAccountReads(http: FastifyInstance, { cycle, requireUser }: CycleRoutesOptions): void {
  const guarded = { preHandler: requireUser };
  const schema = { tags: ['cycle'], security: [{ token: [] }] };
  http.get<{ Querystring: { tradcoin?: string; maincoin?: string } }>(
    '/cycle/positionByCoin',
    {
      ...guarded,
      schema: { ...schema, querystring: optionalCoinsQuery, summary: 'Open positions, newest first' },
    },
    async (request) => ok(cycle.positions(currentUser(request).id, optionalCoins(request.query))),
  );
  http.get<{ Querystring: { orderId: number } }>(
    '/cycle/positionById',
    {
      ...guarded,
      schema: {
        ...schema,
        summary: 'One order as a one-item list, with open and close prices, times and source once settled',
        querystring: {
          type: 'object',
          required: ['orderId'],
          properties: { orderId: idField },
        },
      },
    },
    async (request) => ok(await cycle.positionById(currentUser(request).id, request.query.orderId)),
  );
  const pages = [
    {
      path: '/cycle/tradHistory',
      byCoin: false,
      summary: 'Settled orders of every pair, newest first, paged',
    },
    {
      path: '/cycle/tradHistoryByCoin',
      byCoin: true,
      summary: 'Settled orders of one pair, newest first, paged',
    },
  ];
  for (const { path, byCoin, summary } of pages) {
    http.get<{ Querystring: PageQuery }>(
      path,
      {
        ...guarded,
        schema: {
          ...schema,
          querystring: byCoin ? { ...pageQuery, required: ['tradcoin', 'maincoin'] } : pageQuery,
          summary,
        },
      },
      async (request) => {
        const { page, limit } = request.query;
        const coins = optionalCoins(request.query);
        return ok(await cycle.history(currentUser(request).id, coins, page, limit));
      },
    );
  }
}

function registerOrderWrites(http: FastifyInstance, { cycle, requireUser }: CycleRoutesOptions): void {
  const schema = { tags: ['cycle'], security: [{ token: [] }], body: orderBody };
  // A person opens a few contracts a minute; this stops a script flooding the settlement queue.
  const limited = { preHandler: requireUser, config: { rateLimit: { max: 120, timeWindow: '1 minute' } } };
  for (const route of CYCLE_ORDER_ROUTES) {
    http.post<{ Body: OrderBody }>(
      route.path,
      { ...limited, schema: { ...schema, summary: route.summary } },
      async (request) => {
        const body = request.body;
        const position = await cycle.place(currentUser(request).id, {
          ...upperCoins(body),
          side: route.side,
          number: body.number ?? '',
          paycoin: body.paycoin.toUpperCase(),
          lever: body.lever,
        });
        return ok(position, 'cycle.placed');
      },
    );
  }
}
