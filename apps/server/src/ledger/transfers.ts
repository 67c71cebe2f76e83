import type { Dec } from '@halyard/money';
import type { AccountRef } from './accounts.ts';

/**
 * TigerBeetle's four kinds of transfer. `posted` moves money now; `pending`
 * reserves it (a hold); `post_pending` moves part or all of what a hold still
 * reserves; `void_pending` releases the rest. Unlike TigerBeetle, a hold may be
 * posted several times (an order fills in several trades) before it is voided.
 */
export type TransferType = 'posted' | 'pending' | 'post_pending' | 'void_pending';

interface TransferInputBase {
  /** Caller-chosen and unique forever: a retry with the same id and fields is answered, not repeated. */
  id: string;
  /** What the movement is for: 'deposit', 'trade', 'fee', 'order', 'transfer', ... */
  code: string;
  /** The business object behind it, e.g. an order id; null when none. */
  reference?: string | null;
  /**
   * The id is derived from a number the money state hands out once (a spot
   * order's id), so no retry can ever carry it: the ledger does not look it
   * up, and the money state does not keep it in its retry window. That is
   * most of a trade's transfers, and a million of them would otherwise be a
   * million map entries to look up, keep and forget (docs/core.md "Derived
   * ids"). The projector, which applies each batch again against SQL with
   * every id looked up, still refuses a repeated one.
   */
  derived?: true;
}

/** Moves `amount` of `asset` from `debit` to `credit`, now (`posted`) or as a hold (`pending`). */
export interface MoveInput extends TransferInputBase {
  type?: 'posted' | 'pending';
  debit: AccountRef;
  credit: AccountRef;
  asset: string;
  amount: Dec;
}

/** Moves `amount` (≤ what the hold still reserves) from hold `pendingId`, between the hold's accounts. */
export interface PostInput extends TransferInputBase {
  type: 'post_pending';
  pendingId: string;
  amount: Dec;
}

/** Releases everything hold `pendingId` still reserves. */
export interface VoidInput extends TransferInputBase {
  type: 'void_pending';
  pendingId: string;
}

export type TransferInput = MoveInput | PostInput | VoidInput;

/** A committed transfer, as stored. For a void, `amount` is what it released. */
export interface Transfer {
  /** Commit order, increasing; the cursor for paging. */
  seq: number;
  id: string;
  type: TransferType;
  debit: AccountRef;
  credit: AccountRef;
  asset: string;
  amount: Dec;
  code: string;
  reference: string | null;
  pendingId: string | null;
  /** Milliseconds since the epoch, from the ledger's Clock. */
  timestamp: number;
}

export type HoldState = 'open' | 'posted' | 'voided';

/** A pending transfer and what it still reserves. */
export interface Hold {
  transfer: Transfer;
  remaining: Dec;
  /** open while something is reserved; posted when posts used it all; voided when released. */
  state: HoldState;
}

/** The most transfers one batch may carry (TIGER_STYLE: every batch has a bound). */
export const BATCH_MAX = 1000;

/** The most transfers one `executeBulk` may carry. */
export const BULK_MAX = 100_000;
