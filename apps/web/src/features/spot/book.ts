import { Dec } from '@halyard/money';
import type { DepthLevel } from '@halyard/protocol';
import { DEPTH_BAR_SCALE, SPOT_BOOK_MAX_LEVELS, SPOT_BOOK_MIN_ROWS } from '@halyard/rules';

/** A level as the book draws it; `null` rows pad a thin side to the spec's minimum. */
export interface BookRow {
  price: string;
  amount: string;
  /** Depth bar width in percent, 0–100. */
  width: string;
}

const SCALE = Dec.fromInt(DEPTH_BAR_SCALE);
const FULL = Dec.fromInt(100);

/**
 * Spec §9: bar width = amount × 800 / total of the side shown, capped at 100 %,
 * floored to 2 decimals. A side with nothing in it has no bars.
 */
export function depthWidths(levels: readonly DepthLevel[]): BookRow[] {
  const amounts = levels.map((level) => Dec.tryParse(level.amount) ?? Dec.ZERO);
  const total = Dec.sum(amounts);
  return levels.map((level, index) => {
    const amount = amounts[index] ?? Dec.ZERO;
    const width = total.isPositive() ? Dec.min(FULL, amount.mul(SCALE).div(total)) : Dec.ZERO;
    return { price: level.price, amount: level.amount, width: width.floorTo(2).toString() };
  });
}

/** The first 20 levels with their bars, padded with empty rows to at least 6 (spec §9). */
export function bookSide(levels: readonly DepthLevel[]): Array<BookRow | null> {
  const rows: Array<BookRow | null> = depthWidths(levels.slice(0, SPOT_BOOK_MAX_LEVELS));
  while (rows.length < SPOT_BOOK_MIN_ROWS) rows.push(null);
  return rows;
}
