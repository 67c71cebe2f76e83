import { Dec } from '@halyard/money';
import type { MarketKind } from '@halyard/protocol';
import type { Executor } from '../store/database.ts';

export interface IndexPricesTable {
  coin: string;
  ts: number;
  price: string;
  source: string;
}

export interface KlinesTable {
  kind: MarketKind;
  pair: string;
  period: number;
  start: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  first_ts: number;
  last_ts: number;
}

export interface MarketHistorySeedsTable {
  kind: MarketKind;
  pair: string;
  seeded_at: number;
}

declare module '../store/database.ts' {
  interface Database {
    index_prices: IndexPricesTable;
    klines: KlinesTable;
    market_history_seeds: MarketHistorySeedsTable;
  }
}

/** A recorded index price. */
export interface IndexTick {
  coin: string;
  price: Dec;
  ts: number;
  source: string;
}

/** One K-line bar; `firstTs`/`lastTs` are the times of its opening and closing prices. */
export interface Candle {
  kind: MarketKind;
  pair: string;
  period: number;
  start: number;
  open: Dec;
  high: Dec;
  low: Dec;
  close: Dec;
  volume: Dec;
  firstTs: number;
  lastTs: number;
}

/** Identifies one series: a market's bars of one period. */
export interface SeriesRef {
  kind: MarketKind;
  pair: string;
  period: number;
}

export async function insertIndexTicks(db: Executor, ticks: readonly IndexTick[]): Promise<void> {
  if (ticks.length === 0) return;
  const rows = ticks.map((tick) => ({
    coin: tick.coin,
    ts: tick.ts,
    price: tick.price.toString(),
    source: tick.source,
  }));
  // Two ticks in the same millisecond (a test clock that did not move): the later one stands.
  await db
    .insertInto('index_prices')
    .values(rows)
    .onConflict((conflict) =>
      conflict.columns(['coin', 'ts']).doUpdateSet((eb) => ({
        price: eb.ref('excluded.price'),
        source: eb.ref('excluded.source'),
      })),
    )
    .execute();
}

function toIndexTick(row: IndexPricesTable): IndexTick {
  return { coin: row.coin, ts: Number(row.ts), price: Dec.parse(row.price), source: row.source };
}

/** The recorded tick at `ts` or the latest one before it. */
export async function selectIndexTickAtOrBefore(
  db: Executor,
  coin: string,
  ts: number,
): Promise<IndexTick | null> {
  const row = await db
    .selectFrom('index_prices')
    .selectAll()
    .where('coin', '=', coin)
    .where('ts', '<=', ts)
    .orderBy('ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toIndexTick(row) : null;
}

/** The newest recorded tick of each coin (a restarted simulator continues from them). */
export async function selectLatestIndexTicks(db: Executor): Promise<IndexTick[]> {
  const latest = db
    .selectFrom('index_prices')
    .select(['coin'])
    .select((eb) => eb.fn.max('ts').as('ts'))
    .groupBy('coin')
    .as('latest');
  const rows = await db
    .selectFrom('index_prices')
    .innerJoin(latest, (join) =>
      join.onRef('latest.coin', '=', 'index_prices.coin').onRef('latest.ts', '=', 'index_prices.ts'),
    )
    .selectAll('index_prices')
    .execute();
  return rows.map(toIndexTick);
}

export async function deleteIndexTicksBefore(db: Executor, ts: number): Promise<void> {
  await db.deleteFrom('index_prices').where('ts', '<', ts).execute();
}

function toCandle(row: KlinesTable): Candle {
  return {
    kind: row.kind,
    pair: row.pair,
    period: Number(row.period),
    start: Number(row.start),
    open: Dec.parse(row.open),
    high: Dec.parse(row.high),
    low: Dec.parse(row.low),
    close: Dec.parse(row.close),
    volume: Dec.parse(row.volume),
    firstTs: Number(row.first_ts),
    lastTs: Number(row.last_ts),
  };
}

function toRow(candle: Candle): KlinesTable {
  return {
    kind: candle.kind,
    pair: candle.pair,
    period: candle.period,
    start: candle.start,
    open: candle.open.toString(),
    high: candle.high.toString(),
    low: candle.low.toString(),
    close: candle.close.toString(),
    volume: candle.volume.toString(),
    first_ts: candle.firstTs,
    last_ts: candle.lastTs,
  };
}

/** Rows per INSERT statement: 11 columns each stays well under SQLite's bound-parameter limit. */
const UPSERT_CHUNK = 500;

/** Writes whole bars: the caller has already merged them with what is stored. */
export async function upsertCandles(db: Executor, candles: readonly Candle[]): Promise<void> {
  for (let index = 0; index < candles.length; index += UPSERT_CHUNK) {
    await upsertChunk(db, candles.slice(index, index + UPSERT_CHUNK));
  }
}

async function upsertChunk(db: Executor, candles: readonly Candle[]): Promise<void> {
  await db
    .insertInto('klines')
    .values(candles.map(toRow))
    .onConflict((conflict) =>
      conflict.columns(['kind', 'pair', 'period', 'start']).doUpdateSet((eb) => ({
        open: eb.ref('excluded.open'),
        high: eb.ref('excluded.high'),
        low: eb.ref('excluded.low'),
        close: eb.ref('excluded.close'),
        volume: eb.ref('excluded.volume'),
        first_ts: eb.ref('excluded.first_ts'),
        last_ts: eb.ref('excluded.last_ts'),
      })),
    )
    .execute();
}

export async function selectCandle(db: Executor, series: SeriesRef, start: number): Promise<Candle | null> {
  const row = await db
    .selectFrom('klines')
    .selectAll()
    .where('kind', '=', series.kind)
    .where('pair', '=', series.pair)
    .where('period', '=', series.period)
    .where('start', '=', start)
    .executeTakeFirst();
  return row ? toCandle(row) : null;
}

/** Bars per SELECT in selectCandlesAt: two bound parameters each. */
const SELECT_CHUNK = 400;

/**
 * The stored bars among `bars` (each a series and a start), in no order:
 * one statement per market and chunk, the periods and starts as row values.
 */
export async function selectCandlesAt(
  db: Executor,
  bars: Iterable<SeriesRef & { start: number }>,
): Promise<Candle[]> {
  const byMarket = new Map<string, { kind: MarketKind; pair: string; at: [number, number][] }>();
  for (const bar of bars) {
    const marketId = `${bar.kind}|${bar.pair}`;
    let market = byMarket.get(marketId);
    if (!market) {
      market = { kind: bar.kind, pair: bar.pair, at: [] };
      byMarket.set(marketId, market);
    }
    market.at.push([bar.period, bar.start]);
  }
  const found: Candle[] = [];
  for (const { kind, pair, at } of byMarket.values()) {
    for (let index = 0; index < at.length; index += SELECT_CHUNK) {
      const chunk = at.slice(index, index + SELECT_CHUNK);
      const rows = await db
        .selectFrom('klines')
        .selectAll()
        .where('kind', '=', kind)
        .where('pair', '=', pair)
        .where(({ eb, refTuple, tuple }) =>
          eb(
            refTuple('period', 'start'),
            'in',
            chunk.map(([period, start]) => tuple(period, start)),
          ),
        )
        .execute();
      found.push(...rows.map(toCandle));
    }
  }
  return found;
}

/** The `count` newest bars starting before `before` (exclusive), oldest first. */
export async function selectCandlesBefore(
  db: Executor,
  series: SeriesRef,
  before: number,
  count: number,
): Promise<Candle[]> {
  const rows = await db
    .selectFrom('klines')
    .selectAll()
    .where('kind', '=', series.kind)
    .where('pair', '=', series.pair)
    .where('period', '=', series.period)
    .where('start', '<', before)
    .orderBy('start', 'desc')
    .limit(count)
    .execute();
  return rows.map(toCandle).reverse();
}

/** Every stored bar of `period` starting at or after `from`, across all markets, oldest first. */
export async function selectCandlesSince(db: Executor, period: number, from: number): Promise<Candle[]> {
  const rows = await db
    .selectFrom('klines')
    .selectAll()
    .where('period', '=', period)
    .where('start', '>=', from)
    .orderBy('start', 'asc')
    .execute();
  return rows.map(toCandle);
}

/** The newest bar of `period` of each market starting before `before`. */
export async function selectLastCandlesBefore(
  db: Executor,
  period: number,
  before: number,
): Promise<Candle[]> {
  const latest = db
    .selectFrom('klines')
    .select(['kind', 'pair'])
    .select((eb) => eb.fn.max('start').as('start'))
    .where('period', '=', period)
    .where('start', '<', before)
    .groupBy(['kind', 'pair'])
    .as('latest');
  const rows = await db
    .selectFrom('klines')
    .innerJoin(latest, (join) =>
      join
        .onRef('latest.kind', '=', 'klines.kind')
        .onRef('latest.pair', '=', 'klines.pair')
        .onRef('latest.start', '=', 'klines.start'),
    )
    .selectAll('klines')
    .where('klines.period', '=', period)
    .execute();
  return rows.map(toCandle);
}

/** Whether the market's history has been seeded, or it has bars of its own: either way it gets no seeded history. */
export async function hasHistory(db: Executor, kind: MarketKind, pair: string): Promise<boolean> {
  const seeded = await db
    .selectFrom('market_history_seeds')
    .select('kind')
    .where('kind', '=', kind)
    .where('pair', '=', pair)
    .executeTakeFirst();
  if (seeded) return true;
  const bar = await db
    .selectFrom('klines')
    .select('start')
    .where('kind', '=', kind)
    .where('pair', '=', pair)
    .limit(1)
    .executeTakeFirst();
  return bar !== undefined;
}

export async function insertHistorySeed(
  db: Executor,
  kind: MarketKind,
  pair: string,
  at: number,
): Promise<void> {
  await db
    .insertInto('market_history_seeds')
    .values({ kind, pair, seeded_at: at })
    .onConflict((conflict) => conflict.columns(['kind', 'pair']).doNothing())
    .execute();
}
