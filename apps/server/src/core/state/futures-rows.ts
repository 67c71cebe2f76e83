import type {
  FuturesEntrustState,
  FuturesPositionState,
  FuturesTdMode,
  FuturesTriggerState,
} from '@halyard/protocol';

/**
 * The futures rows as the money state and modules/futures both hold them:
 * the columns of the `futures_*` tables, one record each. The module's store
 * (modules/futures/store.ts) types its tables with them, the id being the
 * table's serial.
 */

/** Spec §3 entrust states (the wire's, in @halyard/protocol). */
export type EntrustState = FuturesEntrustState;
export const OPEN_ENTRUST_STATES: readonly EntrustState[] = ['unfilled', 'section'];

/** Margin modes as the spec spells them: isolated is "lsolate". */
export type TdMode = FuturesTdMode;
export type PositionState = FuturesPositionState;
export type TriggerState = FuturesTriggerState;

export interface ContractRow {
  autoid: number;
  tradcoin: string;
  maincoin: string;
  chinaname: string;
  symbol: string;
  unit: string;
  minnumber: string;
  maxnumber: string;
  max_lever: number;
  levers: string;
  gas: string;
  price_accuracy: number;
  initial_margin_rate: string;
  maintenance_margin_rate: string;
  state: number;
  plate: number;
  sort: number;
}

export interface EntrustRow {
  autoid: number;
  contract_id: number;
  user_id: number;
  owner: string;
  type: 'buy' | 'sell';
  action: 'open' | 'close';
  td_mode: TdMode;
  lever: number;
  style: 'limit' | 'market';
  price: string | null;
  number: string;
  unfilled: string;
  held: string;
  hold_spent: string;
  deal_money: string;
  fee: string;
  /** Fees paid in HAL instead (fee deduction, migration 034); `fee` holds what was paid in the margin coin. */
  fee_hal: string;
  margin: string;
  profit_price: string | null;
  loss_price: string | null;
  position_id: number | null;
  state: EntrustState;
  cancel_reason: string | null;
  wdate: number;
  updated_at: number;
}

export interface PositionRow {
  autoid: number;
  contract_id: number;
  user_id: number;
  owner: string;
  type: 'buy' | 'sell';
  td_mode: TdMode;
  lever: number;
  number: string;
  cost: string;
  margin: string;
  open_price: string;
  realised: string;
  fees: string;
  funding: string;
  closed_number: string;
  close_money: string;
  close_price: string | null;
  state: PositionState;
  wdate: number;
  closedate: number | null;
  updated_at: number;
}

export interface TriggerRow {
  autoid: number;
  position_id: number;
  user_id: number;
  profit_price: string | null;
  loss_price: string | null;
  number: string | null;
  state: TriggerState;
  fired_price: string | null;
  wdate: number;
  updated_at: number;
}

export interface FuturesTradeRow {
  autoid: number;
  contract_id: number;
  maker_order_id: number;
  taker_order_id: number;
  taker_side: 'buy' | 'sell';
  price: string;
  number: string;
  wdate: number;
}

export interface FundingRow {
  autoid: number;
  contract_id: number;
  slot: number;
  rate: string;
  mark: string;
  mid: string;
  wdate: number;
}
