// What the futures checks take (the commands of modules/futures' engine
// queue; the money state's own commands, futures.ts, become these), who sends
// them (the traders) and what a command answers: the words shared by the
// engine's callers, its stages and the money state.
import { type AccountRef, userAccount } from '../../ledger/index.ts';
import { HOUSE } from './futures-legs.ts';
import type {
  ContractRow,
  EntrustRow,
  FuturesTradeRow,
  PositionRow,
  TdMode,
  TriggerRow,
} from './futures-rows.ts';

/** The house's quoting role: its resting orders, and the owner of its one net position per contract. */
export const HOUSE_OWNER = 'house';
/**
 * The house's crossing role (demo mode: its market orders print trades). A
 * different book owner than the quotes, so self-trade prevention lets the two
 * meet; both are the one house, with one position and one account.
 */
export const HOUSE_TAKER_OWNER = 'house-taker';

/** Who places an order: a user (margin held in their futures wallet) or the house (the market maker). */
export interface Trader {
  owner: string;
  userId: number;
  account: AccountRef;
}

export function userTrader(userId: number): Trader {
  return { owner: String(userId), userId, account: userAccount(userId, 'futures') };
}

export const HOUSE_TRADER: Trader = { owner: HOUSE_OWNER, userId: 0, account: HOUSE };
export const HOUSE_TAKER_TRADER: Trader = { owner: HOUSE_TAKER_OWNER, userId: 0, account: HOUSE };

/** Whether an order's owner is the house, in either role. */
export function isHouse(owner: string): boolean {
  return owner === HOUSE_OWNER || owner === HOUSE_TAKER_OWNER;
}

export interface OpenCommand {
  kind: 'open';
  trader: Trader;
  contractId: number;
  side: 'buy' | 'sell';
  style: 'limit' | 'market';
  price?: string | undefined;
  number: string;
  lever: number;
  tdMode: TdMode;
  profitPrice?: string | undefined;
  lossPrice?: string | undefined;
}

export interface CloseCommand {
  kind: 'close';
  userId: number;
  positionId: number;
  /** Lots, as typed; null closes all. */
  number: string | null;
}

export interface CancelCommand {
  kind: 'cancel';
  owner: string;
  autoid: number;
}

export interface SetTriggerCommand {
  kind: 'setTrigger';
  userId: number;
  positionId: number;
  /** Editing an existing one; absent creates. */
  triggerId?: number | undefined;
  profitPrice?: string | undefined;
  lossPrice?: string | undefined;
  number?: string | undefined;
}

export interface CancelTriggerCommand {
  kind: 'cancelTrigger';
  userId: number;
  triggerId: number;
}

/**
 * A contract's new settings (the back office), or a contract just listed
 * (its id not in memory yet): queued like an order, so it applies between
 * two commands; the row is written in the group's transaction. The price
 * accuracy may change only while no order rests in the contract's book.
 */
export interface SettingsCommand {
  kind: 'settings';
  contract: ContractRow;
}

/** Re-check one contract after its mark moved: TP/SL, liquidations, funding when due. */
export interface RiskCommand {
  kind: 'risk';
  contractId: number;
}

export type FuturesCommand =
  | SettingsCommand
  | OpenCommand
  | CloseCommand
  | CancelCommand
  | SetTriggerCommand
  | CancelTriggerCommand
  | RiskCommand;

export interface CommandResult {
  orders: EntrustRow[];
  positions: PositionRow[];
  triggers: TriggerRow[];
}

/** What one committed group changed, for the pushes that follow it. */
export interface GroupEffects {
  contracts: Set<number>;
  trades: FuturesTradeRow[];
}
