import { Dec } from '@halyard/money';
import type { CycleLeverOption, CyclePosition } from '@halyard/protocol';
import { winIncome } from '@halyard/rules';

/** Spec §2: the floating boxes start 100 px from the top, 150 px apart. */
export const BOX_TOP_PX = 100;
export const BOX_GAP_PX = 150;
const HUNDRED = Dec.fromInt(100);

export function boxTop(index: number): number {
  return BOX_TOP_PX + index * BOX_GAP_PX;
}

/**
 * Spec §4: seconds left = open time + duration − (local now + server offset),
 * never below 0 and never above the duration (a clock offset measured a few
 * ms off must not show 31 on a 30 s contract), whole seconds rounded up so "1"
 * shows until the very end.
 */
export function secondsLeft(
  position: Pick<CyclePosition, 'wdate' | 'lever'>,
  localNow: number,
  offsetMs: number,
): number {
  const leftMs = position.wdate + position.lever * 1000 - (localNow + offsetMs);
  return leftMs <= 0 ? 0 : Math.min(Math.ceil(leftMs / 1000), position.lever);
}

/** Whether an open position is winning at `price` (AMENDMENTS A3: equal is neither). */
export function standing(
  position: Pick<CyclePosition, 'type' | 'open_price'>,
  price: string,
): 'winning' | 'losing' | 'even' {
  const now = Dec.tryParse(price);
  const open = Dec.tryParse(position.open_price);
  if (!now || !open || now.eq(open)) return 'even';
  return now.gt(open) === (position.type === 'buy') ? 'winning' : 'losing';
}

/** A rate as a percent with 2 decimals ("0.85" → "85.00"). */
export function ratePercent(rate: string): string {
  return (Dec.tryParse(rate) ?? Dec.ZERO).mul(HUNDRED).toFixed(2);
}

/** What a win would pay on `quantity` after the fee (the server's rule), or null when no valid quantity. */
export function expectedProfit(quantity: string, option: CycleLeverOption | undefined): string | null {
  const stake = Dec.tryParse(quantity.trim());
  if (!option || !stake?.isPositive()) return null;
  return winIncome(stake, {
    profitGas: Dec.parse(option.profitGas),
    gas: Dec.parse(option.gas),
  }).net.toString();
}

/** Spec §4: choosing a duration whose minimum exceeds the entered quantity clears the quantity. */
export function quantityAfterChoosing(quantity: string, option: CycleLeverOption): string {
  const stake = Dec.tryParse(quantity.trim());
  return stake && Dec.parse(option.minnumber).gt(stake) ? '' : quantity;
}
