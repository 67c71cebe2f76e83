import { Dec } from '@halyard/money';
import { priceStep } from '@halyard/rules';

/**
 * Spec §4: the price moves by 10^-price_accuracy and never below that step.
 * Sums are decimal (Dec), never JavaScript numbers.
 */
export function stepPrice(value: string, accuracy: number, direction: 1 | -1): string {
  const step = Dec.parse(priceStep(accuracy));
  const current = (Dec.tryParse(value) ?? Dec.ZERO).floorTo(accuracy);
  const next = direction === 1 ? current.add(step) : current.sub(step);
  return Dec.max(step, next).toFixed(accuracy);
}
