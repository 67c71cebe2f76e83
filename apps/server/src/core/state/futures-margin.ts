import type { DepthSnapshot } from '@halyard/matching';
import { Dec } from '@halyard/money';

/**
 * Pure calculators of the futures risk engine (DESIGN §10, dYdX style): no I/O,
 * exact decimals, every formula written out. docs/futures-risk.md explains
 * them with examples.
 *
 * Notation: a position holds `lots` whole lots of `unit` coins each, so its
 * size in coins is |s| = lots × unit; s is signed (+ long, − short). `cost` is
 * the entry notional Σ lots × unit × price of its open lots (exact), so the
 * average entry price is p = cost / |s| and s·p = ±cost. `margin` (e) is the
 * collateral it holds. MMF is the contract's maintenance margin rate.
 */

export type Direction = 'long' | 'short';

export interface PositionFigures {
  direction: Direction;
  /** Whole lots. */
  lots: Dec;
  /** Coins per lot. */
  unit: Dec;
  /** Entry notional of the open lots. */
  cost: Dec;
  margin: Dec;
}

/** The clamp of the funding rate per interval: ±0.75 %. */
export const FUNDING_RATE_CAP = Dec.parse('0.0075');
/** Funding rates are kept to 8 decimals so every payment lots × unit × mark × rate is exact. */
export const FUNDING_RATE_DIGITS = 8;

/** |s| = lots × unit: the position's size in coins. */
export function sizeOf(position: Pick<PositionFigures, 'lots' | 'unit'>): Dec {
  return position.lots.mul(position.unit);
}

/** notional = price × lots × unit. */
export function notionalOf(price: Dec, lots: Dec, unit: Dec): Dec {
  return price.mul(lots).mul(unit);
}

/** margin = notional / lever (floored). */
export function marginOf(notional: Dec, lever: number): Dec {
  return notional.div(Dec.fromInt(lever));
}

/** fee = notional × gas. */
export function feeOf(notional: Dec, gas: Dec): Dec {
  return notional.mul(gas);
}

/** What an opening order holds: margin plus fee of `lots` at `price`. */
export function openingCost(price: Dec, lots: Dec, unit: Dec, lever: number, gas: Dec): Dec {
  const notional = notionalOf(price, lots, unit);
  return marginOf(notional, lever).add(feeOf(notional, gas));
}

/** Average entry price p = cost / |s| (floored), zero for an empty position. */
export function averagePrice(position: Pick<PositionFigures, 'lots' | 'unit' | 'cost'>): Dec {
  const size = sizeOf(position);
  return size.isPositive() ? position.cost.div(size) : Dec.ZERO;
}

/** Unrealised PnL at the mark: long |s|·mark − cost, short cost − |s|·mark. */
export function unrealisedPnl(position: PositionFigures, mark: Dec): Dec {
  const value = sizeOf(position).mul(mark);
  return position.direction === 'long' ? value.sub(position.cost) : position.cost.sub(value);
}

/** Equity of an isolated position at the mark: e + unrealised PnL. */
export function positionEquity(position: PositionFigures, mark: Dec): Dec {
  return position.margin.add(unrealisedPnl(position, mark));
}

/** Maintenance margin at the mark: MMF × |s| × mark. */
export function maintenanceMargin(position: PositionFigures, mark: Dec, mmf: Dec): Dec {
  return sizeOf(position).mul(mark).mul(mmf);
}

/**
 * Liquidation price from the closed form p' = (e − s·p) / (|s|·MMF − s),
 * the price where the equity e + s·(p' − p) equals the maintenance margin
 * MMF·|s|·p'. For an isolated position e is its margin; for cross, e is the
 * equity the position can draw on (see {@link crossEquityFor}). Null when the
 * price would be zero or below (a long that cannot be liquidated, e.g. 1×), or
 * for an empty position. Long: the position is liquidated when the mark falls
 * to p' or below; short: when it rises to p' or above. The division is
 * floored, which for a long puts p' a hair low and for a short a hair low too
 * (so a short is flagged no later than the exact price plus 10^-18).
 */
export function liquidationPrice(position: PositionFigures, equity: Dec, mmf: Dec): Dec | null {
  const size = sizeOf(position);
  if (!size.isPositive()) return null;
  const signedSize = position.direction === 'long' ? size : size.neg();
  const signedCost = position.direction === 'long' ? position.cost : position.cost.neg();
  const numerator = equity.sub(signedCost);
  const denominator = size.mul(mmf).sub(signedSize);
  if (denominator.isZero()) return null;
  const price = numerator.div(denominator);
  return price.isPositive() ? price : null;
}

/**
 * Bankruptcy price: where the equity is exactly zero, p_b = (s·p − e) / s;
 * long (cost − e)/|s|, short (cost + e)/|s|. Liquidated positions close here:
 * the user loses exactly their margin.
 */
export function bankruptcyPrice(position: PositionFigures, equity: Dec): Dec {
  const size = sizeOf(position);
  if (!size.isPositive()) return Dec.ZERO;
  const price =
    position.direction === 'long' ? position.cost.sub(equity).div(size) : position.cost.add(equity).div(size);
  return Dec.max(price, Dec.ZERO);
}

/** The liquidation test itself: equity at the mark at or below the maintenance margin. */
export function isBelowMaintenance(equity: Dec, maintenance: Dec): boolean {
  return equity.lte(maintenance);
}

/** Margin ratio = maintenance margin / equity as a percent (100 % means liquidation); null when equity ≤ 0. */
export function marginRatioPercent(equity: Dec, maintenance: Dec): Dec | null {
  return equity.isPositive() ? maintenance.mul(Dec.fromInt(100)).div(equity) : null;
}

/**
 * The equity a cross position can draw on before it is liquidated: the free
 * futures balance, its own margin, and what the user's other cross positions
 * have above their maintenance (their equity − MM, possibly negative).
 */
export function crossEquityFor(free: Dec, ownMargin: Dec, othersEquityAboveMaintenance: Dec): Dec {
  return free.add(ownMargin).add(othersEquityAboveMaintenance);
}

/**
 * What closing `lots` of a position releases and realises at `price`:
 * margin released m_r = margin × lots / open lots (floored; the last lot takes
 * what is left), cost released c_r likewise but rounded in the margin pool's
 * favour (up for a long, down for a short), so the pool can never be asked for
 * more than it holds; realised PnL r = long lots·unit·price − c_r, short
 * c_r − lots·unit·price.
 */
export function closeFigures(
  position: PositionFigures,
  lots: Dec,
  price: Dec,
): { marginReleased: Dec; costReleased: Dec; realised: Dec } {
  const whole = lots.eq(position.lots);
  const marginReleased = whole ? position.margin : position.margin.mul(lots).div(position.lots);
  const costReleased = whole
    ? position.cost
    : position.direction === 'long'
      ? ceilDiv(position.cost.mul(lots), position.lots)
      : position.cost.mul(lots).div(position.lots);
  const value = notionalOf(price, lots, position.unit);
  const realised = position.direction === 'long' ? value.sub(costReleased) : costReleased.sub(value);
  return { marginReleased, costReleased, realised };
}

/**
 * Funding rate of one interval: the premium (mid − index) / index of the
 * book's mid over the index, clamped to ±FUNDING_RATE_CAP and cut toward zero
 * to FUNDING_RATE_DIGITS. Positive: longs pay shorts. (Mark = index here, so
 * the premium of the traded price over the index is read from the book.)
 */
export function fundingRate(mid: Dec, index: Dec): Dec {
  if (!index.isPositive()) return Dec.ZERO;
  const premium = mid.sub(index).div(index);
  const clamped = Dec.max(Dec.min(premium, FUNDING_RATE_CAP), FUNDING_RATE_CAP.neg());
  const cut = clamped.abs().floorTo(FUNDING_RATE_DIGITS);
  return clamped.isNegative() ? cut.neg() : cut;
}

/** The book's mid price, or null unless both sides quote. */
export function bookMid(depth: Pick<DepthSnapshot, 'bestBid' | 'bestAsk'>): Dec | null {
  if (depth.bestBid === null || depth.bestAsk === null) return null;
  return depth.bestBid.add(depth.bestAsk).div(Dec.fromInt(2));
}

/**
 * The rate of one round: mark = index in this exchange, so the premium that
 * funding pulls back is the book's mid over the index (zero without a
 * two-sided book).
 */
export function roundRate(
  depth: Pick<DepthSnapshot, 'bestBid' | 'bestAsk'>,
  index: Dec,
): { rate: Dec; mid: Dec } {
  const mid = bookMid(depth);
  if (mid === null) return { rate: Dec.ZERO, mid: index };
  return { rate: fundingRate(mid, index), mid };
}

/**
 * One position's funding: |s| × mark × |rate|, exact (rate has 8 digits).
 * Paid by longs when the rate is positive, by shorts when negative; the
 * answer is signed from the position's side: negative pays, positive receives.
 */
export function fundingPayment(
  position: Pick<PositionFigures, 'direction' | 'lots' | 'unit'>,
  mark: Dec,
  rate: Dec,
): Dec {
  const amount = sizeOf(position).mul(mark).mul(rate.abs());
  const pays = rate.isPositive()
    ? position.direction === 'long'
    : rate.isNegative() && position.direction === 'short';
  return pays ? amount.neg() : amount;
}

/** ⌈a / b⌉ at 18 digits. */
function ceilDiv(a: Dec, b: Dec): Dec {
  const floor = a.div(b);
  return floor.mul(b).eq(a) ? floor : floor.add(Dec.fromUnits(1n));
}
