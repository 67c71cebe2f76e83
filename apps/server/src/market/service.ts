import { Dec } from '@halyard/money';
import {
  INFO_PUSH_TYPE,
  type KlineMinutes,
  type MarketRef,
  type MarketTicker,
  marketKey,
  subscriptionKey,
} from '@halyard/protocol';
import type { Clock } from '../clock.ts';
import type { MoneyCoreHandle } from '../money-core/handle.ts';
import type { Publisher } from '../realtime/publisher.ts';
import type { Db } from '../store/database.ts';
import { formatSeriesRow, KlineAggregator, type Print } from './kline.ts';
import { pairName, splitPair } from './pair.ts';
import { ProjectedBars } from './projected-bars.ts';
import {
  type Candle,
  hasHistory,
  insertHistorySeed,
  type SeriesRef,
  selectCandlesSince,
  selectLastCandlesBefore,
  upsertCandles,
} from './store.ts';
import { TickerBook, windowStart } from './ticker.ts';

export interface MarketDataOptions {
  db: Db;
  clock: Clock;
  publisher: Publisher;
  onError: (error: unknown) => void;
  flushDelayMs?: number;
  /**
   * The sequenced core, when the money runs on it: its projector writes the
   * bars from the core's trades and index prices (kline-writer.ts), and
   * nothing here records prints.
   */
  core?: MoneyCoreHandle;
}

/** Where the bars are kept: the aggregator on SQL, the projector's writes on the core. */
interface Bars {
  flush(): Promise<unknown>;
  series(series: SeriesRef, count: number, before: number): Promise<Candle[]>;
  close(): Promise<void>;
}

/**
 * Market data of every market: K-line bars and 24-hour tickers, fed with the
 * prints of committed trades (or index ticks for markets without trades), and
 * pushed live as each batch of bars is committed: `kline` to the market's
 * period subscribers and the ticker as `info` (spot) or `coninfo` (futures).
 *
 * On SQL the modules record their prints here, and the aggregator writes
 * the bars. On the core the projector writes them from the core's events,
 * and this announces the bars it wrote (projected-bars.ts).
 */
export class MarketData {
  /** The SQL path's: null on the core. */
  private readonly aggregator: KlineAggregator | null;
  private readonly bars: Bars;
  private readonly tickers: TickerBook;

  constructor(private readonly options: MarketDataOptions) {
    this.tickers = new TickerBook(options.clock);
    const delay = options.flushDelayMs === undefined ? {} : { flushDelayMs: options.flushDelayMs };
    if (options.core) {
      this.aggregator = null;
      this.bars = new ProjectedBars({
        db: options.db,
        core: options.core,
        onWritten: (bars) => this.announce(bars),
        onError: options.onError,
        ...delay,
      });
    } else {
      this.aggregator = new KlineAggregator({
        db: options.db,
        onFlushed: (bars) => this.announce(bars),
        onError: options.onError,
        ...delay,
      });
      this.bars = this.aggregator;
    }
  }

  /** Fills the tickers from the stored 1-minute bars of the last 24 hours (on the core, once SQL holds the core's). */
  async load(): Promise<void> {
    await this.bars.flush();
    const start = windowStart(this.options.clock.now());
    for (const bar of await selectLastCandlesBefore(this.options.db, 1, start)) this.tickers.apply(bar);
    for (const bar of await selectCandlesSince(this.options.db, 1, start)) this.tickers.apply(bar);
  }

  /** Whether the modules record their prints here (the SQL path); on the core the projector charts them. */
  get recordsPrints(): boolean {
    return this.aggregator !== null;
  }

  /** Committed trades of a market: price, amount in the trade coin, time. The SQL path's only (`recordsPrints`). */
  recordTrades(market: MarketRef, prints: readonly Print[]): void {
    if (!this.aggregator) throw new Error('market data: on the core the projector writes the K-lines');
    const pair = pairName(market);
    for (const print of prints) this.aggregator.record(market.kind, pair, print);
  }

  /** A price without a trade (an index tick): moves the bars and the ticker, adds no volume. */
  recordPrice(market: MarketRef, price: Dec, ts: number): void {
    this.recordTrades(market, [{ price, amount: Dec.ZERO, ts }]);
  }

  /** Whether the market has history: seeded before, or bars of its own. */
  async hasHistory(market: MarketRef): Promise<boolean> {
    await this.bars.flush();
    return hasHistory(this.options.db, market.kind, pairName(market));
  }

  /**
   * Seeded history of a market that has none (demo mode, history.ts): the
   * bars and the market's seed marker are written in one transaction, then
   * the ticker takes the bars. False, and nothing written, when the market
   * already has history.
   */
  async importHistory(market: MarketRef, bars: readonly Candle[]): Promise<boolean> {
    await this.bars.flush();
    const pair = pairName(market);
    const written = await this.options.db.transaction().execute(async (trx) => {
      if (await hasHistory(trx, market.kind, pair)) return false;
      await upsertCandles(trx, bars);
      await insertHistorySeed(trx, market.kind, pair, this.options.clock.now());
      return true;
    });
    if (!written) return false;
    // The next live print of this market merges into the seeded bar of its period, read from the store.
    this.aggregator?.forgetNewest();
    for (const bar of bars) this.tickers.apply(bar);
    return true;
  }

  /**
   * Writes pending bars now and announces them (tests, shutdown); otherwise
   * that happens after a short delay. On the core: announces the bars of
   * every print published so far, once the projector has written them.
   */
  async flush(): Promise<void> {
    await this.bars.flush();
  }

  /** Up to `count` bars of `period` ending before `end` (exclusive), in the spec's packed series form. */
  async series(market: MarketRef, period: KlineMinutes, count: number, end: number): Promise<string[]> {
    const bars = await this.bars.series({ kind: market.kind, pair: pairName(market), period }, count, end);
    return bars.map(formatSeriesRow);
  }

  ticker(market: MarketRef): MarketTicker | null {
    return this.tickers.ticker(market.kind, pairName(market));
  }

  async close(): Promise<void> {
    await this.bars.close();
  }

  private announce(bars: readonly Candle[]): void {
    const touched = new Map<string, { market: MarketRef; byPeriod: Map<number, Candle[]> }>();
    for (const bar of bars) {
      this.tickers.apply(bar);
      const marketId = `${bar.kind}|${bar.pair}`;
      let entry = touched.get(marketId);
      if (!entry) {
        entry = { market: { kind: bar.kind, ...splitPair(bar.pair) }, byPeriod: new Map() };
        touched.set(marketId, entry);
      }
      const periodBars = entry.byPeriod.get(bar.period) ?? [];
      periodBars.push(bar);
      entry.byPeriod.set(bar.period, periodBars);
    }
    for (const { market, byPeriod } of touched.values()) {
      this.publishTicker(market);
      for (const [period, periodBars] of byPeriod)
        this.publishKline(market, period as KlineMinutes, periodBars);
    }
  }

  private publishTicker(market: MarketRef): void {
    // The cycle module pushes `cycleinfo` itself: the pair's pay coins and
    // durations around this ticker, one shape per push type.
    if (market.kind === 'cycle') return;
    const ticker = this.ticker(market);
    if (!ticker) return;
    this.options.publisher.publish({
      type: INFO_PUSH_TYPE[market.kind],
      key: marketKey(market),
      data: ticker,
    });
  }

  private publishKline(market: MarketRef, mine: KlineMinutes, bars: Candle[]): void {
    bars.sort((a, b) => a.start - b.start);
    this.options.publisher.publish({
      type: 'kline',
      key: subscriptionKey({ ...market, mine }),
      mine,
      data: { series: bars.map(formatSeriesRow) },
    });
  }
}
