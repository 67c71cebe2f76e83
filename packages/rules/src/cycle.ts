import { Dec } from '@halyard/money';
import { checkEmailBound } from './account.ts';
import { CYCLE_CLOCK_TOLERANCE_MS } from './constants.ts';
import { type RuleError, ruleError } from './error.ts';
import { checkPositiveInput, checkRange } from './number.ts';

/** A cycle order as typed: `quantity` is the stake; `min` and `max` are the period's bounds. */
export interface CycleOrderInput {
  quantity: string;
  usable: string;
  min: string;
  max: string;
  email: string | null;
}

/**
 * Spec §5 "Cycle order", first failure wins: bound email; quantity (the stake)
 * required and a positive number; not above the usable balance; at least the
 * minimum {min}; at most the maximum {max}.
 */
export function checkCycleOrder(input: CycleOrderInput): RuleError | null {
  const error = checkEmailBound(input.email) ?? checkPositiveInput(input.quantity, 'quantity');
  if (error !== null) return error;
  const quantity = Dec.parse(input.quantity);
  if (quantity.gt(Dec.parse(input.usable))) return ruleError('rules.insufficientBalance');
  return checkRange(quantity, input.min, input.max);
}

/**
 * The last price tick must be within 5 s of the server-synced clock, in either
 * direction; otherwise the cycle page clears the quantity and reloads, because
 * a stale chart would let the user bet on a price that has already moved.
 */
export function checkClockDrift(input: { lastTickMs: number; syncedNowMs: number }): RuleError | null {
  const drift = Math.abs(input.syncedNowMs - input.lastTickMs);
  return drift > CYCLE_CLOCK_TOLERANCE_MS ? ruleError('rules.clockDrift') : null;
}
