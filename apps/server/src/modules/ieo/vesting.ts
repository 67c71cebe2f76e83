import { Dec } from '@halyard/money';
import type { IeoVesting } from '@halyard/protocol';

export const DAY_MS = 86_400_000;

/** One tranche of an order's vesting: `amount` tokens become spendable at `releaseAt`. */
export interface PlannedTranche {
  seq: number;
  releaseAt: number;
  amount: Dec;
}

/**
 * The spec's "lock period in days" is a schedule of one tranche at the end of
 * the lock; a cliff followed by tranches spreads the tokens evenly (floored to
 * the token's unit, the last tranche takes what flooring left). The schedule
 * starts when the subscription window ends.
 */
export function planTranches(
  total: Dec,
  vesting: IeoVesting,
  start: number,
  tokenDecimals: number,
): PlannedTranche[] {
  const count = vesting.tranches;
  const each = total.div(Dec.fromInt(count)).floorTo(tokenDecimals);
  const cliffMs = Math.round(vesting.cliffDays * DAY_MS);
  const intervalMs = Math.round(vesting.intervalDays * DAY_MS);
  const tranches: PlannedTranche[] = [];
  let planned = Dec.ZERO;
  for (let seq = 1; seq <= count; seq += 1) {
    const amount = seq === count ? total.sub(planned) : each;
    planned = planned.add(amount);
    tranches.push({ seq, releaseAt: start + cliffMs + (seq - 1) * intervalMs, amount });
  }
  return tranches.filter((tranche) => tranche.amount.isPositive());
}
