import { Dec } from '@halyard/money';
import type { IndexPriceSource } from '../../market/index.ts';
import type { SpotPairMarket } from './pair-market.ts';
import { CROSS_MINIMUMS, CrossSchedule, reconcileQuotes, TickQuoter, type WantedQuote } from './quoting.ts';
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
export class MarketMaker extends TickQuoter<SpotPairMarket> {
  private readonly crossings = new CrossSchedule();

  constructor(private readonly options: MarketMakerOptions) {
    super(options.index, options.onError);
  }

  protected markets() {
    return this.options.spot.pairs().map((market) => [market.pair.autoid, market] as const);
  }

  protected async requote(market: SpotPairMarket): Promise<void> {
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

  /** When a crossing is due ({@link CrossSchedule}), a market order of the pair's minimum times CROSS_MINIMUMS. */
  private async crossWhenDue(market: SpotPairMarket, index: Dec): Promise<void> {
    const { pair } = market;
    const side = this.crossings.due(pair.autoid, index, quotedSpread(index));
    if (side === null) return;
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

/** The distance between the ladder's best bid and best ask, about: the house's crossings turn only on a move this large. */
export function quotedSpread(index: Dec): Dec {
  return index.mul(LEVEL_GAP).mul(TWO);
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
