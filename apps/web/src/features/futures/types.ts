import type {
  FuturesEntrust,
  FuturesPage,
  FuturesPosition,
  FuturesSymbolRow,
  FuturesTdMode,
  FuturesTrigger,
} from '@halyard/protocol';

/** The shapes of the /contract/* replies (apps/server/src/modules/futures/service.ts). */
export type TdMode = FuturesTdMode;
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

/** The wire shapes of spec §3, shared with the server (@halyard/protocol), under the names the screens use. */
export type Entrust = FuturesEntrust;
export type Position = FuturesPosition;
export type Trigger = FuturesTrigger;
export type Page<T> = FuturesPage<T>;

export interface ContractAccount {
  balance: { usable: string; locked: string };
  entrust_order: Entrust[];
}
