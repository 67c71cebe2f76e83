import { Dec } from '@halyard/money';
import { DISPLAY_PRECISION } from '@halyard/rules';

/** Spot + futures usable and held amounts of a row, for the hide-zero filter. */
export function isZeroRow(amounts: readonly string[]): boolean {
  return amounts.every((amount) => (Dec.tryParse(amount) ?? Dec.ZERO).isZero());
}

/** Rows matching the search (coin name contains it, case-insensitive) and, when asked, not all zero. */
export function filterAssetRows<T extends { coin: string }>(
  rows: readonly T[],
  search: string,
  hideZero: boolean,
  amounts: (row: T) => string[],
): T[] {
  const needle = search.trim().toUpperCase();
  return rows.filter(
    (row) => row.coin.toUpperCase().includes(needle) && !(hideZero && isZeroRow(amounts(row))),
  );
}

/** Whole seconds left on a convert quote, never below 0. */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** What the withdrawal takes from the balance: the amount the address receives plus the fee. */
export function withdrawalDebit(amount: string, fee: string): string | null {
  const parsed = Dec.tryParse(amount);
  return parsed ? parsed.add(Dec.tryParse(fee) ?? Dec.ZERO).toString() : null;
}

/** Sum of the withdrawals still counting against today's limit (not rejected) since `since`. */
export function withdrawnSince(
  records: ReadonlyArray<{ amount: string; state: string; time: number }>,
  since: number,
): string {
  return Dec.sum(
    records
      .filter((record) => record.state !== 'rejected' && record.time >= since)
      .map((record) => Dec.tryParse(record.amount) ?? Dec.ZERO),
  ).toString();
}

/**
 * The fee a convert rate takes, in the coin received: the amount at the rate
 * before the spread less what the rate gives (rate = price × (1 − spread)),
 * floored to the shown digits.
 */
export function convertFee(amount: Dec, rate: Dec, feeRate: Dec): Dec {
  const keep = Dec.ONE.sub(feeRate);
  if (!keep.isPositive()) return Dec.ZERO;
  return amount.mul(rate).mul(feeRate).div(keep).floorTo(DISPLAY_PRECISION.total);
}
