import type { BookEvent, TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { type TransferInput, userAccount } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult } from './commands.ts';
import type {
  FundingRecord,
  FuturesMoney,
  FuturesOutcome,
  FuturesRowChange,
  FuturesRowsEvent,
} from './futures.ts';
import type { ContractMarket, FuturesState } from './futures-book.ts';
import { type CommandResult, isHouse } from './futures-commands.ts';
import {
  addOpenFill,
  closeFillInto,
  closingPosition,
  feeChargeOf,
  openFillFee,
  openFillLegsOf,
} from './futures-fills.ts';
import { holdId, type LegId, takeOverLeg } from './futures-legs.ts';
import { feeOf, notionalOf } from './futures-margin.ts';
import {
  actionRank,
  bookCommonOf,
  closeEntrustOf,
  closingSide,
  endedOrder,
  isOpenState,
  type NewEntrust,
  newEntrustFields,
  type PlaceCommon,
  placeMarket,
  recordFill,
  stampOrder,
  tradeRow,
} from './futures-orders.ts';
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
} from './futures-positions.ts';
import type { EntrustRow, FuturesTradeRow, PositionRow, TriggerRow } from './futures-rows.ts';
import { applyTransfers, available, type MoneyState } from './money-state.ts';
import { CommissionBatch, type CommissionRow } from './referral-rules.ts';
import { commissionOf, halFeeFor } from './spot-fees.ts';

/**
 * One command carried through modules/futures' matching.ts, settlement.ts
 * and positions.ts as the engine does, in memory (each method names the
 * engine's function it follows): each ledger batch applied where the engine
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
  newOrder(order: NewEntrust): EntrustRow {
    const row: EntrustRow = { autoid: this.futures.nextOrderId++, ...newEntrustFields(order, this.at) };
    this.orders.set(row.autoid, { row, created: true });
    return row;
  }

  /** matching.ts's `match`: the new order joins the open ones and meets the book; the answer names it alone. */
  match(
    market: ContractMarket,
    row: EntrustRow,
    lots: Dec,
    place: (common: PlaceCommon) => BookEvent[],
  ): CommandResult {
    this.book.open.set(row.autoid, row);
    const settled = this.settle(market, place(bookCommonOf(row, lots)), row.autoid);
    return { ...settled, orders: settled.orders.filter((order) => order.autoid === row.autoid) };
  }

  /** matching.ts's `placeClose`: `lots` of a position closed with a market order through the book. */
  close(market: ContractMarket, position: PositionRow, lots: Dec): CommandResult {
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
  settle(market: ContractMarket, events: readonly BookEvent[], subject: number | null = null): CommandResult {
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
      if (!isOpenState(row.state)) this.endOrder(row.autoid);
    }
    for (const position of positions.values()) this.persist(position);
    for (const { autoid: _autoid, ...trade } of trades) this.trades.push(trade);
    this.book.refreshMarkets({ contracts: new Set([market.contract.autoid]), trades });
    return { orders: [...touched.values()], positions: [...positions.values()], triggers };
  }

  /**
   * An ended order leaves the open ones, and its hold is forgotten once closed
   * (posted in full, or its rest released in this settle): its id is derived
   * (futures-legs.ts), so no retry window would ever forget it. A hold still
   * open stays, as the ledger's record of money held.
   */
  private endOrder(autoid: number): void {
    this.book.open.delete(autoid);
    const id = holdId(autoid);
    const hold = this.state.ledger.holds.get(id);
    if (hold !== undefined && hold.state !== 'open') this.state.ledger.holds.delete(id);
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
  finish(settled: CommandResult, emit: boolean): Applied<MoneyResult, MoneyEvent> {
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
