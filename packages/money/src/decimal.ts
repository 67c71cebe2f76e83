/**
 * Exact fixed-point decimal on bigint. Every amount, price, fee and balance in
 * Halyard is a `Dec`: 18 fractional digits, enough for an ERC-20 with 18
 * decimals, and no JavaScript `number` ever touches the value.
 *
 * Division and multiplication floor (toward −∞) at 18 digits, and formatting
 * floors to the requested digits: the spec says amounts are floored, never
 * rounded, so the exchange never hands out a unit it does not have.
 */

export const SCALE = 18;
const ONE_UNITS = 10n ** BigInt(SCALE);
/** The character code of '0', for trimming a fraction's trailing zeros. */
const ZERO_CHAR = 48;
const DECIMAL_PATTERN = /^([+-])?(\d+)?(?:\.(\d*))?$/;
const SCALE_ZEROS = '0'.repeat(SCALE);
/** How `toString` prints: zero as "0", else no leading zeros, at most 18 fractional digits, the last not 0. */
const CANONICAL_PATTERN = /^(?:0|-?(?:[1-9]\d*|0(?=\.))(?:\.\d{0,17}[1-9])?)$/;
/** 10^-digits in units, by digits (0..SCALE): worked out once, not per `floorTo` (a power and a division). */
const STEPS = Array.from({ length: SCALE + 1 }, (_, digits) => ONE_UNITS / 10n ** BigInt(digits));

export class DecimalError extends Error {
  override name = 'DecimalError';
}

function floorDiv(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  // Division truncates toward zero, which is the floor unless the signs differ and something was cut off;
  // the signs are compared first, so the usual case (both positive) costs no second bigint operation.
  const signsDiffer = numerator < 0n !== denominator < 0n;
  return signsDiffer && quotient * denominator !== numerator ? quotient - 1n : quotient;
}

export class Dec {
  static readonly ZERO = new Dec(0n);
  static readonly ONE = new Dec(ONE_UNITS);

  /** The value times 10^18. */
  readonly units: bigint;

  private constructor(units: bigint) {
    this.units = units;
  }

  static fromUnits(units: bigint): Dec {
    return new Dec(units);
  }

  /**
   * Parses a plain decimal string ("12", "-0.5", ".25", "3."). Digits past the
   * 18th fractional place are floored away. Throws on anything else (no
   * exponents, no spaces, no NaN): callers validate input first with
   * `Dec.tryParse` or the rules package.
   */
  static parse(text: string): Dec {
    const parsed = Dec.tryParse(text);
    if (parsed === null) throw new DecimalError(`not a decimal: ${JSON.stringify(text)}`);
    return parsed;
  }

  /**
   * `Dec.parse(text).toString()`: the text as a Dec prints it. A text that is
   * printed that way already (what the state and SQLite hand back) is answered
   * as it is, without a bigint made and printed again; any other text (a
   * NUMERIC column's trailing zeros, a sign, digits past the 18th) is parsed.
   */
  static canonical(text: string): string {
    return CANONICAL_PATTERN.test(text) ? text : Dec.parse(text).toString();
  }

  static tryParse(text: string): Dec | null {
    const match = DECIMAL_PATTERN.exec(text.trim());
    if (!match) return null;
    const [, sign, wholeDigits = '', fractionDigits = ''] = match;
    if (wholeDigits === '' && fractionDigits === '') return null;
    // The point moved 18 places right in the text, then one bigint conversion: every request, command and row
    // parses amounts, and two conversions with a multiply cost half as much again.
    const fits = fractionDigits.length <= SCALE;
    const kept = fits
      ? fractionDigits + SCALE_ZEROS.slice(fractionDigits.length)
      : fractionDigits.slice(0, SCALE);
    const magnitude = BigInt(wholeDigits + kept);
    if (sign !== '-') return new Dec(magnitude);
    const droppedNonZero = !fits && /[1-9]/.test(fractionDigits.slice(SCALE));
    return new Dec(droppedNonZero ? -magnitude - 1n : -magnitude);
  }

  /** Integers only: a whole number of lots, a count, a number of seconds. */
  static fromInt(value: number | bigint): Dec {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) {
      throw new DecimalError(`not a safe integer: ${value}`);
    }
    return new Dec(BigInt(value) * ONE_UNITS);
  }

  /** 10^-digits: the price step of a pair with `digits` of accuracy. */
  static step(digits: number): Dec {
    return new Dec(stepUnits(digits));
  }

  static min(a: Dec, b: Dec): Dec {
    return a.lt(b) ? a : b;
  }

  static max(a: Dec, b: Dec): Dec {
    return a.gt(b) ? a : b;
  }

  static sum(values: Iterable<Dec>): Dec {
    let total = 0n;
    for (const value of values) total += value.units;
    return new Dec(total);
  }

  add(other: Dec): Dec {
    return new Dec(this.units + other.units);
  }

  sub(other: Dec): Dec {
    return new Dec(this.units - other.units);
  }

  /** Product floored to 18 digits. */
  mul(other: Dec): Dec {
    return new Dec(floorDiv(this.units * other.units, ONE_UNITS));
  }

  /** Quotient floored to 18 digits. */
  div(other: Dec): Dec {
    if (other.units === 0n) throw new DecimalError('division by zero');
    return new Dec(floorDiv(this.units * ONE_UNITS, other.units));
  }

  /** this × percent / 100, floored: `fee.percentOf(rate)`-style helpers read better at call sites. */
  percent(percent: Dec): Dec {
    return new Dec(floorDiv(this.units * percent.units, ONE_UNITS * 100n));
  }

  neg(): Dec {
    return new Dec(-this.units);
  }

  abs(): Dec {
    return this.units < 0n ? new Dec(-this.units) : this;
  }

  cmp(other: Dec): -1 | 0 | 1 {
    if (this.units < other.units) return -1;
    if (this.units > other.units) return 1;
    return 0;
  }

  eq(other: Dec): boolean {
    return this.units === other.units;
  }

  lt(other: Dec): boolean {
    return this.units < other.units;
  }

  lte(other: Dec): boolean {
    return this.units <= other.units;
  }

  gt(other: Dec): boolean {
    return this.units > other.units;
  }

  gte(other: Dec): boolean {
    return this.units >= other.units;
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  isNegative(): boolean {
    return this.units < 0n;
  }

  isPositive(): boolean {
    return this.units > 0n;
  }

  /** Floors to `digits` fractional digits, keeping it a Dec. */
  floorTo(digits: number): Dec {
    const step = stepUnits(digits);
    return new Dec(floorDiv(this.units, step) * step);
  }

  /** True when the value has no digits past `digits`. */
  hasAtMostDigits(digits: number): boolean {
    return this.floorTo(digits).eq(this);
  }

  /** Whole part, floored, as a bigint (lots, seconds). */
  floorToInteger(): bigint {
    return floorDiv(this.units, ONE_UNITS);
  }

  /** Canonical text: no trailing zeros, no exponent ("1.5", "-0.000001", "0"). */
  toString(): string {
    // Zero is every loss's fee and many a balance: no 19 padded digits to trim.
    if (this.units === 0n) return '0';
    const negative = this.units < 0n;
    // One bigint-to-text conversion, then the point placed in the text: no bigint division (the hot path of every
    // amount written to the store).
    const digits = (negative ? -this.units : this.units).toString().padStart(SCALE + 1, '0');
    const pointAt = digits.length - SCALE;
    let end = digits.length;
    while (end > pointAt && digits.charCodeAt(end - 1) === ZERO_CHAR) end -= 1;
    const body =
      end === pointAt
        ? digits.slice(0, pointAt)
        : `${digits.slice(0, pointAt)}.${digits.slice(pointAt, end)}`;
    return negative ? `-${body}` : body;
  }

  /** Exactly `digits` fractional digits, floored (never rounded up). */
  toFixed(digits: number): string {
    const floored = this.floorTo(digits);
    const negative = floored.units < 0n;
    const magnitude = negative ? -floored.units : floored.units;
    const whole = magnitude / ONE_UNITS;
    const fraction = (magnitude % ONE_UNITS).toString().padStart(SCALE, '0').slice(0, digits);
    const body = digits === 0 ? whole.toString() : `${whole}.${fraction}`;
    return negative && magnitude !== 0n ? `-${body}` : body;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** 10^-digits in units; `digits` must be an integer in 0..SCALE. */
function stepUnits(digits: number): bigint {
  const step = STEPS[digits];
  // Any other number (negative, fractional, too large) indexes nothing.
  if (step === undefined) {
    throw new DecimalError(`digits must be an integer in 0..${SCALE}, got ${digits}`);
  }
  return step;
}

/** The spec's "a non-number floors to 0" for display and slider input. */
export function decOrZero(text: string | null | undefined): Dec {
  if (text === null || text === undefined) return Dec.ZERO;
  return Dec.tryParse(text) ?? Dec.ZERO;
}
