import { Dec } from '@halyard/money';

/**
 * What a user may type as a number: digits with an optional fraction and an
 * optional minus sign (so "-1" is a number that fails "greater than 0" rather
 * than "not a number"). No spaces, exponents or thousands separators.
 */
const NUMBER_PATTERN = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function isBlank(value: string | null | undefined): boolean {
  return value === null || value === undefined || value.trim() === '';
}

/** The exact value of a typed number, or null when the text is not one. */
export function parseNumber(text: string): Dec | null {
  return NUMBER_PATTERN.test(text) ? Dec.parse(text) : null;
}

/**
 * Significant fractional digits as typed ("1.50" has 1). Counted on the text,
 * not on the Dec, because a Dec keeps only 18 digits and would hide a 19th.
 */
export function fractionDigitCount(text: string): number {
  const fraction = text.split('.')[1] ?? '';
  return fraction.replace(/0+$/, '').length;
}

/** Digits before the point, leading zeros aside ("007.5" has 1). */
export function integerDigitCount(text: string): number {
  const whole = (text.split('.')[0] ?? '').replace(/^-/, '').replace(/^0+/, '');
  return whole.length;
}

/** A non-negative whole number written with digits only. */
export function isIntegerText(text: string): boolean {
  return /^\d+$/.test(text);
}
