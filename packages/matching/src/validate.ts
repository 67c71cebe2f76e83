import { SCALE } from '@halyard/money';
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

/** The first rule a place command breaks, or null when it is well formed for the pair. */
export function placeRejection(precision: PairPrecision, command: PlaceCommand): RejectReason | null {
  if (command.kind === 'limit') {
    if (!command.price.isPositive()) return 'price_not_positive';
    if (!command.price.hasAtMostDigits(precision.priceAccuracy)) return 'price_precision';
  }
  if (!command.amount.isPositive()) return 'amount_not_positive';
  if (!command.amount.hasAtMostDigits(precision.amountAccuracy)) return 'amount_precision';
  if (command.amount.lt(precision.minNumber)) return 'amount_below_min';
  if (command.kind === 'market' && command.quoteBudget !== undefined && !command.quoteBudget.isPositive()) {
    return 'budget_not_positive';
  }
  return null;
}
