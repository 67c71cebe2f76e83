import type { DepthSnapshot } from '@halyard/matching';
import { Dec } from '@halyard/money';
import type { TradeRow } from './store.ts';

/** A committed trade as the pushes and the trade screen show it. */
export type CommittedTrade = Pick<TradeRow, 'price' | 'amount' | 'taker_side' | 'wdate'>;

/** Latest trades kept per pair for the `top` push and the trade screen. */
export const TOP_TRADES = 20;
/** Levels a side kept of the committed book. */
export const DEPTH_LEVELS = 20;

/**
 * What a pair shows between two durable writes, whichever path writes it
 * (PairMarket on SQL, CorePairMarket on the core): the latest trades and
 * the book's depth as of the last write, and the latest price they give.
 */
export abstract class PairTape {
  /** Newest first. */
  private trades: readonly CommittedTrade[] = [];
  private committedDepth: DepthSnapshot;

  protected constructor(
    depth: DepthSnapshot,
    private readonly indexPrice: () => Dec | null,
  ) {
    this.committedDepth = depth;
  }

  /** The book as of the last durable write, best first, up to 20 levels a side. */
  depth(): DepthSnapshot {
    return this.committedDepth;
  }

  /** The latest durable trades, newest first. */
  latestTrades(): readonly CommittedTrade[] {
    return this.trades;
  }

  /** Last trade price, else the index price; null when neither is known. */
  latestPrice(): Dec | null {
    const last = this.trades[0];
    return last ? Dec.parse(last.price) : this.indexPrice();
  }

  /** The tape as read back from the store (newest first). */
  protected restoreTape(trades: readonly CommittedTrade[], depth: DepthSnapshot): void {
    this.trades = trades.slice(0, TOP_TRADES);
    this.committedDepth = depth;
  }

  /** A durable write's trades (oldest first) and the book after it. */
  protected recordTape(trades: readonly CommittedTrade[], depth: DepthSnapshot): void {
    this.trades = [...trades].reverse().concat(this.trades).slice(0, TOP_TRADES);
    this.committedDepth = depth;
  }
}
