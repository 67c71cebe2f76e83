import { Dec, SCALE } from '@halyard/money';
import { MatchingError, type PairPrecision, type PlaceCommand, type RejectReason } from './types.ts';

/**
 * The checks shared by every book: a pair's accuracies must keep a trade's
 * value exact, and an order must respect the pair's steps and minimum.
 */

/** Throws when the pair itself is malformed: that is a configuration bug, not a user error. */
export function assertPairPrecision(precision: PairPrecision): void {
  const { priceAccuracy, amountAccuracy, minNumber } = precision;
  for (const digits of [priceAccuracy, amountAccuracy]) {
    if (!Number.isInteger(digits) || digits < 0 || digits > SCALE) {
      throw new MatchingError(`an accuracy must be an integer in 0..${SCALE}, got ${digits}`);
    }
  }
  // price × amount then has at most 18 fractional digits, so Dec.mul never floors a trade's value.
  if (priceAccuracy + amountAccuracy > SCALE) {
    throw new MatchingError(`priceAccuracy + amountAccuracy must be at most ${SCALE}`);
  }
  if (minNumber.isNegative()) throw new MatchingError('minNumber must not be negative');
}

/** Throws when a place command's sequence does not come after the last one the book saw. */
export function assertSequenceAfter(sequence: number, lastSequence: number): void {
  if (!Number.isSafeInteger(sequence) || sequence <= lastSequence) {
    throw new MatchingError(`sequence ${sequence} must be an integer above ${lastSequence}`);
  }
}

/**
 * A pair's order rules with its steps computed once: each place command is
 * checked on the hot path, and a modulo on units is far cheaper than flooring.
 */
export class PairRules {
  private readonly priceStepUnits: bigint;
  /** Units of one amount step: amounts, and what a quote budget buys, are whole steps. */
  readonly amountStepUnits: bigint;

  constructor(readonly precision: PairPrecision) {
    assertPairPrecision(precision);
    this.priceStepUnits = Dec.step(precision.priceAccuracy).units;
    this.amountStepUnits = Dec.step(precision.amountAccuracy).units;
  }

  /** The first rule a place command breaks, or null when it is well formed for the pair. */
  rejectionOf(command: PlaceCommand): RejectReason | null {
    if (command.kind === 'limit') {
      if (!command.price.isPositive()) return 'price_not_positive';
      if (command.price.units % this.priceStepUnits !== 0n) return 'price_precision';
    }
    if (!command.amount.isPositive()) return 'amount_not_positive';
    if (command.amount.units % this.amountStepUnits !== 0n) return 'amount_precision';
    if (command.amount.lt(this.precision.minNumber)) return 'amount_below_min';
    if (command.kind === 'market' && command.quoteBudget !== undefined && !command.quoteBudget.isPositive()) {
      return 'budget_not_positive';
    }
    return null;
  }
}
