import { Dec } from '@halyard/money';

const FRACTION = /^\s*\d*(?:\.(\d*))?\s*$/;

/**
 * The typed amount in the token's smallest units, exactly: null when it is not
 * a positive plain decimal or has more fractional digits than the token
 * (rounding would send something other than what the user typed).
 */
export function tokenUnits(amount: string, decimals: number): bigint | null {
  const fraction = FRACTION.exec(amount);
  if (!fraction || (fraction[1] ?? '').length > decimals) return null;
  const value = Dec.tryParse(amount);
  if (value === null || !value.isPositive()) return null;
  // Dec keeps 18 fractional digits; a token with fewer drops the trailing zeros.
  return value.units / 10n ** BigInt(18 - decimals);
}
