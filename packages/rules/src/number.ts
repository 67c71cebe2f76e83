import { Dec } from '@halyard/money';
import { type RuleError, ruleError } from './error.ts';

/**
 * What a user may type as a number: digits with an optional fraction and an
 * optional minus sign (so "-1" is a number that fails "greater than 0" rather
 * than "not a number"). No spaces, exponents or thousands separators.
 */
const NUMBER_PATTERN = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function isBlank(value: string | null | undefined): value is '' | null | undefined {
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

/** The typed figure a message talks about: its keys are `rules.<field>Required`, `…Invalid`, `…NotPositive`. */
export type NumberField = 'number' | 'price' | 'amount' | 'quantity';

export interface NumberLimits {
  integerDigits?: number;
  decimals?: number;
}

/**
 * Blank, not a number, too many digits, not above zero, in that order. Digits
 * are checked before the sign because a value below Dec's 18-digit resolution
 * reads as 0, and "too many decimals" is the message that helps its writer.
 * When this returns null, `Dec.parse(value)` is safe.
 */
export function checkPositiveInput(
  value: string | null | undefined,
  field: NumberField,
  limits: NumberLimits = {},
): RuleError | null {
  if (isBlank(value)) return ruleError(`rules.${field}Required`);
  const number = parseNumber(value);
  if (number === null) return ruleError(`rules.${field}Invalid`);
  if (limits.integerDigits !== undefined && integerDigitCount(value) > limits.integerDigits) {
    return ruleError('rules.tooManyIntegerDigits', { digits: limits.integerDigits });
  }
  if (limits.decimals !== undefined && fractionDigitCount(value) > limits.decimals) {
    return ruleError('rules.tooManyDecimals', { digits: limits.decimals });
  }
  return number.isPositive() ? null : ruleError(`rules.${field}NotPositive`);
}

/** An optional positive figure (take-profit, stop-loss): absent is fine, present must be a number above 0. */
export function parseOptionalPositive(value: string | null | undefined): Dec | null | 'invalid' {
  if (isBlank(value)) return null;
  const number = parseNumber(value);
  return number?.isPositive() ? number : 'invalid';
}

/** At least `min` and at most `max`, both inclusive, with the bound in the message. */
export function checkRange(value: Dec, min: string, max: string): RuleError | null {
  const lower = Dec.parse(min);
  if (value.lt(lower)) return ruleError('rules.belowMinimum', { min: lower.toString() });
  const upper = Dec.parse(max);
  if (value.gt(upper)) return ruleError('rules.aboveMaximum', { max: upper.toString() });
  return null;
}
