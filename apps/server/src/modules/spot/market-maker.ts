import { Dec } from '@halyard/money';
import type { IndexPriceSource } from '../../market/index.ts';
import type { PairMarket } from './pair-market.ts';
import { reconcileQuotes, TickQuoter, type WantedQuote } from './quoting.ts';
import type { SpotService } from './service.ts';
import { HOUSE_QUOTER, HOUSE_TAKER } from './trader.ts';

/** Levels quoted on each side: the spec's book shows 20; two spare keep it full while fills are replaced. */
export const LEVELS_PER_SIDE = 22;
/** Distance between two levels and from the index to the first level, as a fraction of the index price. */
const LEVEL_GAP = Dec.parse('0.0005');
/** Quote value of the first level; level i holds (1 + i/4) times this. */
const LEVEL_VALUE = Dec.parse('400');
const TEN = Dec.fromInt(10);
const TWO = Dec.fromInt(2);
const GRID_FACTORS = [Dec.fromInt(1), Dec.fromInt(2), Dec.fromInt(5)];
/** Cancels plus placements per pair per requote, at most (TIGER_STYLE: bounded work per tick). */
const CHANGES_MAX = 2 * LEVELS_PER_SIDE + 4;
/** A small market order crosses the spread on every pair every this many requotes. */
const CROSS_EVERY = 5;
/** The crossing order's amount, in the pair's minimum amounts. */
const CROSS_MINIMUMS = Dec.fromInt(3);
const DAY_MS = 24 * 3_600_000;

interface Quote extends WantedQuote {
  amount: Dec;
}

export interface MarketMakerOptions {
  spot: SpotService;
  index: IndexPriceSource;
  onError: (error: unknown) => void;
}

/**
 * The house's quotes (DESIGN §6): on every pair quoted in the index's coin,
 * LEVELS_PER_SIDE levels each side on a fixed price grid around the index
 * price. Prices sit on multiples of the pair's grid step, so when the index
 * moves only the levels that leave or enter the ladder are cancelled or
 * placed. Every few requotes the house's taker role sends a small market order
 * across the spread so trades print and charts move (demo mode only: that is
 * the house trading with itself). Orders go through the spot service like
 * anyone's: spec checks, ledger holds, matching, settlement.
 */
export class MarketMaker extends TickQuoter<PairMarket> {
  private readonly requotes = new Map<number, number>();
  /** Per pair, the side of the house's crossing orders and the index's extreme since it last turned. */
  private readonly trends = new Map<number, CrossTrend>();

  constructor(private readonly options: MarketMakerOptions) {
    super(options.index, options.onError);
  }

  protected markets() {
    return this.options.spot.pairs().map((market) => [market.pair.autoid, market] as const);
  }

  protected async requote(market: PairMarket): Promise<void> {
    const { pair } = market;
    if (pair.maincoin !== this.options.index.quote || pair.state !== 1) return;
    const index = this.options.index.current(pair.tradcoin)?.price;
    if (!index?.isPositive()) return;
    const coins = { tradcoin: pair.tradcoin, maincoin: pair.maincoin };
    await reconcileQuotes({
      wanted: ladder(index, pair.price_accuracy, pair.amount_accuracy, Dec.parse(pair.minnumber)),
      resting: market.openOrdersOf(HOUSE_QUOTER),
      changesMax: CHANGES_MAX,
      cancel: (row) => this.options.spot.cancelForHouse(row),
      place: (quote) =>
        this.options.spot.placeForHouse(HOUSE_QUOTER, {
          ...coins,
          side: quote.side,
          style: 'limit',
          price: quote.price.toString(),
          number: quote.amount.toString(),
        }),
      onError: this.onError,
    });
    await this.crossWhenDue(market, index);
  }

  /** Every CROSS_EVERY requotes, a market order of the pair's minimum times three, on the side {@link crossTrend} picks. */
  private async crossWhenDue(market: PairMarket, index: Dec): Promise<void> {
    const { pair } = market;
    const count = (this.requotes.get(pair.autoid) ?? 0) + 1;
    this.requotes.set(pair.autoid, count);
    if (count % CROSS_EVERY !== 0) return;
    const trend = crossTrend(index, this.trends.get(pair.autoid), index.mul(LEVEL_GAP).mul(TWO));
    this.trends.set(pair.autoid, trend);
    const { side } = trend;
    await this.options.spot
      .placeForHouse(HOUSE_TAKER, {
        tradcoin: pair.tradcoin,
        maincoin: pair.maincoin,
        side,
        style: 'market',
        number: Dec.parse(pair.minnumber).mul(CROSS_MINIMUMS).toString(),
      })
      .catch(this.onError);
  }
}

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

/** What the house's crossing orders trade in a day on a pair, in the trade coin, with the index ticking every `tickMs`. */
export function houseDailyVolume(minNumber: Dec, tickMs: number): Dec {
  return minNumber.mul(CROSS_MINIMUMS).mul(Dec.fromInt(Math.floor(DAY_MS / (tickMs * CROSS_EVERY))));
}

/**
 * The quotes wanted at an index price: bids on the grid at or below
 * index × (1 − gap), asks on the grid at or above index × (1 + gap), one grid
 * step apart. The grid step is the largest 1-2-5 multiple of the pair's price
 * step within the gap's worth of price, so it stays put while the index walks
 * and the same prices are wanted again tick after tick.
 */
export function ladder(index: Dec, priceAccuracy: number, amountAccuracy: number, minNumber: Dec): Quote[] {
  const grid = gridStep(index.mul(LEVEL_GAP), priceAccuracy);
  const firstBid = onGridAtOrBelow(index.sub(index.mul(LEVEL_GAP)), grid);
  const firstAsk = onGridAtOrAbove(index.add(index.mul(LEVEL_GAP)), grid);
  const quotes: Quote[] = [];
  for (let level = 0; level < LEVELS_PER_SIDE; level++) {
    const offset = grid.mul(Dec.fromInt(level));
    const value = LEVEL_VALUE.add(LEVEL_VALUE.mul(Dec.fromInt(level)).div(Dec.fromInt(4)));
    const bid = firstBid.sub(offset);
    const ask = firstAsk.add(offset);
    if (bid.isPositive())
      quotes.push({ side: 'buy', price: bid, amount: levelAmount(value, bid, amountAccuracy, minNumber) });
    quotes.push({ side: 'sell', price: ask, amount: levelAmount(value, ask, amountAccuracy, minNumber) });
  }
  return quotes;
}

/** The largest of step × {1, 2, 5} × 10^k not above `target`, and at least one price step. */
export function gridStep(target: Dec, priceAccuracy: number): Dec {
  let best = Dec.step(priceAccuracy);
  // 18 decades cover every price Dec can hold: the loop is bounded.
  for (let decade = best, count = 0; count < 19 && decade.lte(target); decade = decade.mul(TEN), count++) {
    for (const factor of GRID_FACTORS) {
      const candidate = decade.mul(factor);
      if (candidate.lte(target)) best = candidate;
    }
  }
  return best;
}

function onGridAtOrBelow(price: Dec, grid: Dec): Dec {
  return Dec.fromUnits((price.units / grid.units) * grid.units);
}

function onGridAtOrAbove(price: Dec, grid: Dec): Dec {
  const below = onGridAtOrBelow(price, grid);
  return below.eq(price) ? below : below.add(grid);
}

function levelAmount(value: Dec, price: Dec, amountAccuracy: number, minNumber: Dec): Dec {
  return Dec.max(value.div(price).floorTo(amountAccuracy), minNumber);
}
