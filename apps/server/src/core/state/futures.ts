// One file (over 500 lines): the futures commands, the engine's stages carried through in memory for them, and
// their snapshot are one path, read against modules/futures' own stages step by step.
import type { BookEvent, TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { AppError } from '../../http/errors.ts';
import { invalidAccountField } from '../../ledger/accounts.ts';
import { type AccountRef, type TransferInput, userAccount } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import { type CommandPlan, checkCommand, usableAccountOf } from '../../modules/futures/checks.ts';
import { type FuturesCommand, isHouse, type Trader } from '../../modules/futures/commands.ts';
import { feeChargeOf } from '../../modules/futures/fees.ts';
import { holdTransfer, type LegId, takeOverLeg } from '../../modules/futures/ledger-plan.ts';
import {
  bookCommonOf,
  closeEntrustOf,
  closingSide,
  newEntrustFields,
  openEntrustOf,
  openOnBook,
  placeMarket,
} from '../../modules/futures/matching.ts';
import {
  closeAtBankruptcy,
  endTriggerRow,
  findPosition,
  houseAdds,
  houseCloses,
  houseKey,
  housePositionOf,
  keepPositionCaches,
  type NewTrigger,
  newPositionFields,
  newTriggerFields,
  orderTriggerOf,
  type PositionKey,
  stampPosition,
} from '../../modules/futures/positions.ts';
import { feeOf, notionalOf } from '../../modules/futures/risk.ts';
import {
  actionRank,
  addOpenFill,
  closeFillInto,
  closingPosition,
  endedOrder,
  isOpenState,
  openFillFee,
  openFillLegsOf,
  recordFill,
  stampOrder,
  tradeRow,
} from '../../modules/futures/settlement.ts';
import { type ContractMarket, FuturesState } from '../../modules/futures/state.ts';
import type {
  ContractRow,
  EntrustRow,
  FundingRow,
  FuturesTradeRow,
  PositionRow,
  TdMode,
  TriggerRow,
} from '../../modules/futures/store.ts';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult } from './commands.ts';
import { applyTransfers, available, type MoneyState } from './money-state.ts';
import type { CommissionRow } from './referral-rules.ts';
import { CommissionBatch } from './referral-rules.ts';
import { commissionOf, halFeeFor } from './spot-fees.ts';

/**
 * Futures orders on the money state (docs/core.md, "Futures in the state"):
 * modules/futures' own in-memory state (`FuturesState`: books, open orders,
 * positions, triggers, marks), its checks (checks.ts, pure), and the stages'
 * pure parts (matching.ts, settlement.ts, positions.ts, fees.ts,
 * ledger-plan.ts, risk.ts) carried through in the engine's order, with the
 * ledger and the referral state in memory instead of SQL. Ids are the
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
  for (const field of CONTRACT_DECIMALS) contract[field] = Dec.parse(contract[field]).toString();
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

/** modules/futures' checks (checks.ts) on the state's balance; their refusal as a value. */
export function check(state: MoneyState, command: FuturesCommand, at: number): CommandPlan | Refusal {
  const { book } = state.futures;
  const read = usableAccountOf(book, command);
  const usable = read ? available(state, read.account, read.asset) : Dec.ZERO;
  try {
    return checkCommand(
      book,
      command,
      () => usable,
      () => at,
    );
  } catch (error) {
    // The checks throw the engine's refusals (AppError); anything else is a bug and stops the sequencer.
    if (!(error instanceof AppError)) throw error;
    return Object.keys(error.params).length === 0
      ? { ok: false, error: error.key }
      : { ok: false, error: error.key, params: { ...error.params } };
  }
}

// ── one command's work: the engine's stages, in memory ────────────────────

/** What one `settle` answered: the orders, positions and triggers the engine's answer holds. */
export interface Settled {
  orders: EntrustRow[];
  positions: PositionRow[];
  triggers: TriggerRow[];
}

/**
 * One command carried through matching.ts, settlement.ts and positions.ts
 * as the engine does, in memory: each ledger batch applied where the engine
 * executes it (so the balances a later step reads are the ones it reads),
 * each row changed collected for the event.
 */
export class Work {
  private readonly futures: FuturesMoney;
  readonly book: FuturesState;
  readonly transfers: NewTransfer[] = [];
  readonly commissions: CommissionRow[] = [];
  private readonly orders = new Map<number, FuturesRowChange<EntrustRow>>();
  private readonly positions = new Map<number, FuturesRowChange<PositionRow>>();
  private readonly triggers = new Map<number, FuturesRowChange<TriggerRow>>();
  private readonly trades: Omit<FuturesTradeRow, 'autoid'>[] = [];
  private readonly funding: FundingRecord[] = [];

  constructor(
    readonly state: MoneyState,
    readonly at: number,
    private readonly seq: number,
  ) {
    this.futures = state.futures;
    this.book = state.futures.book;
  }

  apply(batch: readonly TransferInput[]): void {
    if (batch.length === 0) return;
    this.transfers.push(...applyTransfers(this.state, batch, this.at, this.seq, true).newTransfers);
  }

  /** A new order's row under the state's next id (matching.ts's insertOrder). */
  newOrder(order: ReturnType<typeof openEntrustOf>): EntrustRow {
    const row: EntrustRow = { autoid: this.futures.nextOrderId++, ...newEntrustFields(order, this.at) };
    this.orders.set(row.autoid, { row, created: true });
    return row;
  }

  /** matching.ts's `match`: the new order joins the open ones and meets the book; the answer names it alone. */
  match(
    market: ContractMarket,
    row: EntrustRow,
    lots: Dec,
    place: (common: ReturnType<typeof bookCommonOf>) => BookEvent[],
  ): Settled {
    this.book.open.set(row.autoid, row);
    const settled = this.settle(market, place(bookCommonOf(row, lots)), row.autoid);
    return { ...settled, orders: settled.orders.filter((order) => order.autoid === row.autoid) };
  }

  /** matching.ts's `placeClose`: `lots` of a position closed with a market order through the book. */
  close(market: ContractMarket, position: PositionRow, lots: Dec): Settled {
    const row = this.newOrder(closeEntrustOf(market, position, lots));
    return this.match(market, row, lots, (common) =>
      placeMarket(market.book, common, closingSide(position), null),
    );
  }

  /** matching.ts's `cancelAllOf`: every resting order of an owner in every book (a cross liquidation starts here). */
  cancelAllOf(owner: string): void {
    for (const market of this.book.markets.values()) {
      const events = market.book.cancelAll({ kind: 'cancelAll', userId: owner });
      if (events.length > 0) this.settle(market, events);
    }
  }

  /** risk-pass.ts's `takeOver`: the position closed at its bankruptcy price, the house taking it over at the mark. */
  takeOver(market: ContractMarket, position: PositionRow, mark: Dec, equity: Dec, tag: string): void {
    this.book.positions.beforeChange(position.autoid);
    const figures = this.book.positionFigures(position);
    const legs: TransferInput[] = [];
    const equityLeg = takeOverLeg(tag, equity, market.contract.maincoin, position.autoid);
    if (equityLeg) legs.push(equityLeg);
    const house = this.houseFill(market, position.type, figures.lots, mark, legs, `${tag}:house`);
    this.apply(legs);
    this.persist(house);
    closeAtBankruptcy(position, figures, market.contract.price_accuracy, this.at);
    this.persist(position);
  }

  /** positions.ts's `endTrigger`: fired at `firedAt`, else cancelled. */
  endTrigger(trigger: TriggerRow, firedAt: Dec | null): void {
    endTriggerRow(this.book, trigger, this.at, firedAt);
    this.noteTrigger(trigger, false);
  }

  /** A trigger's row changed or made by the command. */
  noteTrigger(trigger: TriggerRow, created: boolean): void {
    if (!this.triggers.has(trigger.autoid)) this.triggers.set(trigger.autoid, { row: trigger, created });
  }

  /** A new trigger under the state's next id, active. */
  newTrigger(trigger: NewTrigger): TriggerRow {
    const row: TriggerRow = { autoid: this.futures.nextTriggerId++, ...newTriggerFields(trigger, this.at) };
    this.book.triggers.set(row.autoid, row);
    this.noteTrigger(row, true);
    return row;
  }

  /** A funding round's row. */
  noteFunding(row: FundingRecord): void {
    this.funding.push(row);
  }

  /** settlement.ts's `settle`, in memory. */
  settle(market: ContractMarket, events: readonly BookEvent[], subject: number | null = null): Settled {
    const touched = new Map<number, EntrustRow>();
    const positions = new Map<number, PositionRow>();
    const triggers: TriggerRow[] = [];
    const touch = (orderId: string): EntrustRow => {
      const row = this.book.open.get(Number(orderId));
      if (!row) throw new Error(`futures state: order ${orderId} is in the book but not open`);
      // Settling changes the row in place: an open snapshot keeps it as it was first.
      this.book.open.beforeChange(row.autoid);
      touched.set(row.autoid, row);
      return row;
    };
    if (subject !== null) touch(String(subject));
    const trades: FuturesTradeRow[] = [];
    for (const event of events) {
      if (event.type === 'trade') {
        const maker = touch(event.makerOrderId);
        const taker = touch(event.takerOrderId);
        const tradeId = `futures:${taker.autoid}:t${trades.length}`;
        if (isHouse(maker.owner) && isHouse(taker.owner)) {
          recordFill(maker, event);
          recordFill(taker, event);
        } else {
          this.settleTrade(market, maker, taker, event, tradeId, positions, triggers);
        }
        trades.push(tradeRow(market, maker, taker, event, this.at));
      } else if (event.type === 'done') {
        const release = endedOrder(touch(event.orderId), event, this.at);
        if (release) this.apply([release]);
      } else if (event.type === 'rejected') {
        throw new Error(`futures state: the book rejected a checked order (${event.reason})`);
      }
    }
    for (const row of touched.values()) {
      stampOrder(row, this.at);
      this.noteOrder(row);
      if (!isOpenState(row.state)) this.book.open.delete(row.autoid);
    }
    for (const position of positions.values()) this.persist(position);
    for (const { autoid: _autoid, ...trade } of trades) this.trades.push(trade);
    this.book.refreshMarkets({ contracts: new Set([market.contract.autoid]), trades });
    return { orders: [...touched.values()], positions: [...positions.values()], triggers };
  }

  /** One trade between a user and anyone but the same house: both sides' legs in one batch, and its commission rows. */
  private settleTrade(
    market: ContractMarket,
    maker: EntrustRow,
    taker: EntrustRow,
    event: TradeEvent,
    tradeId: string,
    positions: Map<number, PositionRow>,
    triggers: TriggerRow[],
  ): void {
    const legs: TransferInput[] = [];
    const id: LegId = (leg) => `${tradeId}:${leg}`;
    const sides = [maker, taker].sort((a, b) => actionRank(a) - actionRank(b));
    const commissions = new CommissionBatch();
    for (const row of sides) {
      const feeBefore = Dec.parse(row.fee);
      const halBefore = Dec.parse(row.fee_hal);
      const position = this.fill(market, row, event, legs, id, triggers);
      positions.set(position.autoid, position);
      if (isHouse(row.owner)) continue;
      const counterparty = row === maker ? taker : maker;
      const legId = id(`fee-${row.autoid}`);
      const charge = feeChargeOf({
        market,
        row,
        counterparty,
        tradeId,
        legId,
        feeBefore,
        halBefore,
        now: this.at,
      });
      commissionOf(this.state, charge, commissions);
    }
    this.apply(legs);
    this.commissions.push(...commissions.rows);
  }

  /** One side of a trade (settlement.ts's `fill`): the house nets its one position, a user opens or closes. */
  private fill(
    market: ContractMarket,
    row: EntrustRow,
    trade: TradeEvent,
    legs: TransferInput[],
    id: LegId,
    triggers: TriggerRow[],
  ): PositionRow {
    recordFill(row, trade);
    if (isHouse(row.owner))
      return this.houseFill(market, row.type, trade.amount, trade.price, legs, id(`house-${row.type}`));
    if (row.action === 'open') {
      const hal = this.halFee(row, market, openFillFee(market, trade));
      const figures = openFillLegsOf(market, row, trade, hal, id, legs);
      const position = this.positionFor(market, row, trade.price);
      const firstFill = addOpenFill(row, position, trade, figures);
      if (firstFill && (row.profit_price !== null || row.loss_price !== null)) {
        triggers.push(this.newTrigger(orderTriggerOf(row, position)));
      }
      return position;
    }
    const position = closingPosition(this.book, row);
    this.book.positions.beforeChange(position.autoid);
    const { price, amount: lots } = trade;
    const hal = this.halFee(row, market, feeOf(notionalOf(price, lots, market.unit), market.gas));
    const free = available(this.state, userAccount(position.user_id, 'futures'), market.contract.maincoin);
    closeFillInto(this.book, market, row, position, price, lots, hal, free, id, legs);
    return position;
  }

  /** positions.ts's `houseFill`. */
  private houseFill(
    market: ContractMarket,
    side: 'buy' | 'sell',
    lots: Dec,
    price: Dec,
    legs: TransferInput[],
    id: string,
  ): PositionRow {
    const existing = housePositionOf(this.book, market.contract.autoid);
    if (existing) this.book.positions.beforeChange(existing.autoid);
    let rest = lots;
    if (existing && existing.type !== side) {
      rest = houseCloses(this.book, market, existing, lots, price, legs, id);
      if (!rest.isPositive()) return existing;
      this.persist(existing);
    }
    const position =
      existing && existing.type === side ? existing : this.positionFor(market, houseKey(side), price);
    houseAdds(market, position, rest, price);
    return position;
  }

  /** positions.ts's `positionFor`: the open position of the key, or a new one under the state's next id. */
  private positionFor(market: ContractMarket, key: PositionKey, price: Dec): PositionRow {
    const found = findPosition(this.book, market.contract.autoid, key);
    if (found) {
      // The fill adds to it in place.
      this.book.positions.beforeChange(found.autoid);
      return found;
    }
    const row: PositionRow = {
      autoid: this.futures.nextPositionId++,
      ...newPositionFields(market.contract.autoid, key, price, this.at),
    };
    this.book.positions.set(row.autoid, row);
    this.positions.set(row.autoid, { row, created: true });
    return row;
  }

  /** positions.ts's `persistPosition`. */
  persist(position: PositionRow): void {
    stampPosition(position, this.at);
    this.notePosition(position);
    for (const trigger of keepPositionCaches(this.book, position, this.at)) this.noteTrigger(trigger, false);
  }

  /** fees.ts's `halFee`: the fee in HAL from the user's spot wallet, or null. */
  private halFee(row: EntrustRow, market: ContractMarket, fee: Dec): Dec | null {
    return halFeeFor(
      this.state,
      row.user_id,
      fee,
      market.contract.maincoin,
      userAccount(row.user_id, 'spot'),
    );
  }

  private noteOrder(row: EntrustRow): void {
    if (!this.orders.has(row.autoid)) this.orders.set(row.autoid, { row, created: false });
  }

  private notePosition(row: PositionRow): void {
    if (!this.positions.has(row.autoid)) this.positions.set(row.autoid, { row, created: false });
  }

  /** The command's answer and events: rows copied as they stand now (later commands change them in place). */
  finish(settled: Settled, emit: boolean): Applied<MoneyResult, MoneyEvent> {
    const futures: FuturesOutcome = {
      orders: settled.orders.map((row) => row.autoid),
      positions: settled.positions.map((row) => row.autoid),
      triggers: settled.triggers.map((row) => row.autoid),
    };
    const result: MoneyResult = { ok: true, futures };
    if (!emit) return { result, events: [] };
    const copy = <Row extends object>(change: FuturesRowChange<Row>) => ({
      row: { ...change.row },
      created: change.created,
    });
    const rows: FuturesRowsEvent = {
      type: 'futures',
      contract: null,
      orders: [...this.orders.values()].map(copy),
      positions: [...this.positions.values()].map(copy),
      triggers: [...this.triggers.values()].map(copy),
      trades: this.trades,
      funding: this.funding,
    };
    // An order that moved no money (the house's quote) publishes no transfers: the ledger writer takes each as a batch.
    const events: MoneyEvent[] =
      this.transfers.length > 0 ? [{ type: 'transfers', transfers: this.transfers }] : [];
    events.push(rows);
    if (this.commissions.length > 0) events.push({ type: 'referralCommissions', rows: this.commissions });
    return { result, events };
  }
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
