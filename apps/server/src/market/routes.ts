import { KLINE_MINUTES, MARKET_KINDS, type MarketKind } from '@halyard/protocol';
import type { FastifyInstance } from 'fastify';
import { MAX_EPOCH_MS } from '../http/bounds.ts';
import { ok } from '../http/envelope.ts';
import { badRequest } from '../http/errors.ts';
import { KLINE_DEFAULT_COUNT, KLINE_MAX_COUNT, pageEnd, periodFor } from './kline.ts';
import { parsePairName } from './pair.ts';
import type { MarketData } from './service.ts';

interface KlineQuery {
  pairname: string;
  type: number;
  mine: number;
  count: number;
  date: number;
}

const klineQuerySchema = {
  type: 'object',
  required: ['pairname'],
  properties: {
    pairname: {
      type: 'string',
      minLength: 2,
      maxLength: 41,
      description: 'Trade coin first: BTC/USDT, BTC_USDT or BTCUSDT',
    },
    type: {
      type: 'integer',
      enum: [-1, 0, 1, 2],
      default: 0,
      description: '-1 minute line, 0 intraday bars, 1 day, 2 week',
    },
    mine: { type: 'integer', enum: [...KLINE_MINUTES], default: 1, description: 'Bar length in minutes' },
    count: { type: 'integer', minimum: 1, maximum: KLINE_MAX_COUNT, default: KLINE_DEFAULT_COUNT },
    date: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_EPOCH_MS,
      default: 0,
      description:
        '0 for the newest bars; else the end (exclusive) as epoch ms or packed yyyymmddhhmmss (UTC)',
    },
  },
} as const;

const klineResponseDescription =
  'data.series: rows "yyyymmddhhmmss|open|high|low|close|volume", oldest first; the packed time is the bar start in UTC';

/** GET /trad/kline, /contract/kline and /cycle/kline (spec §7): the same query on each market kind. */
export function registerMarketRoutes(http: FastifyInstance, market: MarketData): void {
  for (const kind of MARKET_KINDS) registerKlineRoute(http, market, kind);
}

function registerKlineRoute(http: FastifyInstance, market: MarketData, kind: MarketKind): void {
  http.get<{ Querystring: KlineQuery }>(
    `/${kind}/kline`,
    {
      schema: { tags: ['market'], querystring: klineQuerySchema, description: klineResponseDescription },
      // Up to 1000 bars a call: generous for a chart, a bound for a scraper.
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { pairname, type, mine, count, date } = request.query;
      const coins = parsePairName(pairname);
      if (!coins) throw badRequest('common.invalidParams', { field: 'pairname' });
      const end = pageEnd(date);
      if (Number.isNaN(end)) throw badRequest('common.invalidParams', { field: 'date' });
      // The schema's enums make every (type, mine) pair map to a period.
      const period = periodFor(type, mine) ?? 1;
      const series = await market.series({ kind, ...coins }, period, count, end);
      return ok({ pairname: `${coins.tradcoin}/${coins.maincoin}`, type, mine: period, series });
    },
  );
}
