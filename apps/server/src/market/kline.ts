import { Dec } from '@halyard/money';
import { KLINE_MINUTES, type KlineMinutes, type MarketKind } from '@halyard/protocol';
import type { Db, Executor } from '../store/database.ts';
import { type Candle, type SeriesRef, selectCandle, selectCandlesBefore, upsertCandles } from './store.ts';

export type { Candle, SeriesRef } from './store.ts';

/** One price print: a trade, or an index tick with zero amount. */
export interface Print {
  price: Dec;
  amount: Dec;
  ts: number;
}

const MINUTE_MS = 60_000;
const WEEK_MS = 7 * 24 * 60 * MINUTE_MS;
/** 1970-01-05 00:00 UTC, the first Monday of the epoch: week bars start on Monday. */
const FIRST_MONDAY_MS = 4 * 24 * 60 * MINUTE_MS;

export const KLINE_DEFAULT_COUNT = 300;
export const KLINE_MAX_COUNT = 1000;

/**
 * Start of the bar of `periodMinutes` that holds `ts`. Bars are aligned in
 * UTC: 4-hour bars at 00, 04, 08…, day bars at midnight, week bars on Monday
 * 00:00.
 */
export function bucketStart(ts: number, periodMinutes: KlineMinutes): number {
  if (periodMinutes === 10080)
    return FIRST_MONDAY_MS + Math.floor((ts - FIRST_MONDAY_MS) / WEEK_MS) * WEEK_MS;
  const periodMs = periodMinutes * MINUTE_MS;
  return Math.floor(ts / periodMs) * periodMs;
}

/**
 * The spec's packed date-time of an instant, in UTC: yyyymmdd × 1,000,000 +
 * hhmmss (2026-01-05 08:30:00 → 20260105083000). Divide by 1,000,000 for the
 * date; the remainder is the time.
 */
export function packTime(ts: number): number {
  const date = new Date(ts);
  const ymd = date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
  const hms = date.getUTCHours() * 10_000 + date.getUTCMinutes() * 100 + date.getUTCSeconds();
  return ymd * 1_000_000 + hms;
}

/** The instant of a packed date-time (UTC); NaN when the digits are not a real date and time. */
export function unpackTime(packed: number): number {
  const ymd = Math.floor(packed / 1_000_000);
  const hms = packed % 1_000_000;
  const [year, month, day] = [Math.floor(ymd / 10_000), Math.floor(ymd / 100) % 100, ymd % 100];
  const [hour, minute, second] = [Math.floor(hms / 10_000), Math.floor(hms / 100) % 100, hms % 100];
  const ts = Date.UTC(year, month - 1, day, hour, minute, second);
  return packTime(ts) === packed ? ts : Number.NaN;
}

/** Packed date-times have 14 digits; epoch milliseconds stay below 10^13 until the year 2286. */
const PACKED_MIN = 10_000_000_000_000;

/**
 * The `date` paging parameter: 0 for the newest bars, otherwise the end
 * (exclusive) of the page, as epoch milliseconds or as a packed date-time
 * (what the oldest row of the previous page carries). NaN when invalid.
 */
export function pageEnd(date: number): number {
  if (date === 0) return Number.MAX_SAFE_INTEGER;
  return date >= PACKED_MIN ? unpackTime(date) : date;
}

/** One row of the spec's series: `packed|open|high|low|close|volume`. */
export function formatSeriesRow(candle: Candle): string {
  const { open, high, low, close, volume } = candle;
  return `${packTime(candle.start)}|${open}|${high}|${low}|${close}|${volume}`;
}

/**
 * Spec §9 period codes to a bar length: type -1 is the minute line (1-minute
 * bars), type 1 the day, type 2 the week; otherwise `mine` is the length.
 * Null when `mine` is not one of the periods.
 */
export function periodFor(type: number, mine: number): KlineMinutes | null {
  if (type === -1) return 1;
  if (type === 1) return 1440;
  if (type === 2) return 10080;
  return (KLINE_MINUTES as readonly number[]).includes(mine) ? (mine as KlineMinutes) : null;
}

export function newCandle(series: SeriesRef, start: number, print: Print): Candle {
  return {
    ...series,
    start,
    open: print.price,
    high: print.price,
    low: print.price,
    close: print.price,
    volume: print.amount,
    firstTs: print.ts,
    lastTs: print.ts,
  };
}

/**
 * Adds a print to its bar, in place. Open is the earliest print and close the
 * latest; on equal times the one that arrived first opens and the one that
 * arrived last closes.
 */
export function applyPrint(candle: Candle, print: Print): void {
  if (print.price.gt(candle.high)) candle.high = print.price;
  if (print.price.lt(candle.low)) candle.low = print.price;
  candle.volume = candle.volume.add(print.amount);
  if (print.ts < candle.firstTs) {
    candle.open = print.price;
    candle.firstTs = print.ts;
  }
  if (print.ts >= candle.lastTs) {
    candle.close = print.price;
    candle.lastTs = print.ts;
  }
}

/** Two aggregates of the same bar, `later` holding the prints that arrived after `earlier`'s. */
export function mergeCandles(earlier: Candle, later: Candle): Candle {
  const opensLater = later.firstTs < earlier.firstTs;
  const closesLater = later.lastTs >= earlier.lastTs;
  return {
    ...earlier,
    open: opensLater ? later.open : earlier.open,
    firstTs: opensLater ? later.firstTs : earlier.firstTs,
    close: closesLater ? later.close : earlier.close,
    lastTs: closesLater ? later.lastTs : earlier.lastTs,
    high: Dec.max(earlier.high, later.high),
    low: Dec.min(earlier.low, later.low),
    volume: earlier.volume.add(later.volume),
  };
}

function seriesKey(series: SeriesRef): string {
  return `${series.kind}|${series.pair}|${series.period}`;
}

/** A bar's key: its series and start. */
export function candleKey(series: SeriesRef, start: number): string {
  return `${seriesKey(series)}|${start}`;
}

/**
 * Partial bars of all eight periods built from prints, in memory: what the
 * prints of one flush (KlineAggregator) or one projector batch
 * (kline-writer.ts) add to the stored bars.
 */
export class PartialBars {
  private bars = new Map<string, Candle>();
  /**
   * Per market, the bar each period last touched (indexed like
   * KLINE_MINUTES): consecutive prints mostly land in the same bars, and this
   * spares them the key building and map lookups. Cleared with `bars`.
   */
  private hot = new Map<string, Array<Candle | undefined>>();

  get size(): number {
    return this.bars.size;
  }

  /** Adds a print to every period of a market's bars. */
  record(kind: MarketKind, pair: string, print: Print): void {
    const marketId = `${kind}|${pair}`;
    let hot = this.hot.get(marketId);
    if (!hot) {
      hot = [];
      this.hot.set(marketId, hot);
    }
    for (const [index, period] of KLINE_MINUTES.entries()) {
      const start = bucketStart(print.ts, period);
      const current = hot[index];
      if (current && current.start === start) {
        applyPrint(current, print);
        continue;
      }
      const series: SeriesRef = { kind, pair, period };
      const key = candleKey(series, start);
      let candle = this.bars.get(key);
      if (candle) applyPrint(candle, print);
      else {
        candle = newCandle(series, start, print);
        this.bars.set(key, candle);
      }
      hot[index] = candle;
    }
  }

  /** The bars gathered, by key; this starts empty again. */
  take(): Map<string, Candle> {
    const taken = this.bars;
    this.bars = new Map();
    this.hot = new Map();
    return taken;
  }

  /** Puts bars taken earlier back in front of those recorded since (a write that failed). */
  restore(earlier: Map<string, Candle>): void {
    for (const [key, candle] of this.bars) {
      const first = earlier.get(key);
      earlier.set(key, first ? mergeCandles(first, candle) : candle);
    }
    this.bars = earlier;
    this.hot = new Map();
  }
}

/**
 * Merges each partial bar into the stored one (`stored`: null when the bar
 * is new) and writes the results; answers them. The one read-merge-write of
 * bars, for the aggregator's flush and the projector's batch alike.
 */
export async function writeMerged(
  db: Executor,
  partials: Iterable<Candle>,
  stored: (partial: Candle) => Promise<Candle | null>,
): Promise<Candle[]> {
  const bars: Candle[] = [];
  for (const partial of partials) {
    const before = await stored(partial);
    bars.push(before ? mergeCandles(before, partial) : partial);
  }
  await upsertCandles(db, bars);
  return bars;
}

export interface AggregatorOptions {
  db: Db;
  /** Prints are gathered this long before one write per bar (group commit). */
  flushDelayMs?: number;
  /** Past this many pending bars a flush starts at once instead of after the delay. */
  maxPendingCandles?: number;
  /** Called with the bars of each committed flush. */
  onFlushed: (candles: readonly Candle[]) => void;
  /** Where a failed background flush goes; its prints stay pending for the next one. */
  onError: (error: unknown) => void;
}

/**
 * Builds the bars of all eight periods from prints and keeps them in the
 * `klines` table: the SQL path's K-lines (on the sequenced core the
 * projector writes them, kline-writer.ts). Prints gather in memory as
 * partial bars; a flush merges each with the stored bar and writes it once,
 * all in one transaction.
 */
export class KlineAggregator {
  private readonly pending = new PartialBars();
  /** The newest stored bar of each series, or null when the series has none: most prints land in it. */
  private readonly newest = new Map<string, Candle | null>();
  private readonly flushDelayMs: number;
  private readonly maxPendingCandles: number;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<Candle[]> = Promise.resolve([]);

  constructor(private readonly options: AggregatorOptions) {
    this.flushDelayMs = options.flushDelayMs ?? 100;
    this.maxPendingCandles = options.maxPendingCandles ?? 10_000;
  }

  /** Adds a print to every period of a market's bars; written by the next flush. */
  record(kind: MarketKind, pair: string, print: Print): void {
    this.pending.record(kind, pair, print);
    this.scheduleFlush();
  }

  /** Writes every pending bar; resolves with the merged bars once committed. Flushes run one at a time. */
  flush(): Promise<Candle[]> {
    const next = this.flushing.catch(() => []).then(() => this.flushPending());
    this.flushing = next;
    return next;
  }

  /** Up to `count` bars of a series starting before `before`, oldest first, pending prints included. */
  async series(series: SeriesRef, count: number, before: number): Promise<Candle[]> {
    await this.flush();
    return selectCandlesBefore(this.options.db, series, before, count);
  }

  /** Forgets the newest stored bars it knew: bars were written beside it (seeded history). */
  forgetNewest(): void {
    this.newest.clear();
  }

  /** Stops the timer and writes what is pending. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private scheduleFlush(): void {
    const now = this.pending.size >= this.maxPendingCandles;
    if (this.timer && !now) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.flush().catch((error: unknown) => this.options.onError(error));
      },
      now ? 0 : this.flushDelayMs,
    );
    this.timer.unref();
  }

  private async flushPending(): Promise<Candle[]> {
    if (this.pending.size === 0) return [];
    const batch = this.pending.take();
    try {
      const merged = await this.options.db
        .transaction()
        .execute((trx) => writeMerged(trx, batch.values(), (partial) => this.storedBar(trx, partial)));
      for (const bar of merged) this.rememberNewest(bar);
      this.options.onFlushed(merged);
      return merged;
    } catch (error) {
      // A failed flush puts its bars back in front of anything recorded since.
      this.pending.restore(batch);
      this.scheduleFlush();
      throw error;
    }
  }

  /** The stored bar a partial one merges into, read only when it is not the newest one already known. */
  private async storedBar(db: Executor, partial: Candle): Promise<Candle | null> {
    const key = seriesKey(partial);
    if (!this.newest.has(key)) {
      const [latest] = await selectCandlesBefore(db, partial, Number.MAX_SAFE_INTEGER, 1);
      this.newest.set(key, latest ?? null);
    }
    const newest = this.newest.get(key) ?? null;
    if (newest === null || partial.start > newest.start) return null;
    if (partial.start === newest.start) return newest;
    return selectCandle(db, partial, partial.start);
  }

  private rememberNewest(bar: Candle): void {
    const key = seriesKey(bar);
    const newest = this.newest.get(key);
    if (!newest || bar.start >= newest.start) this.newest.set(key, bar);
  }
}
