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

/** A book row as served: price, amount and its depth-bar width. */
export interface DepthRow {
  price: string;
  amount: string;
  width: string;
}

/** The first `rows` levels of a book side with their depth-bar widths (the spot book shows 20, the futures book 7). */
export function depthRows(levels: readonly { price: Dec; amount: Dec }[], rows: number): DepthRow[] {
  const shown = levels.slice(0, rows);
  const widths = depthBarWidths(shown.map((level) => level.amount));
  return shown.map((level, index) => ({
    price: level.price.toString(),
    amount: level.amount.toString(),
    width: widths[index] ?? '0.00',
  }));
}
