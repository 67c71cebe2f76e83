import { Dec } from '@halyard/money';
import { DEPTH_BAR_SCALE } from './constants.ts';

const SCALE = Dec.fromInt(DEPTH_BAR_SCALE);
const HUNDRED = Dec.fromInt(100);

/**
 * Spec §9 depth bar: amount × 800 / total of the rows shown, at most 100 %,
 * as a percentage with 2 decimals (floored). One width per amount, in order.
 */
export function depthBarWidths(amounts: readonly Dec[]): string[] {
  const total = Dec.sum(amounts);
  if (!total.isPositive()) return amounts.map(() => '0.00');
  return amounts.map((amount) => Dec.min(amount.mul(SCALE).div(total), HUNDRED).toFixed(2));
}
