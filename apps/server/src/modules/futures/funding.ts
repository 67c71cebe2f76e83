// Funding's clock: the interval the server runs (FUNDING_INTERVAL_MS) and
// the slot a time falls in. A round's rate is core/state/futures-margin.ts's
// (`roundRate`); the round itself runs in risk-pass.ts (and in the money
// state, core/state/futures-risk.ts, with the slot the edge stamps).

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
