import { Dec } from '@halyard/money';
import { invalidAccountField } from '../../ledger/accounts.ts';
import type { AccountRef } from '../../ledger/index.ts';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult } from './commands.ts';
import { FuturesState } from './futures-book.ts';
import { type CommandPlan, checkCommand, isFuturesRefusal, usableAccountOf } from './futures-checks.ts';
import type { FuturesCommand, Trader } from './futures-commands.ts';
import { holdTransfer } from './futures-legs.ts';
import { openEntrustOf, openOnBook } from './futures-orders.ts';
import type {
  ContractRow,
  EntrustRow,
  FundingRow,
  FuturesTradeRow,
  PositionRow,
  TdMode,
  TriggerRow,
} from './futures-rows.ts';
import { Work } from './futures-work.ts';
import { available, type MoneyState } from './money-state.ts';

/**
 * Futures orders on the money state (docs/core.md, "Futures in the state"):
 * the in-memory state modules/futures' engine holds too (`FuturesState`,
 * futures-book.ts: books, open orders, positions, triggers, marks), the
 * checks (futures-checks.ts), and the rules both share (futures-orders.ts,
 * futures-fills.ts, futures-positions.ts, futures-legs.ts,
 * futures-margin.ts) carried through in the engine's order by `Work`
 * (futures-work.ts), with the ledger and the referral state in memory
 * instead of SQL. Ids are the
 * state's own, from 1, as the tables' serials give them on a fresh
 * database. The rows each command changed are published as one `futures`
 * event that modules/futures/projection.ts writes with the module's store.
 */

/** What the money state keeps of futures: the module's in-memory state and the next ids. */
export interface FuturesMoney {
  book: FuturesState;
  nextOrderId: number;
  nextPositionId: number;
  nextTriggerId: number;
}

export function createFuturesMoney(): FuturesMoney {
  return { book: new FuturesState(), nextOrderId: 1, nextPositionId: 1, nextTriggerId: 1 };
}

interface CommandBase {
  id?: string;
  at: number;
}

/**
 * A contract's settings (the back office), or a contract just listed: its
 * row as the table holds it. `fundingSlot` is the funding slot at `at`,
 * stamped by the edge: a new contract's first round is the one after it.
 */
export interface FuturesContractCommand extends CommandBase {
  kind: 'futuresContract';
  contract: ContractRow;
  fundingSlot: number;
}

/** An opening order (`/contract/buyLimit` and the like, the house's quotes and crossings). */
export interface FuturesOpenCommand extends CommandBase {
  kind: 'futuresOpen';
  /** Who places it: a user (margin from their futures wallet) or a house role. */
  trader: Trader;
  contractId: number;
  side: 'buy' | 'sell';
  style: 'limit' | 'market';
  price?: string;
  number: string;
  lever: number;
  tdMode: TdMode;
  profitPrice?: string;
  lossPrice?: string;
}

/** Closes `number` lots of a position (null: all) at market. */
export interface FuturesCloseCommand extends CommandBase {
  kind: 'futuresClose';
  userId: number;
  positionId: number;
  number: string | null;
}

export interface FuturesCancelCommand extends CommandBase {
  kind: 'futuresCancel';
  owner: string;
  orderId: number;
}

/**
 * A coin's mark (its index tick), stamped by the edge with the funding slot
 * at `at`: the mark is recorded, then each contract of the coin has its risk
 * pass (futures-risk.ts): TP/SL, liquidations, the funding round when due.
 */
export interface FuturesMarkCommand extends CommandBase {
  kind: 'futuresMark';
  coin: string;
  price: string;
  fundingSlot: number;
}

/** A TP/SL order on a position (`/contract/setProfitLoss`, `editProfitLoss` names the trigger it edits). */
export interface FuturesSetTriggerCommand extends CommandBase {
  kind: 'futuresSetTrigger';
  userId: number;
  positionId: number;
  triggerId?: number;
  profitPrice?: string;
  lossPrice?: string;
  number?: string;
}

export interface FuturesCancelTriggerCommand extends CommandBase {
  kind: 'futuresCancelTrigger';
  userId: number;
  triggerId: number;
}

export type FuturesMoneyCommand =
  | FuturesContractCommand
  | FuturesOpenCommand
  | FuturesCloseCommand
  | FuturesCancelCommand
  | FuturesMarkCommand
  | FuturesSetTriggerCommand
  | FuturesCancelTriggerCommand;

/** What a futures command answers: the ids of the orders, positions and triggers the engine's answer holds. */
export interface FuturesOutcome {
  orders: number[];
  positions: number[];
  triggers: number[];
}

/** A row the command changed, as it stands after it; `created`: the command made it (inserted, else updated). */
export interface FuturesRowChange<Row> {
  row: Row;
  created: boolean;
}

/** The rows one futures command changed: what modules/futures/projection.ts writes. Plain data. */
export interface FuturesRowsEvent {
  type: 'futures';
  /** A known contract's new settings (a new one's row is the listing's, written where it is listed). */
  contract: ContractRow | null;
  orders: FuturesRowChange<EntrustRow>[];
  positions: FuturesRowChange<PositionRow>[];
  triggers: FuturesRowChange<TriggerRow>[];
  /** In the order the engine inserts them (ids by the table's serial). */
  trades: Omit<FuturesTradeRow, 'autoid'>[];
  /** The funding rounds of a mark tick, in order (ids by the table's serial). */
  funding: FundingRecord[];
}

/** A funding round's row as `futures_funding` stores it (its id aside). */
export type FundingRecord = Omit<FundingRow, 'autoid'>;

type Refusal = Extract<MoneyResult, { ok: false }>;

// ── the commands ──────────────────────────────────────────────────────────

export function applyFuturesContract(state: MoneyState, command: FuturesContractCommand) {
  const { book } = state.futures;
  if (!validContract(command.contract) || !Number.isSafeInteger(command.fundingSlot)) return invalid();
  const checked = check(state, { kind: 'settings', contract: command.contract }, command.at);
  if ('error' in checked) return { result: checked, events: [] };
  if (checked.kind !== 'settings') throw new Error('futures state: a settings check planned something else');
  // Its decimals as the state writes them, whatever text the edge read (PostgreSQL pads NUMERIC with zeros).
  const contract = { ...command.contract };
  for (const field of CONTRACT_DECIMALS) contract[field] = Dec.canonical(contract[field]);
  book.putContract(contract, () => command.fundingSlot);
  const event: FuturesRowsEvent = {
    type: 'futures',
    contract: checked.known ? { ...contract } : null,
    orders: [],
    positions: [],
    triggers: [],
    trades: [],
    funding: [],
  };
  return { result: { ok: true } as MoneyResult, events: [event] };
}

/** Checks, holds, matches and settles one opening order; a refusal changes nothing. */
export function applyFuturesOpen(
  state: MoneyState,
  command: FuturesOpenCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  if (!validOpen(command)) return invalid();
  const engineCommand: FuturesCommand = {
    kind: 'open',
    trader: command.trader,
    contractId: command.contractId,
    side: command.side,
    style: command.style,
    price: command.price,
    number: command.number,
    lever: command.lever,
    tdMode: command.tdMode,
    profitPrice: command.profitPrice,
    lossPrice: command.lossPrice,
  };
  const plan = check(state, engineCommand, command.at);
  if ('error' in plan) return { result: plan, events: [] };
  if (plan.kind !== 'open') throw new Error('futures state: an open check planned something else');
  const work = new Work(state, command.at, seq);
  const row = work.newOrder(openEntrustOf(plan));
  const { market, hold } = plan;
  if (hold.isPositive())
    work.apply([holdTransfer(row.autoid, command.trader.account, market.contract.maincoin, hold)]);
  const settled = work.match(market, row, plan.lots, (common) => openOnBook(plan, common));
  return work.finish(settled, emit);
}

export function applyFuturesClose(
  state: MoneyState,
  command: FuturesCloseCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  if (!Number.isSafeInteger(command.userId) || !Number.isSafeInteger(command.positionId)) return invalid();
  if (command.number !== null && typeof command.number !== 'string') return invalid();
  const plan = check(
    state,
    {
      kind: 'close',
      userId: command.userId,
      positionId: command.positionId,
      number: command.number,
    },
    command.at,
  );
  if ('error' in plan) return { result: plan, events: [] };
  if (plan.kind !== 'close') throw new Error('futures state: a close check planned something else');
  const work = new Work(state, command.at, seq);
  return work.finish(work.close(plan.market, plan.position, plan.lots), emit);
}

export function applyFuturesCancel(
  state: MoneyState,
  command: FuturesCancelCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  if (typeof command.owner !== 'string' || !Number.isSafeInteger(command.orderId)) return invalid();
  const plan = check(state, { kind: 'cancel', owner: command.owner, autoid: command.orderId }, command.at);
  if ('error' in plan) return { result: plan, events: [] };
  if (plan.kind !== 'cancel') throw new Error('futures state: a cancel check planned something else');
  const work = new Work(state, command.at, seq);
  const { market, row } = plan;
  const events = market.book.cancel({ kind: 'cancel', orderId: String(row.autoid), userId: row.owner });
  return work.finish(work.settle(market, events), emit);
}

// ── the checks ────────────────────────────────────────────────────────────

/** The checks (futures-checks.ts) on the state's balance: the plan, or the refusal as the command's answer. */
export function check(state: MoneyState, command: FuturesCommand, at: number): CommandPlan | Refusal {
  const { book } = state.futures;
  const read = usableAccountOf(book, command);
  const usable = read ? available(state, read.account, read.asset) : Dec.ZERO;
  const checked = checkCommand(
    book,
    command,
    () => usable,
    () => at,
  );
  if (!isFuturesRefusal(checked)) return checked;
  const { key, params } = checked;
  return params === undefined || Object.keys(params).length === 0
    ? { ok: false, error: key }
    : { ok: false, error: key, params: { ...params } };
}

// ── shapes ────────────────────────────────────────────────────────────────

function validOpen(command: FuturesOpenCommand): boolean {
  const { trader } = command;
  const optionalText = (value: unknown) => value === undefined || typeof value === 'string';
  return (
    typeof trader === 'object' &&
    trader !== null &&
    typeof trader.owner === 'string' &&
    Number.isSafeInteger(trader.userId) &&
    validAccount(trader.account) &&
    Number.isSafeInteger(command.contractId) &&
    (command.side === 'buy' || command.side === 'sell') &&
    (command.style === 'limit' || command.style === 'market') &&
    (command.tdMode === 'cross' || command.tdMode === 'lsolate') &&
    Number.isSafeInteger(command.lever) &&
    typeof command.number === 'string' &&
    optionalText(command.price) &&
    optionalText(command.profitPrice) &&
    optionalText(command.lossPrice)
  );
}

function validAccount(account: AccountRef): boolean {
  return typeof account === 'object' && account !== null && invalidAccountField(account) === null;
}

const CONTRACT_DECIMALS = [
  'unit',
  'gas',
  'minnumber',
  'maxnumber',
  'maintenance_margin_rate',
  'initial_margin_rate',
] as const;

/** A contract row the state can parse: its amounts decimals, its levers a list of whole numbers. */
function validContract(contract: ContractRow): boolean {
  if (typeof contract !== 'object' || contract === null) return false;
  const decimals = CONTRACT_DECIMALS.map((field) => contract[field]);
  if (!decimals.every((value) => typeof value === 'string' && Dec.tryParse(value) !== null)) return false;
  if (!Number.isSafeInteger(contract.autoid) || !Number.isSafeInteger(contract.price_accuracy)) return false;
  if (typeof contract.tradcoin !== 'string' || typeof contract.maincoin !== 'string') return false;
  try {
    const levers: unknown = JSON.parse(contract.levers);
    return Array.isArray(levers) && levers.every((lever) => Number.isSafeInteger(lever));
  } catch {
    return false;
  }
}

export function invalid(): { result: MoneyResult; events: [] } {
  return { result: { ok: false, error: 'ledger.invalidTransfer', params: { field: 'command' } }, events: [] };
}
