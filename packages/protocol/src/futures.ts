/**
 * Futures orders, positions and TP/SL orders on the wire (spec §3 "Entrust
 * (futures)", "Futures position", "Poster order"), shared by the server's
 * /contract routes and the web's futures screens. Amounts and prices travel
 * as decimal strings, times as epoch milliseconds.
 */

/** Margin modes as the spec spells them: isolated is "lsolate". */
export type FuturesTdMode = 'lsolate' | 'cross';

/**
 * Spec §3 entrust states: unfilled (resting, nothing filled), section (resting,
 * partly filled), all (filled), cancel (ended with nothing filled), uncancel
 * (ended partly filled: the rest was cancelled, the filled part stands).
 */
export const FUTURES_ENTRUST_STATES = ['unfilled', 'section', 'all', 'cancel', 'uncancel'] as const;
export type FuturesEntrustState = (typeof FUTURES_ENTRUST_STATES)[number];
export type FuturesPositionState = 'open' | 'closed' | 'liquidated';
export type FuturesTriggerState = 'active' | 'fired' | 'cancelled';

/** Spec §3 "Entrust (futures)" plus what the entrust card shows. */
export interface FuturesEntrust {
  autoid: number;
  id: string;
  type: 'buy' | 'sell';
  /** open: adds to a position; close: reduces one (closePosition, TP/SL). */
  action: 'open' | 'close';
  tdMode: FuturesTdMode;
  lever: number;
  tradcoin: string;
  maincoin: string;
  wdate: number;
  /** The limit price; '0' for a market order. */
  entrust_price: string;
  /** The latest price of the contract. */
  price: string;
  /** Average fill price, '0' before any fill. */
  deal_price: string;
  /** The attached take-profit and stop-loss ('' when none): the card's trigger prices. */
  profitPrice: string;
  lossPrice: string;
  number: string;
  unfilled: string;
  style: 'limit' | 'market';
  /** Decimal places of the contract's prices. */
  point: number;
  state: FuturesEntrustState;
  margin: string;
  /** The fee its fills paid so far, in `feeCoin`. */
  fee: string;
  /** The coin the fee was paid in (the contract's margin coin). */
  feeCoin: string;
  /** Fees paid in HAL instead (fee deduction). */
  feeHal: string;
}

/** Spec §3 "Futures position" plus its labels (liquidation price, TP/SL, value, funding) and, once closed, "Poster order". */
export interface FuturesPosition {
  autoid: number;
  type: 'buy' | 'sell';
  tdMode: FuturesTdMode;
  lever: number;
  tradcoin: string;
  maincoin: string;
  wdate: number;
  /** Average open price. */
  price: string;
  /** Price of the first fill. */
  open_price: string;
  number: string;
  /** Lots that can be closed now. */
  unfilled: string;
  /** Margin. */
  position: string;
  /** Unrealised PnL at the mark. */
  profit: string;
  /** Unrealised PnL / margin × 100, 2 decimals. */
  profit_rate: string;
  realised: string;
  /** The contract's fee rate. */
  gas: string;
  /** Fees paid. */
  fess: string;
  /** Net funding (the spec's "interest"): received positive. */
  funding: string;
  point: number;
  profitOrder: number;
  mark_price: string;
  liquidation_price: string;
  /** |s| × mark. */
  value: string;
  tp_price: string;
  sl_price: string;
  state: FuturesPositionState;
  closedate: number | null;
  close_price: string;
  /** Spec §3 "Poster order": the realised PnL of a closed position, income = profit / margin × 100. */
  last_profit: string;
  income: string;
}

/** A TP/SL order on a position. */
export interface FuturesTrigger {
  id: number;
  autoid: number;
  tradcoin: string;
  maincoin: string;
  type: 'buy' | 'sell';
  profitPrice: string;
  lossPrice: string;
  number: string;
  state: FuturesTriggerState;
  wdate: number;
}

/** One page of a futures list. */
export interface FuturesPage<T> {
  list: T[];
  count: number;
  page: number;
  limit: number;
}
