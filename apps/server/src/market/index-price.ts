import { Dec } from '@halyard/money';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/database.ts';
import {
  deleteIndexTicksBefore,
  type IndexTick,
  insertIndexTicks,
  selectIndexTickAtOrBefore,
  selectLatestIndexTicks,
} from './store.ts';

export type { IndexTick } from './store.ts';

/**
 * Each coin's reference price against the quote coin (DESIGN §6). Futures mark
 * prices and cycle settlement read it; nobody can set it by hand.
 *
 * The default is {@link SimulatedIndexSource}. A live source (e.g. one built on
 * ccxt, polling a few exchanges and taking the median) implements this same
 * interface and records its ticks the same way; none ships yet, so nothing
 * depends on a network feed.
 */
export interface IndexPriceSource {
  /** Recorded with every tick (AMENDMENTS A3: cycle orders store the source). */
  readonly name: string;
  /** The coin every index price is quoted in. */
  readonly quote: string;
  /** How often a tick is recorded: cycle settlement's tolerance around an expiry follows from it. */
  readonly tickMs: number;
  coins(): readonly string[];
  /** Decimal places of the coin's price, or null for a coin this source does not price. */
  priceAccuracy(coin: string): number | null;
  /** The latest tick, or null before the first one. */
  current(coin: string): IndexTick | null;
  /** From recorded history: the tick at `ts` or the last one before it; null if none is kept. */
  priceAt(coin: string, ts: number): Promise<IndexTick | null>;
  /** Called with each tick after it is recorded; returns the unsubscribe function. */
  subscribe(listener: (tick: IndexTick) => void): () => void;
}

export interface SimulatedCoin {
  coin: string;
  /** Where a fresh install starts, in the quote coin. */
  startPrice: string;
  /** Decimal places of the published price. */
  accuracy: number;
  /** Annualised volatility of the log price (0.6 = 60 %): a model parameter, not money. */
  volatility: number;
}

/** The demo coins against USDT; HAL is the platform token. */
export const DEMO_COINS: readonly SimulatedCoin[] = [
  { coin: 'BTC', startPrice: '96500', accuracy: 2, volatility: 0.55 },
  { coin: 'ETH', startPrice: '3450', accuracy: 2, volatility: 0.7 },
  { coin: 'SOL', startPrice: '185', accuracy: 3, volatility: 0.9 },
  { coin: 'BNB', startPrice: '640', accuracy: 2, volatility: 0.55 },
  { coin: 'XRP', startPrice: '2.3', accuracy: 4, volatility: 0.85 },
  { coin: 'DOGE', startPrice: '0.32', accuracy: 5, volatility: 1.0 },
  { coin: 'TRX', startPrice: '0.25', accuracy: 5, volatility: 0.6 },
  { coin: 'LTC', startPrice: '105', accuracy: 2, volatility: 0.75 },
  { coin: 'HAL', startPrice: '1.25', accuracy: 4, volatility: 1.2 },
];

/**
 * The coin the index quotes every price in. One constant, not an option: the
 * projector's K-line writer (kline-writer.ts) charts the core's index prices
 * on the markets in this coin, from a worker thread that has no index source.
 */
export const INDEX_QUOTE = 'USDT';

export const SIMULATOR_NAME = 'halyard-simulator';
export const YEAR_MS = 365 * 24 * 3_600_000;
/** Digits of the random step factor carried into the Dec price. */
const FACTOR_DIGITS = 15;

/** FNV-1a: a stable 32-bit hash that turns the seed and a coin into a stream seed. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a small seeded generator of uniform numbers in [0, 1). */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A standard normal draw (Box–Muller) from a uniform generator. */
export function seededNormal(uniform: () => number): () => number {
  return () => {
    const u1 = 1 - uniform();
    const u2 = uniform();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  };
}

interface CoinWalk {
  spec: SimulatedCoin;
  normal: () => number;
  /** Standard deviation of the log price per tick. */
  stepSigma: number;
  /** Full-precision state; only the published price is floored to the accuracy, so flooring never drifts the walk. */
  level: Dec;
  latest: IndexTick | null;
}

export interface SimulatorOptions {
  db: Db;
  clock: Clock;
  seed: string;
  tickMs: number;
  /** How long ticks are kept; older ones are pruned. */
  retentionMs?: number;
  /** How often pruning runs, in clock time. */
  pruneEveryMs?: number;
  coins?: readonly SimulatedCoin[];
  /** Where a failed step or a listener's exception goes; neither stops the ticks. */
  onError: (error: unknown) => void;
}

/**
 * Offline index prices: each coin follows a geometric random walk,
 * price × exp(σ·z) per tick with z a seeded normal draw and σ from the
 * coin's volatility and the tick length. The same seed and the same number of
 * ticks give the same path. Every tick is recorded before it is announced.
 */
export class SimulatedIndexSource implements IndexPriceSource {
  readonly name = SIMULATOR_NAME;
  readonly quote = INDEX_QUOTE;
  readonly tickMs: number;
  private readonly walks = new Map<string, CoinWalk>();
  private readonly listeners = new Set<(tick: IndexTick) => void>();
  private readonly retentionMs: number;
  private readonly pruneEveryMs: number;
  private lastPruneAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<IndexTick[]> | null = null;

  constructor(private readonly options: SimulatorOptions) {
    if (!Number.isSafeInteger(options.tickMs) || options.tickMs <= 0) {
      throw new Error(`tickMs must be a positive integer, got ${options.tickMs}`);
    }
    this.tickMs = options.tickMs;
    this.retentionMs = options.retentionMs ?? 7 * 24 * 3_600_000;
    this.pruneEveryMs = options.pruneEveryMs ?? 3_600_000;
    const stepSigma = (volatility: number) => volatility * Math.sqrt(options.tickMs / YEAR_MS);
    for (const spec of options.coins ?? DEMO_COINS) {
      this.walks.set(spec.coin, {
        spec,
        normal: seededNormal(seededUniform(hash32(`${options.seed}:${spec.coin}`))),
        stepSigma: stepSigma(spec.volatility),
        level: Dec.parse(spec.startPrice),
        latest: null,
      });
    }
  }

  coins(): readonly string[] {
    return [...this.walks.keys()];
  }

  priceAccuracy(coin: string): number | null {
    return this.walks.get(coin)?.spec.accuracy ?? null;
  }

  current(coin: string): IndexTick | null {
    return this.walks.get(coin)?.latest ?? null;
  }

  /** Where the coin's walk stands, before flooring: the next tick steps from here (demo history ends here). */
  level(coin: string): Dec | null {
    return this.walks.get(coin)?.level ?? null;
  }

  /** The model parameters of a coin this source walks, or null. */
  spec(coin: string): SimulatedCoin | null {
    return this.walks.get(coin)?.spec ?? null;
  }

  async priceAt(coin: string, ts: number): Promise<IndexTick | null> {
    if (!this.walks.has(coin)) return null;
    return selectIndexTickAtOrBefore(this.options.db, coin, ts);
  }

  subscribe(listener: (tick: IndexTick) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Continues from the last recorded prices, so a restart does not jump the charts back. */
  async load(): Promise<void> {
    for (const tick of await selectLatestIndexTicks(this.options.db)) {
      const walk = this.walks.get(tick.coin);
      if (!walk) continue;
      walk.level = tick.price;
      walk.latest = tick;
    }
  }

  /** One step of every coin: drawn, recorded, then announced. Overlapping calls share one step. */
  tick(): Promise<IndexTick[]> {
    if (!this.ticking) {
      this.ticking = this.step().finally(() => {
        this.ticking = null;
      });
    }
    return this.ticking;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.tick().catch((error: unknown) => this.reportError(error));
    }, this.options.tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Waits for a step in progress (used on shutdown). */
  async settle(): Promise<void> {
    await this.ticking;
  }

  private async step(): Promise<IndexTick[]> {
    const ts = this.options.clock.now();
    const stepped = [...this.walks.values()].map((walk) => ({ walk, tick: this.advance(walk, ts) }));
    const ticks = stepped.map(({ tick }) => tick);
    await insertIndexTicks(this.options.db, ticks);
    await this.pruneWhenDue(ts);
    for (const { walk, tick } of stepped) walk.latest = tick;
    for (const tick of ticks) this.announce(tick);
    return ticks;
  }

  private advance(walk: CoinWalk, ts: number): IndexTick {
    const factor = Math.exp(walk.stepSigma * walk.normal());
    walk.level = walk.level.mul(Dec.parse(factor.toFixed(FACTOR_DIGITS)));
    const step = Dec.step(walk.spec.accuracy);
    // The published price is floored to the coin's accuracy and never below one step.
    if (walk.level.lt(step)) walk.level = step;
    return { coin: walk.spec.coin, price: walk.level.floorTo(walk.spec.accuracy), ts, source: this.name };
  }

  private async pruneWhenDue(now: number): Promise<void> {
    if (now - this.lastPruneAt < this.pruneEveryMs) return;
    this.lastPruneAt = now;
    await deleteIndexTicksBefore(this.options.db, now - this.retentionMs);
  }

  private announce(tick: IndexTick): void {
    for (const listener of this.listeners) {
      try {
        listener(tick);
      } catch (error) {
        this.reportError(error);
      }
    }
  }

  private reportError(error: unknown): void {
    this.options.onError(error);
  }
}
