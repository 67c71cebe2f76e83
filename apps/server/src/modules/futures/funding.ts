// Funding's pure rules: when rounds start and the rate of one round. The
// round itself (payments through the ledger) runs in risk-pass.ts.
import type { DepthSnapshot } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { fundingRate } from './risk.ts';

/** Funding every 8 hours unless FUNDING_INTERVAL_MS says otherwise. */
export const FUNDING_INTERVAL_MS_DEFAULT = 8 * 3_600_000;

export function fundingIntervalFrom(env: NodeJS.ProcessEnv): number {
  const text = env.FUNDING_INTERVAL_MS;
  if (text === undefined || text === '') return FUNDING_INTERVAL_MS_DEFAULT;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1000)
    throw new Error('FUNDING_INTERVAL_MS must be a whole number of milliseconds, at least 1000');
  return value;
}

/** Funding rounds start on multiples of the interval since the epoch (00:00, 08:00, 16:00 UTC for 8 h). */
export function fundingSlot(now: number, intervalMs: number): number {
  return Math.floor(now / intervalMs) * intervalMs;
}

/** The book's mid price, or null unless both sides quote. */
export function bookMid(depth: Pick<DepthSnapshot, 'bestBid' | 'bestAsk'>): Dec | null {
  if (depth.bestBid === null || depth.bestAsk === null) return null;
  return depth.bestBid.add(depth.bestAsk).div(Dec.fromInt(2));
}

/**
 * The rate of one round: mark = index in this exchange, so the premium that
 * funding pulls back is the book's mid over the index (zero without a
 * two-sided book).
 */
export function roundRate(
  depth: Pick<DepthSnapshot, 'bestBid' | 'bestAsk'>,
  index: Dec,
): { rate: Dec; mid: Dec } {
  const mid = bookMid(depth);
  if (mid === null) return { rate: Dec.ZERO, mid: index };
  return { rate: fundingRate(mid, index), mid };
}
