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

/** Decimal places of every amount a cycle settlement moves (stake, payout, loss, fee); always floored. */
export const CYCLE_AMOUNT_DIGITS = 8;

/**
 * What a win pays after its fee: the stake × the option's profit rate, less
 * the fee (a fraction of that payout). Shown before confirming and settled
 * with the same numbers. The fee never exceeds the payout, whatever the
 * configured rate: a win never costs the winner.
 */
export function winIncome(
  stake: Dec,
  rates: { profitGas: Dec; gas: Dec },
): { payout: Dec; fee: Dec; net: Dec } {
  const payout = stake.mul(rates.profitGas).floorTo(CYCLE_AMOUNT_DIGITS);
  const fee = Dec.min(payout.mul(rates.gas).floorTo(CYCLE_AMOUNT_DIGITS), payout);
  return { payout, fee, net: payout.sub(fee) };
}
