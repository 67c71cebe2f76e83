import { Dec } from '@halyard/money';
import type { DepthLevel } from '@halyard/protocol';
import { depthBarWidths, SPOT_BOOK_MAX_LEVELS, SPOT_BOOK_MIN_ROWS } from '@halyard/rules';

/** A level as the book draws it; `null` rows pad a thin side to the spec's minimum. */
export interface BookRow {
  price: string;
  amount: string;
  /** Depth bar width in percent, 0–100 (spec §9, `depthBarWidths`). */
  width: string;
}

/**
 * The first 20 levels with their depth bars, padded with empty rows to at
 * least 6 (spec §9). An amount that is not a number counts as 0.
 */
export function bookSide(levels: readonly DepthLevel[]): Array<BookRow | null> {
  const shown = levels.slice(0, SPOT_BOOK_MAX_LEVELS);
  const widths = depthBarWidths(shown.map((level) => Dec.tryParse(level.amount) ?? Dec.ZERO));
  const rows: Array<BookRow | null> = shown.map((level, index) => ({
    price: level.price,
    amount: level.amount,
    width: widths[index] ?? '0.00',
  }));
  while (rows.length < SPOT_BOOK_MIN_ROWS) rows.push(null);
  return rows;
}
