import { Dec } from '@halyard/money';
import { type RuleError, ruleError } from './error.ts';

export type OrderSide = 'buy' | 'sell';
export type OrderStyle = 'limit' | 'market';

/**
 * "Minimum buy {min}" / "Maximum sell {max}": the pair's bounds on one order,
 * with a message per side. No maximum means none is configured.
 */
export function checkSideBounds(
  side: OrderSide,
  size: Dec,
  minNumber: string,
  maxNumber: string | undefined,
): RuleError | null {
  return checkSideBoundsOf(side, size, Dec.parse(minNumber), maxBoundOf(maxNumber));
}

/** A pair's maximum per order as configured: empty or absent means none (null). */
export function maxBoundOf(maxNumber: string | undefined): Dec | null {
  return maxNumber === undefined || maxNumber === '' ? null : Dec.parse(maxNumber);
}

/** `checkSideBounds` on bounds already parsed (null: no maximum). */
export function checkSideBoundsOf(side: OrderSide, size: Dec, min: Dec, max: Dec | null): RuleError | null {
  if (size.lt(min))
    return ruleError(side === 'buy' ? 'rules.minBuy' : 'rules.minSell', { min: min.toString() });
  if (max !== null && size.gt(max))
    return ruleError(side === 'buy' ? 'rules.maxBuy' : 'rules.maxSell', { max: max.toString() });
  return null;
}

/** The percent of a slider (0-100, whole steps) as a Dec; anything else is a caller bug. */
export function sliderPercent(percent: number): Dec {
  if (!Number.isInteger(percent) || percent < 0 || percent > 100) {
    throw new RangeError(`slider percent must be an integer in 0..100, got ${percent}`);
  }
  return Dec.fromInt(percent);
}
