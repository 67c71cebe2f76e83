import type { FuturesSymbolRow } from '@halyard/protocol';

/** The shapes of the /contract/* replies (apps/server/src/modules/futures/service.ts). */
export type TdMode = 'lsolate' | 'cross';
export type Side = 'buy' | 'sell';
export type OrderStyle = 'limit' | 'market';

export interface FuturesPair {
  tradcoin: string;
  maincoin: string;
}

/** One book level; `width` is the depth bar in percent (amount × 800 / total, capped at 100). */
export interface BookRow {
  price: string;
  amount: string;
  width?: string;
}

export interface ContractInfo extends FuturesSymbolRow {
  levers: number[];
  mark_price: string;
  high: string;
  low: string;
}

export interface ContractInfoReply {
  info: ContractInfo;
  buy: BookRow[];
  sell: BookRow[];
}

/** Spec §3 "Entrust (futures)". */
export interface Entrust {
  autoid: number;
  type: Side;
  action: 'open' | 'close';
  tdMode: TdMode;
  lever: number;
  tradcoin: string;
  maincoin: string;
  wdate: number;
  entrust_price: string;
  /** The contract's latest price. */
  price: string;
  /** Average fill price, '0' before any fill. */
  deal_price: string;
  profitPrice: string;
  lossPrice: string;
  number: string;
  unfilled: string;
  style: OrderStyle;
  point: number;
  state: string;
  /** The fee its fills paid so far, in `feeCoin` (the margin coin). */
  fee: string;
  feeCoin: string;
}

export interface ContractAccount {
  balance: { usable: string; locked: string };
  entrust_order: Entrust[];
}

/** Spec §3 "Futures position" and, once closed, "Poster order". */
export interface Position {
  autoid: number;
  type: Side;
  tdMode: TdMode;
  lever: number;
  tradcoin: string;
  maincoin: string;
  wdate: number;
  price: string;
  open_price: string;
  number: string;
  unfilled: string;
  position: string;
  profit: string;
  profit_rate: string;
  realised: string;
  gas: string;
  fess: string;
  point: number;
  profitOrder: number;
  mark_price: string;
  liquidation_price: string;
  tp_price: string;
  sl_price: string;
  state: 'open' | 'closed' | 'liquidated';
  closedate: number | null;
  close_price: string;
  last_profit: string;
  income: string;
}

/** A TP/SL order on a position. */
export interface Trigger {
  id: number;
  autoid: number;
  tradcoin: string;
  maincoin: string;
  type: Side;
  profitPrice: string;
  lossPrice: string;
  number: string;
  state: string;
  wdate: number;
}

export interface Page<T> {
  list: T[];
  count: number;
  page: number;
  limit: number;
}
