import { Dec } from '@halyard/money';
import type { IndexPriceSource } from '../../market/index.ts';

/** A price level the house wants to quote. */
export interface WantedQuote {
  side: 'buy' | 'sell';
  price: Dec;
}

/**
 * The house's market makers (spot and futures, DESIGN §6): each index tick
 * requotes every market; a market still busy with its previous requote is
 * skipped, so slow markets never pile work up.
 */
export abstract class TickQuoter<Market> {
  private readonly running = new Map<number, Promise<void>>();
  private unsubscribe: (() => void) | null = null;

  protected constructor(
    private readonly index: IndexPriceSource,
    protected readonly onError: (error: unknown) => void,
  ) {}

  /** The markets to quote, each with its id. */
  protected abstract markets(): Iterable<readonly [number, Market]>;
  protected abstract requote(market: Market): Promise<void>;

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.index.subscribe(() => {
      this.requoteAll().catch(this.onError);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await Promise.all(this.running.values());
  }

  /** One requote of every market; one still busy with the previous requote is skipped. */
  async requoteAll(): Promise<void> {
    await Promise.all(
      [...this.markets()].map(([id, market]) => {
        const busy = this.running.get(id);
        if (busy) return busy;
        const run = this.requote(market)
          .catch(this.onError)
          .finally(() => this.running.delete(id));
        this.running.set(id, run);
        return run;
      }),
    );
  }
}

/**
 * Brings the house's resting orders in one market to the wanted levels, with
 * at most `changesMax` cancels plus placements: stale levels are cancelled
 * first, so new quotes never meet the house's own old ones; then the missing
 * levels are placed. A failed cancel or placement is reported and the rest go on.
 */
export async function reconcileQuotes<
  Quote extends WantedQuote,
  Row extends { type: string; price: string | null },
>(work: {
  wanted: readonly Quote[];
  resting: readonly Row[];
  changesMax: number;
  cancel(row: Row): Promise<unknown>;
  place(quote: Quote): Promise<unknown>;
  onError(error: unknown): void;
}): Promise<void> {
  const wantedKeys = new Set(work.wanted.map((quote) => levelKey(quote.side, quote.price)));
  const restingKey = (row: Row) => levelKey(row.type, Dec.parse(row.price ?? '0'));
  const restingKeys = new Set(work.resting.map(restingKey));
  let changesLeft = work.changesMax;
  for (const row of work.resting) {
    if (changesLeft <= 0) return;
    if (wantedKeys.has(restingKey(row))) continue;
    changesLeft -= 1;
    await work.cancel(row).catch(work.onError);
  }
  const missing = work.wanted
    .filter((quote) => !restingKeys.has(levelKey(quote.side, quote.price)))
    .slice(0, changesLeft);
  await Promise.all(missing.map((quote) => work.place(quote).catch(work.onError)));
}

function levelKey(side: string, price: Dec): string {
  return `${side}:${price}`;
}

/** The house crosses the spread on every market every this many requotes (demo mode: trades print and charts move). */
export const CROSS_EVERY = 5;
/** The crossing order's size, in the market's minimum orders (spot: its minimum amount; futures: its minimum lots). */
export const CROSS_MINIMUMS = Dec.fromInt(3);
const DAY_MS = 24 * 3_600_000;

export interface CrossTrend {
  side: 'buy' | 'sell';
  /** The highest index since the house started buying, or the lowest since it started selling. */
  extreme: Dec;
}

/**
 * The side of the house's crossing orders follows the index's trend: it buys
 * (printing at the ask) while the index rises and sells (printing at the bid)
 * while it falls, and turns only once the index has come back `spread` from
 * its extreme since the last turn. The prints then move with the index, and a
 * turn moves them further the same way, so a falling minute's bar is red.
 * (Alternating buys and sells printed every minute's first trade on the same
 * side of the spread and its last on the other, six crossings a minute: every
 * 1-minute bar had the same colour and opened a spread away from the last
 * close, the bid-ask bounce hiding the index's moves.)
 */
export function crossTrend(index: Dec, last: CrossTrend | undefined, spread: Dec): CrossTrend {
  if (!last) return { side: 'buy', extreme: index };
  if (last.side === 'buy') {
    if (index.lt(last.extreme.sub(spread))) return { side: 'sell', extreme: index };
    return { side: 'buy', extreme: Dec.max(last.extreme, index) };
  }
  if (index.gt(last.extreme.add(spread))) return { side: 'buy', extreme: index };
  return { side: 'sell', extreme: Dec.min(last.extreme, index) };
}

/**
 * When the house crosses on each market: every CROSS_EVERY requotes of a
 * market, on the side {@link crossTrend} picks for it. Spot and futures share
 * it, so both houses print at the same cadence and in the index's direction.
 */
export class CrossSchedule {
  private readonly requotes = new Map<number, number>();
  private readonly trends = new Map<number, CrossTrend>();

  /** Counts one requote of market `id` at `index`: the side to cross on when one is due, else null. */
  due(id: number, index: Dec, spread: Dec): 'buy' | 'sell' | null {
    const count = (this.requotes.get(id) ?? 0) + 1;
    this.requotes.set(id, count);
    if (count % CROSS_EVERY !== 0) return null;
    const trend = crossTrend(index, this.trends.get(id), spread);
    this.trends.set(id, trend);
    return trend.side;
  }
}

/**
 * What the house's crossing orders trade in a day on a market whose minimum
 * order is `minimum`, with the index ticking every `tickMs`, in the unit of
 * `minimum` (spot: the trade coin; futures: lots). The demo history's bars use
 * it, so the seeded history and the live bars trade alike.
 */
export function houseDailyVolume(minimum: Dec, tickMs: number): Dec {
  return minimum.mul(CROSS_MINIMUMS).mul(Dec.fromInt(Math.floor(DAY_MS / (tickMs * CROSS_EVERY))));
}
