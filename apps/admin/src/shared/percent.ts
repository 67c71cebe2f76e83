import { Dec } from '@halyard/money';

/** Operators type percentages ("5"); the wire carries fractions ("0.05"): converted exactly. */
const HUNDRED = Dec.parse('100');

export function percentOf(fraction: string): string {
  return Dec.parse(fraction).mul(HUNDRED).toString();
}

export function fractionOf(percent: string): string {
  return Dec.parse(percent.trim()).div(HUNDRED).toString();
}
