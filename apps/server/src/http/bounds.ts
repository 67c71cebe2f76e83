/**
 * Bounds of the numbers a client may send, shared by the routes' schemas so
 * that no value past them reaches a service: an id beyond 2^53 is no longer
 * exact as a JavaScript number and one beyond 2^63 overflows a PostgreSQL
 * bigint; an instant past year 9999 cannot be shown as a date.
 */

/** The largest id a client may name. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
/** The earliest instant a client may name: 2000-01-01 UTC, in ms since the epoch. */
export const MIN_EPOCH_MS = Date.UTC(2000, 0, 1);
/** The latest: the last millisecond of year 9999 UTC. */
export const MAX_EPOCH_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** A row id: a positive integer. */
export const idField = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;

/** An instant, as ms since the epoch. */
export function epochMsField(description: string) {
  return { type: 'integer', minimum: MIN_EPOCH_MS, maximum: MAX_EPOCH_MS, description } as const;
}
