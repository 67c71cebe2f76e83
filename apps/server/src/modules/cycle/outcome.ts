import { Dec } from '@halyard/money';
import { CYCLE_AMOUNT_DIGITS, winIncome } from '@halyard/rules';
import type { CycleResult, CycleSide } from './store.ts';

/** The rates an order copied from its duration option when it was accepted. */
export interface OrderRates {
  /** Payout on a win, a fraction of the stake. */
  profitGas: Dec;
  /** What a loss costs, a fraction of the stake (1 = the whole stake). */
  lossGas: Dec;
  /** Fee, a fraction of the payout; charged on a win only. */
  gas: Dec;
}

/** What a settlement moves, all non-negative, and the signed profit it stores. */
export interface Settlement {
  result: CycleResult;
  /** From the house to the user (win). */
  payout: Dec;
  /** From the user to the fee account, out of the payout (win). */
  fee: Dec;
  /** From the stake to the house (loss). */
  loss: Dec;
  /** payout − fee on a win, −loss on a loss, 0 on a draw. */
  lastProfit: Dec;
}

/**
 * AMENDMENTS A3: the two published prices alone decide. Up wins when the close
 * is strictly above the open, down when strictly below; equal prices are a draw.
 */
export function decideResult(side: CycleSide, open: Dec, close: Dec): CycleResult {
  const move = close.cmp(open);
  if (move === 0) return 'draw';
  const rose = move > 0;
  return rose === (side === 'buy') ? 'win' : 'loss';
}

/**
 * A void contract (no index price at its expiry instant, see settlement.ts
 * closeToleranceMs): no outcome, the whole stake comes back, no fee.
 */
export const VOID_SETTLEMENT: Readonly<Settlement> = Object.freeze({
  result: 'void',
  payout: Dec.ZERO,
  fee: Dec.ZERO,
  loss: Dec.ZERO,
  lastProfit: Dec.ZERO,
});

/** The money of a settlement: a draw moves nothing and the whole stake comes back. */
export function settle(side: CycleSide, stake: Dec, rates: OrderRates, open: Dec, close: Dec): Settlement {
  const result = decideResult(side, open, close);
  if (result === 'win') {
    const { payout, fee, net } = winIncome(stake, rates);
    return { result, payout, fee, loss: Dec.ZERO, lastProfit: net };
  }
  if (result === 'loss') {
    // Never more than the stake, whatever the configured rate: the hold is all that is at risk.
    const loss = Dec.min(stake.mul(rates.lossGas).floorTo(CYCLE_AMOUNT_DIGITS), stake);
    return { result, payout: Dec.ZERO, fee: Dec.ZERO, loss, lastProfit: loss.neg() };
  }
  return { result, payout: Dec.ZERO, fee: Dec.ZERO, loss: Dec.ZERO, lastProfit: Dec.ZERO };
}
