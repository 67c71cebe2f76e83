import { Dec } from '@halyard/money';
import type { Direction } from './futures-margin.ts';

export interface TriggerPrices {
  profitPrice: Dec | null;
  lossPrice: Dec | null;
}

/**
 * Which side of a take-profit/stop-loss the mark has reached, if any. A long
 * takes profit when the mark rises to its TP and stops its loss when the mark
 * falls to its SL; a short the reverse. Take-profit wins when both are hit at
 * once (only possible when they were set equal).
 */
export function triggerHit(direction: Direction, prices: TriggerPrices, mark: Dec): 'profit' | 'loss' | null {
  const { profitPrice, lossPrice } = prices;
  if (direction === 'long') {
    if (profitPrice !== null && mark.gte(profitPrice)) return 'profit';
    if (lossPrice !== null && mark.lte(lossPrice)) return 'loss';
    return null;
  }
  if (profitPrice !== null && mark.lte(profitPrice)) return 'profit';
  if (lossPrice !== null && mark.gte(lossPrice)) return 'loss';
  return null;
}

export function parseOptionalPrice(text: string | null | undefined): Dec | null {
  return text === null || text === undefined || text.trim() === '' ? null : Dec.parse(text);
}
