// Over 500 lines on purpose: the engine is the futures module's only writer,
// and its stages (check, hold, match, settle with fees and
// referral commissions, liquidate, fund) share the in-memory books, positions
// and the one group transaction; split, each part would reach into the others'
// state. The pure rules live in packages/rules (futures.ts), risk.ts, liquidation.ts and funding.ts.
import { type BookEvent, type DepthSnapshot, OrderBook, type TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import {
  checkFuturesOrder,
  checkPartialClose,
  checkPositionTpSl,
  futuresMarginEstimate,
  REFERRAL_TOKEN,
  type RuleError,
} from '@halyard/rules';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import {
  type AccountRef,
  type Ledger,
  systemAccount,
  type TransferInput,
  userAccount,
} from '../../ledger/index.ts';
import type { Executor, Trx } from '../../store/database.ts';
import { CommissionBatch, insertCommissions, type ReferralFees } from '../referral/index.ts';
import { fundingSlot, roundRate } from './funding.ts';
import {
  type CrossPosition,
  crossBreached,
  directionOf,
  type IsolatedRiskEntry,
  isolatedLiquidationUnits,
  scanIsolated,
} from './liquidation.ts';
import {
  bankruptcyPrice,
  closeFigures,
  feeOf,
  fundingPayment,
  isBelowMaintenance,
  maintenanceMargin,
  marginOf,
  notionalOf,
  openingCost,
  type PositionFigures,
  positionEquity,
} from './risk.ts';
import {
  type ContractRow,
  type EntrustRow,
  type EntrustState,
  type FuturesTradeRow,
  insertEntrust,
  insertFunding,
  insertPosition,
  insertTrades,
  insertTrigger,
  type PositionRow,
  saveEntrust,
  savePosition,
  saveTrigger,
  selectActiveTriggers,
  selectContracts,
  selectLastFundingSlot,
  selectLatestTrades,
  selectOpenEntrusts,
  selectOpenPositions,
  type TdMode,
  type TriggerRow,
  updateContractSettings,
} from './store.ts';
import { parseOptionalPrice, triggerHit } from './triggers.ts';

/** Commands waiting in the futures queue, at most; beyond it orders are refused with `futures.busy`. */
export const QUEUE_MAX = 10_000;
/** Queued commands committed together in one transaction, at most (group commit). */
export const GROUP_MAX = 64;
export const TOP_TRADES = 20;
/** Book levels kept per side for pushes and reads (the screen shows 7). */
export const DEPTH_LEVELS = 20;
/**
 * A market open holds latest price × lots × (1 + this) worth of margin and
 * fee (capped at the usable balance) and never spends more: the book may fill
 * at worse prices than the latest.
 */
export const MARKET_SLIPPAGE = Dec.parse('0.05');
/** Ledger batches are bounded (BATCH_MAX 1000); funding splits its legs in chunks of this. */
const FUNDING_CHUNK = 500;

/** The house's quoting role: its resting orders, and the owner of its one net position per contract. */
export const HOUSE_OWNER = 'house';
/**
 * The house's crossing role (demo mode: its market orders print trades). A
 * different book owner than the quotes, so self-trade prevention lets the two
 * meet; both are the one house, with one position and one account.
 */
export const HOUSE_TAKER_OWNER = 'house-taker';
const CLEARING = systemAccount('clearing');
const FEES = systemAccount('fees');
const POOL = systemAccount('futures_margin');
const INSURANCE = systemAccount('insurance');
const HOUSE = systemAccount('market_maker');

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

export interface ContractMarket {
  contract: ContractRow;
  unit: Dec;
  gas: Dec;
  mmf: Dec;
  levers: number[];
  book: OrderBook;
  depth: DepthSnapshot;
  /** Newest first. */
  trades: FuturesTradeRow[];
}

export interface EngineOptions {
  db: Executor;
  ledger: Ledger;
  now: () => number;
  fundingIntervalMs: number;
  /** Referral commissions on each fill's fee, paid in the trade's own ledger batch. */
  referral: ReferralFees;
  onCommitted: (effects: GroupEffects) => void;
  onError: (error: unknown) => void;
}

interface Job {
  command: FuturesCommand;
  resolve(result: CommandResult): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: CommandResult } | { ok: false; error: AppError };

/** What a command does once its checks passed: refusals are thrown before, never inside. */
type Execution = () => Promise<CommandResult>;

/**
 * The futures exchange's writer: every contract's book, the open orders,
 * positions and triggers, and ONE queue for all of them. One queue (not one
 * per contract as in spot) because cross margin makes a user's positions in
 * every contract one account: a liquidation, a funding round and an order
 * must see the same balances. Stages per command: check → hold → match →
 * settle (ledger + rows) → publish. Queued commands run GROUP_MAX at a time
 * in one ledger transaction (group commit); a refusal fails its command
 * alone (it is decided before anything is written), any other error rolls
 * the group back and the in-memory state is rebuilt from the store.
 */
export class FuturesEngine {
  readonly markets = new Map<number, ContractMarket>();
  readonly open = new Map<number, EntrustRow>();
  readonly positions = new Map<number, PositionRow>();
  readonly triggers = new Map<number, TriggerRow>();
  /** Isolated user positions' liquidation prices, refreshed whenever the position changes. */
  readonly isolatedRisk = new Map<number, IsolatedRiskEntry>();
  /** The mark (= index) of each trade coin. */
  readonly marks = new Map<string, Dec>();
  private readonly lastFunding = new Map<number, number>();
  private readonly queue: Job[] = [];
  private draining = false;
  private readonly riskQueued = new Set<number>();

  constructor(private readonly options: EngineOptions) {}

  /** (Re)builds everything from the store: restart, or after a rolled-back group. */
  async restore(): Promise<void> {
    const { db } = this.options;
    const contracts = await selectContracts(db);
    const orders = await selectOpenEntrusts(db);
    this.markets.clear();
    for (const contract of contracts) {
      const resting = orders.filter((row) => row.contract_id === contract.autoid && row.price !== null);
      const book = OrderBook.restore(
        { priceAccuracy: contract.price_accuracy, amountAccuracy: 0, minNumber: Dec.ONE },
        resting.map((row) => ({
          orderId: String(row.autoid),
          userId: row.owner,
          side: row.type,
          price: Dec.parse(row.price ?? '0'),
          amount: Dec.parse(row.number),
          remaining: Dec.parse(row.unfilled),
          sequence: row.autoid,
        })),
      );
      this.markets.set(contract.autoid, {
        contract,
        unit: Dec.parse(contract.unit),
        gas: Dec.parse(contract.gas),
        mmf: Dec.parse(contract.maintenance_margin_rate),
        levers: JSON.parse(contract.levers) as number[],
        book,
        depth: book.depth(DEPTH_LEVELS),
        trades: await selectLatestTrades(db, contract.autoid, TOP_TRADES),
      });
      // The last round written; a fresh contract's first round settles the interval after the current one.
      const last = await selectLastFundingSlot(db, contract.autoid);
      const fallback =
        this.lastFunding.get(contract.autoid) ??
        fundingSlot(this.options.now(), this.options.fundingIntervalMs);
      this.lastFunding.set(contract.autoid, last ?? fallback);
    }
    this.open.clear();
    for (const row of orders) this.open.set(row.autoid, row);
    this.positions.clear();
    this.isolatedRisk.clear();
    for (const row of await selectOpenPositions(db)) {
      this.positions.set(row.autoid, row);
      this.refreshRisk(row);
    }
    this.triggers.clear();
    for (const row of await selectActiveTriggers(db)) this.triggers.set(row.autoid, row);
  }

  /** Commands waiting in the queue (the back office's dashboard). */
  get queued(): number {
    return this.queue.length;
  }

  market(contractId: number): ContractMarket {
    const market = this.markets.get(contractId);
    if (!market) throw notFound('futures.contractNotFound');
    return market;
  }

  /** Queues a command; answers after its transaction commits. */
  submit(command: FuturesCommand): Promise<CommandResult> {
    if (this.queue.length >= QUEUE_MAX) return Promise.reject(new AppError('futures.busy', {}, 429));
    return new Promise((resolve, reject) => {
      this.queue.push({ command, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** A new mark for a coin: records it and queues one risk pass per contract of the coin (coalesced). */
  applyMark(coin: string, price: Dec): Promise<void> {
    this.marks.set(coin, price);
    const passes: Promise<unknown>[] = [];
    for (const market of this.markets.values()) {
      const id = market.contract.autoid;
      if (market.contract.tradcoin !== coin || this.riskQueued.has(id)) continue;
      this.riskQueued.add(id);
      passes.push(this.submit({ kind: 'risk', contractId: id }).finally(() => this.riskQueued.delete(id)));
    }
    return Promise.all(passes).then(() => undefined);
  }

  async idle(): Promise<void> {
    while (this.draining) await new Promise((resolve) => setImmediate(resolve));
  }

  positionFigures(row: PositionRow): PositionFigures {
    const market = this.market(row.contract_id);
    return {
      direction: directionOf(row.type),
      lots: Dec.parse(row.number),
      unit: market.unit,
      cost: Dec.parse(row.cost),
      margin: Dec.parse(row.margin),
    };
  }

  markOf(contractId: number): Dec | null {
    return this.marks.get(this.market(contractId).contract.tradcoin) ?? null;
  }

  /** Last trade price, else the mark; null when neither is known. */
  latestPrice(contractId: number): Dec | null {
    const last = this.market(contractId).trades[0];
    return last ? Dec.parse(last.price) : this.markOf(contractId);
  }

  /** The user's open cross positions, each with its mark (null mark: left out, it cannot be valued). */
  crossPositionsOf(owner: string, excludeId: number | null = null): CrossPosition[] {
    const found: CrossPosition[] = [];
    for (const row of this.positions.values()) {
      if (row.owner !== owner || row.td_mode !== 'cross' || row.autoid === excludeId) continue;
      const mark = this.markOf(row.contract_id);
      if (mark === null) continue;
      found.push({ ...this.positionFigures(row), mark, mmf: this.market(row.contract_id).mmf });
    }
    return found;
  }

  // ── queue ───────────────────────────────────────────────────────────────

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) await this.runGroup(this.queue.splice(0, GROUP_MAX));
    } finally {
      this.draining = false;
    }
  }

  private async runGroup(jobs: Job[]): Promise<void> {
    const outcomes: Outcome[] = [];
    const effects: GroupEffects = { contracts: new Set(), trades: [] };
    try {
      await this.options.ledger.transaction(async (trx) => {
        for (const job of jobs) outcomes.push(await this.run(trx, job.command, effects));
      });
    } catch (error) {
      for (const job of jobs) job.reject(error);
      try {
        await this.restore();
      } catch (restoreError) {
        this.options.onError(restoreError);
      }
      return;
    }
    for (const id of effects.contracts) {
      const market = this.market(id);
      market.depth = market.book.depth(DEPTH_LEVELS);
      const fresh = effects.trades.filter((trade) => trade.contract_id === id).reverse();
      market.trades = fresh.concat(market.trades).slice(0, TOP_TRADES);
    }
    jobs.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
    try {
      this.options.onCommitted(effects);
    } catch (error) {
      this.options.onError(error);
    }
  }

  private async run(trx: Trx, command: FuturesCommand, effects: GroupEffects): Promise<Outcome> {
    let execution: Execution;
    try {
      execution = await this.check(trx, command, effects);
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
    return { ok: true, value: await execution() };
  }

  private check(trx: Trx, command: FuturesCommand, effects: GroupEffects): Promise<Execution> {
    switch (command.kind) {
      case 'open':
        return this.checkOpen(trx, command, effects);
      case 'close':
        return Promise.resolve(this.checkClose(trx, command, effects));
      case 'cancel':
        return Promise.resolve(this.checkCancel(trx, command, effects));
      case 'setTrigger':
        return Promise.resolve(this.checkSetTrigger(trx, command));
      case 'cancelTrigger':
        return Promise.resolve(this.checkCancelTrigger(trx, command));
      case 'risk':
        return Promise.resolve(() => this.riskPass(trx, command.contractId, effects));
      case 'settings':
        return Promise.resolve(this.checkSettings(trx, command.contract));
    }
  }

  private checkSettings(trx: Trx, contract: ContractRow): Execution {
    const market = this.markets.get(contract.autoid);
    const resting = [...this.open.values()].some(
      (row) => row.contract_id === contract.autoid && row.price !== null,
    );
    if (market && market.contract.price_accuracy !== contract.price_accuracy && resting) {
      throw conflict('markets.precisionWithOpenOrders');
    }
    return async () => {
      if (market) await updateContractSettings(trx, contract);
      this.putContract(contract);
      return { orders: [], positions: [], triggers: [] };
    };
  }

  /** Takes a contract's settings in memory: in place for a known one (its book kept unless the tick changed), else a new empty market. */
  private putContract(contract: ContractRow): void {
    const known = this.markets.get(contract.autoid);
    const sameTick = known?.contract.price_accuracy === contract.price_accuracy;
    const book =
      known && sameTick
        ? known.book
        : new OrderBook({ priceAccuracy: contract.price_accuracy, amountAccuracy: 0, minNumber: Dec.ONE });
    const settings = {
      contract,
      unit: Dec.parse(contract.unit),
      gas: Dec.parse(contract.gas),
      mmf: Dec.parse(contract.maintenance_margin_rate),
      levers: JSON.parse(contract.levers) as number[],
      book,
    };
    if (known) {
      Object.assign(known, settings, { depth: book.depth(DEPTH_LEVELS) });
      return;
    }
    this.markets.set(contract.autoid, { ...settings, depth: book.depth(DEPTH_LEVELS), trades: [] });
    this.lastFunding.set(contract.autoid, fundingSlot(this.options.now(), this.options.fundingIntervalMs));
  }

  // ── opening orders ──────────────────────────────────────────────────────

  /**
   * Spec §5 "Futures order" checks in order, then the contract's own limits
   * (leverage in the list, price on the tick, one leverage per position), then
   * margin plus fee against the usable futures balance; the hold is that sum
   * at the worst price the order can fill at (see {@link holdPrice}).
   */
  private async checkOpen(trx: Trx, command: OpenCommand, effects: GroupEffects): Promise<Execution> {
    const market = this.market(command.contractId);
    const { contract } = market;
    if (contract.state !== 1) throw badRequest('futures.contractClosed');
    const latest = this.latestPrice(contract.autoid);
    if (command.style === 'market' && latest === null) throw badRequest('futures.noPrice');
    throwRule(
      checkFuturesOrder({
        side: command.side,
        style: command.style,
        ...(command.style === 'limit' ? { price: command.price ?? '' } : {}),
        latestPrice: (latest ?? Dec.ZERO).toString(),
        quantity: command.number,
        minNumber: contract.minnumber,
        maxNumber: contract.maxnumber,
        ...(command.profitPrice ? { takeProfit: command.profitPrice } : {}),
        ...(command.lossPrice ? { stopLoss: command.lossPrice } : {}),
        priceAccuracy: contract.price_accuracy,
      }),
    );
    if (!market.levers.includes(command.lever)) {
      throw badRequest('futures.leverNotAllowed', { levers: market.levers.join(', ') });
    }
    const price = command.style === 'limit' ? Dec.parse(command.price ?? '') : null;
    this.checkOneLever(command);
    const lots = Dec.parse(command.number);
    const byHouse = isHouse(command.trader.owner);
    const worst = this.holdPrice(market, command.side, price, latest);
    if (worst === null) throw badRequest('futures.noLiquidity');
    let hold = byHouse ? Dec.ZERO : openingCost(worst, lots, market.unit, command.lever, market.gas);
    let budget: Dec | null = null;
    if (!byHouse) {
      const balance = await this.options.ledger.balance(
        { ...command.trader.account, asset: contract.maincoin },
        trx,
      );
      const estimate = futuresMarginEstimate({
        price: (price ?? latest ?? Dec.ZERO).toString(),
        quantity: command.number,
        unit: contract.unit,
        lever: command.lever,
        gas: contract.gas,
        usable: balance.available.toString(),
        minNumber: contract.minnumber,
      });
      if (estimate === null) throw badRequest('rules.insufficientBalance');
      if (price === null && command.side === 'buy') {
        // A market buy spends at most its hold: the budget below keeps its fills inside it.
        hold = Dec.min(hold, balance.available);
        budget = marketBudget(market, command.lever, hold);
        if (!budget.isPositive()) throw badRequest('rules.insufficientBalance');
      } else if (hold.gt(balance.available)) {
        throw badRequest('rules.insufficientBalance');
      }
    }
    return () => this.executeOpen(trx, market, command, price, lots, hold, budget, effects);
  }

  /**
   * The worst price each fill of the order can see: a limit buy fills at or
   * below its limit; a sell fills at or above its limit but never above the
   * best bid it meets (the rest then rests at the limit), so the larger of the
   * two bounds it; a market buy is bounded by its budget instead (the latest
   * price plus slippage), a market sell by the best bid.
   */
  private holdPrice(
    market: ContractMarket,
    side: 'buy' | 'sell',
    limit: Dec | null,
    latest: Dec | null,
  ): Dec | null {
    const { bestBid, bestAsk } = market.book.depth(1);
    if (side === 'buy') {
      if (limit !== null) return limit;
      if (bestAsk === null || latest === null) return null;
      return Dec.max(latest, bestAsk)
        .mul(Dec.ONE.add(MARKET_SLIPPAGE))
        .floorTo(market.contract.price_accuracy);
    }
    if (limit !== null) return bestBid === null ? limit : Dec.max(limit, bestBid);
    return bestBid;
  }

  /** One leverage per position: an open position or resting order on the same side and mode fixes it. */
  private checkOneLever(command: OpenCommand): void {
    const same = (row: {
      owner: string;
      contract_id: number;
      type: string;
      td_mode: string;
      lever: number;
    }) =>
      row.owner === command.trader.owner &&
      row.contract_id === command.contractId &&
      row.type === command.side &&
      row.td_mode === command.tdMode &&
      row.lever !== command.lever;
    const clash =
      [...this.positions.values()].find(same) ??
      [...this.open.values()].find((row) => row.action === 'open' && same(row));
    if (clash && !isHouse(command.trader.owner)) {
      throw badRequest('futures.leverMismatch', { lever: clash.lever });
    }
  }

  private async executeOpen(
    trx: Trx,
    market: ContractMarket,
    command: OpenCommand,
    price: Dec | null,
    lots: Dec,
    hold: Dec,
    budget: Dec | null,
    effects: GroupEffects,
  ): Promise<CommandResult> {
    const now = this.options.now();
    const row = await insertEntrust(trx, {
      contract_id: market.contract.autoid,
      user_id: command.trader.userId,
      owner: command.trader.owner,
      type: command.side,
      action: 'open',
      td_mode: command.tdMode,
      lever: command.lever,
      style: command.style,
      price: price?.toString() ?? null,
      number: lots.toString(),
      unfilled: lots.toString(),
      held: hold.toString(),
      hold_spent: '0',
      deal_money: '0',
      fee: '0',
      fee_hal: '0',
      margin: '0',
      profit_price: command.profitPrice ? Dec.parse(command.profitPrice).toString() : null,
      loss_price: command.lossPrice ? Dec.parse(command.lossPrice).toString() : null,
      position_id: null,
      state: 'unfilled',
      cancel_reason: null,
      wdate: now,
      updated_at: now,
    });
    if (hold.isPositive()) {
      await this.options.ledger.execute(
        [
          {
            id: holdId(row.autoid),
            type: 'pending',
            debit: command.trader.account,
            credit: CLEARING,
            asset: market.contract.maincoin,
            amount: hold,
            code: 'futures_order',
            reference: orderReference(row.autoid),
          },
        ],
        trx,
      );
    }
    this.open.set(row.autoid, row);
    const common = { orderId: String(row.autoid), userId: row.owner, sequence: row.autoid, amount: lots };
    const events =
      price !== null
        ? market.book.place({ ...common, kind: 'limit', side: command.side, price })
        : command.side === 'buy'
          ? market.book.place({
              ...common,
              kind: 'market',
              side: 'buy',
              ...(budget ? { quoteBudget: budget } : {}),
            })
          : market.book.place({ ...common, kind: 'market', side: 'sell' });
    const result = await this.settle(trx, market, events, effects, row.autoid);
    return { ...result, orders: result.orders.filter((order) => order.autoid === row.autoid) };
  }

  // ── closing orders ──────────────────────────────────────────────────────

  /** Partial close (spec §5): whole lots, at most what the position holds; a market order through the book. */
  private checkClose(trx: Trx, command: CloseCommand, effects: GroupEffects): Execution {
    const position = this.positions.get(command.positionId);
    if (!position || position.owner !== String(command.userId)) throw notFound('futures.positionNotFound');
    const available = Dec.parse(position.number).toString();
    const lots = command.number ?? available;
    throwRule(checkPartialClose({ quantity: lots, available }));
    const market = this.market(position.contract_id);
    const side = position.type === 'buy' ? 'sell' : 'buy';
    const { bestBid, bestAsk } = market.book.depth(1);
    if ((side === 'sell' ? bestBid : bestAsk) === null) throw badRequest('futures.noLiquidity');
    return () => this.executeClose(trx, market, position, Dec.parse(lots), effects);
  }

  private async executeClose(
    trx: Trx,
    market: ContractMarket,
    position: PositionRow,
    lots: Dec,
    effects: GroupEffects,
  ): Promise<CommandResult> {
    const now = this.options.now();
    const side = position.type === 'buy' ? 'sell' : 'buy';
    const row = await insertEntrust(trx, {
      contract_id: market.contract.autoid,
      user_id: position.user_id,
      owner: position.owner,
      type: side,
      action: 'close',
      td_mode: position.td_mode,
      lever: position.lever,
      style: 'market',
      price: null,
      number: lots.toString(),
      unfilled: lots.toString(),
      held: '0',
      hold_spent: '0',
      deal_money: '0',
      fee: '0',
      fee_hal: '0',
      margin: '0',
      profit_price: null,
      loss_price: null,
      position_id: position.autoid,
      state: 'unfilled',
      cancel_reason: null,
      wdate: now,
      updated_at: now,
    });
    this.open.set(row.autoid, row);
    const common = { orderId: String(row.autoid), userId: row.owner, sequence: row.autoid, amount: lots };
    const events =
      side === 'buy'
        ? market.book.place({ ...common, kind: 'market', side: 'buy' })
        : market.book.place({ ...common, kind: 'market', side: 'sell' });
    const result = await this.settle(trx, market, events, effects, row.autoid);
    return { ...result, orders: result.orders.filter((order) => order.autoid === row.autoid) };
  }

  // ── cancel ──────────────────────────────────────────────────────────────

  private checkCancel(trx: Trx, command: CancelCommand, effects: GroupEffects): Execution {
    const row = this.open.get(command.autoid);
    if (!row || row.owner !== command.owner) throw notFound('futures.entrustNotOpen');
    const market = this.market(row.contract_id);
    return async () => {
      const events = market.book.cancel({ kind: 'cancel', orderId: String(row.autoid), userId: row.owner });
      return this.settle(trx, market, events, effects);
    };
  }

  /** Cancels every resting order of an owner in every book (a cross liquidation starts here). */
  private async cancelAllOf(trx: Trx, owner: string, effects: GroupEffects): Promise<void> {
    for (const market of this.markets.values()) {
      const events = market.book.cancelAll({ kind: 'cancelAll', userId: owner });
      if (events.length > 0) await this.settle(trx, market, events, effects);
    }
  }

  // ── settlement ──────────────────────────────────────────────────────────

  /**
   * Turns book events into ledger batches and rows: per trade one batch with
   * both sides' legs (opening legs first, so the margin pool is credited
   * before a closing side is paid from it); per ended order its unused hold
   * voided. Answers the touched orders and positions as written.
   */
  private async settle(
    trx: Trx,
    market: ContractMarket,
    events: readonly BookEvent[],
    effects: GroupEffects,
    subject: number | null = null,
  ): Promise<CommandResult> {
    const now = this.options.now();
    const touched = new Map<number, EntrustRow>();
    const positions = new Map<number, PositionRow>();
    const triggers: TriggerRow[] = [];
    const touch = (orderId: string): EntrustRow => {
      const row = this.open.get(Number(orderId));
      if (!row) throw new Error(`futures: order ${orderId} is in the book but not open`);
      touched.set(row.autoid, row);
      return row;
    };
    if (subject !== null) touch(String(subject));
    const trades: FuturesTradeRow[] = [];
    for (const event of events) {
      if (event.type === 'trade') {
        const maker = touch(event.makerOrderId);
        const taker = touch(event.takerOrderId);
        const legs: TransferInput[] = [];
        const id = (leg: string) => `futures:${taker.autoid}:t${trades.length}:${leg}`;
        if (isHouse(maker.owner) && isHouse(taker.owner)) {
          // The house's two roles share one net position and one account: a
          // trade between them (its demo crossing) prints, and moves neither.
          recordFill(maker, event);
          recordFill(taker, event);
        } else {
          const sides = [maker, taker].sort((a, b) => actionRank(a) - actionRank(b));
          const commissions = new CommissionBatch();
          for (const row of sides) {
            const feeBefore = Dec.parse(row.fee);
            const halBefore = Dec.parse(row.fee_hal);
            const position = await this.fill(trx, market, row, event, legs, id, triggers, now);
            positions.set(position.autoid, position);
            const counterparty = row === maker ? taker : maker;
            if (isHouse(row.owner)) continue;
            const halPaid = Dec.parse(row.fee_hal).sub(halBefore);
            const rows = await this.options.referral.plan(
              {
                product: 'futures',
                tradeId: `futures:${taker.autoid}:t${trades.length}`,
                legId: id(`fee-${row.autoid}`),
                payerId: row.user_id,
                counterpartyId: isHouse(counterparty.owner) ? null : counterparty.user_id,
                coin: halPaid.isPositive() ? REFERRAL_TOKEN : market.contract.maincoin,
                // What this fill charged (a closing fee the position could not pay in full is what was paid).
                fee: halPaid.isPositive() ? halPaid : Dec.parse(row.fee).sub(feeBefore),
                time: now,
              },
              trx,
            );
            commissions.add(rows);
          }
          // The commissions after both fees, in the same batch: paid once, with the trade or not at all.
          legs.push(...commissions.transfers());
          await this.options.ledger.execute(legs, trx);
          await insertCommissions(trx, commissions.rows);
        }
        trades.push(tradeRow(market, maker, taker, event, now));
      } else if (event.type === 'done') {
        await this.endOrder(trx, touch(event.orderId), event, now);
      } else if (event.type === 'rejected') {
        throw new Error(`futures: the book rejected a checked order (${event.reason})`);
      }
    }
    for (const row of touched.values()) {
      if (isOpenState(row.state))
        row.state = Dec.parse(row.unfilled).lt(Dec.parse(row.number)) ? 'section' : 'unfilled';
      row.updated_at = now;
      await saveEntrust(trx, row);
      if (!isOpenState(row.state)) this.open.delete(row.autoid);
    }
    for (const position of positions.values()) await this.persistPosition(trx, position, now);
    await insertTrades(
      trx,
      trades.map(({ autoid: _autoid, ...trade }) => trade),
    );
    effects.trades.push(...trades);
    effects.contracts.add(market.contract.autoid);
    return {
      orders: [...touched.values()].map((row) => ({ ...row })),
      positions: [...positions.values()].map((row) => ({ ...row })),
      triggers,
    };
  }

  /** One side of a trade: the house nets its one position, a user opens or closes. */
  private async fill(
    trx: Trx,
    market: ContractMarket,
    row: EntrustRow,
    trade: TradeEvent,
    legs: TransferInput[],
    id: (leg: string) => string,
    triggers: TriggerRow[],
    now: number,
  ): Promise<PositionRow> {
    recordFill(row, trade);
    if (isHouse(row.owner)) {
      return this.houseFill(
        trx,
        market,
        row.type,
        trade.amount,
        trade.price,
        legs,
        id(`house-${row.type}`),
        now,
      );
    }
    if (row.action === 'open') return this.openFill(trx, market, row, trade, legs, id, triggers, now);
    return this.closeFill(trx, market, row, trade.price, trade.amount, legs, id);
  }

  /** The fee in HAL when the user switched fee deduction on and holds enough in spot (modules/referral), else null. */
  private halFee(trx: Trx, row: EntrustRow, market: ContractMarket, fee: Dec): Promise<Dec | null> {
    const spotHal = { ...userAccount(row.user_id, 'spot'), asset: REFERRAL_TOKEN };
    return this.options.referral.halFee(
      row.user_id,
      market.contract.maincoin,
      fee,
      async () => (await this.options.ledger.balance(spotHal, trx)).available,
      trx,
    );
  }

  /**
   * An opening fill: margin = notional / lever and fee = notional × gas are
   * posted from the order's hold into clearing, then the margin into the
   * margin pool and the fee into the fee account. The first fill attaches the
   * order's TP/SL to the position as a trigger for the order's lots.
   */
  private async openFill(
    trx: Trx,
    market: ContractMarket,
    row: EntrustRow,
    trade: TradeEvent,
    legs: TransferInput[],
    id: (leg: string) => string,
    triggers: TriggerRow[],
    now: number,
  ): Promise<PositionRow> {
    const notional = notionalOf(trade.price, trade.amount, market.unit);
    const margin = marginOf(notional, row.lever);
    const fee = feeOf(notional, market.gas);
    const hal = await this.halFee(trx, row, market, fee);
    const reference = orderReference(row.autoid);
    const leg = `${row.type}-open`;
    pushPositive(legs, {
      id: id(`${leg}-post`),
      type: 'post_pending',
      pendingId: holdId(row.autoid),
      amount: margin.add(fee),
      code: 'futures_trade',
      reference,
    });
    pushPositive(legs, {
      id: id(`${leg}-margin`),
      debit: CLEARING,
      credit: POOL,
      asset: market.contract.maincoin,
      amount: margin,
      code: 'futures_margin',
      reference,
    });
    // Paid in HAL, the fee the hold kept goes back to the user's futures wallet and HAL goes to the fee account.
    pushPositive(legs, {
      id: id(`${leg}-fee`),
      debit: CLEARING,
      credit: hal ? userAccount(row.user_id, 'futures') : FEES,
      asset: market.contract.maincoin,
      amount: fee,
      code: hal ? 'futures_trade' : 'futures_fee',
      reference,
    });
    if (hal) chargeHal(legs, id(`${leg}-fee-hal`), row, hal, reference);
    const feeInCoin = hal ? Dec.ZERO : fee;
    row.hold_spent = Dec.parse(row.hold_spent).add(margin).add(fee).toString();
    row.fee = Dec.parse(row.fee).add(feeInCoin).toString();
    row.margin = Dec.parse(row.margin).add(margin).toString();
    const position = await this.positionFor(trx, market, row, trade.price, now);
    position.number = Dec.parse(position.number).add(trade.amount).toString();
    position.cost = Dec.parse(position.cost).add(notional).toString();
    position.margin = Dec.parse(position.margin).add(margin).toString();
    position.fees = Dec.parse(position.fees).add(feeInCoin).toString();
    const firstFill = row.position_id === null;
    row.position_id = position.autoid;
    if (firstFill && (row.profit_price !== null || row.loss_price !== null)) {
      const trigger = await insertTrigger(trx, {
        position_id: position.autoid,
        user_id: row.user_id,
        profit_price: row.profit_price,
        loss_price: row.loss_price,
        number: row.number,
        state: 'active',
        fired_price: null,
        wdate: now,
        updated_at: now,
      });
      this.triggers.set(trigger.autoid, trigger);
      triggers.push(trigger);
    }
    return position;
  }

  /** The open position a fill adds to: one per owner, contract, direction and margin mode. */
  private async positionFor(
    trx: Trx,
    market: ContractMarket,
    key: { owner: string; user_id: number; type: 'buy' | 'sell'; td_mode: TdMode; lever: number },
    price: Dec,
    now: number,
  ): Promise<PositionRow> {
    for (const row of this.positions.values()) {
      if (
        row.owner === key.owner &&
        row.contract_id === market.contract.autoid &&
        row.type === key.type &&
        row.td_mode === key.td_mode
      ) {
        return row;
      }
    }
    const row = await insertPosition(trx, {
      contract_id: market.contract.autoid,
      user_id: key.user_id,
      owner: key.owner,
      type: key.type,
      td_mode: key.td_mode,
      lever: key.lever,
      number: '0',
      cost: '0',
      margin: '0',
      open_price: price.toString(),
      realised: '0',
      fees: '0',
      funding: '0',
      closed_number: '0',
      close_money: '0',
      close_price: null,
      state: 'open',
      wdate: now,
      closedate: null,
      updated_at: now,
    });
    this.positions.set(row.autoid, row);
    return row;
  }

  /**
   * A closing fill of `lots` at `price` (see risk.closeFigures): the pool pays
   * back the released margin plus the realised PnL, less the fee. A loss
   * beyond the released margin is paid from the free balance for cross
   * margin; for isolated margin (which loses at most its margin), and for
   * whatever cross cannot pay, the insurance fund covers it. A fee the payout
   * cannot cover comes from the free balance, and what that cannot cover is
   * waived: no user balance ever goes below zero.
   */
  private async closeFill(
    trx: Trx,
    market: ContractMarket,
    row: EntrustRow,
    price: Dec,
    lots: Dec,
    legs: TransferInput[],
    id: (leg: string) => string,
  ): Promise<PositionRow> {
    const position = this.positions.get(row.position_id ?? -1);
    if (!position) throw new Error(`futures: close order ${row.autoid} has no open position`);
    const figures = closeFigures(this.positionFigures(position), lots, price);
    const notional = notionalOf(price, lots, market.unit);
    const hal = await this.halFee(trx, row, market, feeOf(notional, market.gas));
    // Paid in HAL, nothing of the fee comes out of the position or the wallet.
    const fee = hal ? Dec.ZERO : feeOf(notional, market.gas);
    const account = userAccount(position.user_id, 'futures');
    const asset = market.contract.maincoin;
    const reference = orderReference(row.autoid);
    const leg = `${row.type}-close`;
    const gross = figures.marginReleased.add(figures.realised);
    let feeDue = fee;
    if (!gross.isNegative()) {
      const feeFromPool = Dec.min(fee, gross);
      pushPositive(legs, {
        id: id(`${leg}-pay`),
        debit: POOL,
        credit: account,
        asset,
        amount: gross.sub(feeFromPool),
        code: 'futures_close',
        reference,
      });
      pushPositive(legs, {
        id: id(`${leg}-fee`),
        debit: POOL,
        credit: FEES,
        asset,
        amount: feeFromPool,
        code: 'futures_fee',
        reference,
      });
      feeDue = fee.sub(feeFromPool);
    }
    let free = (await this.options.ledger.balance({ ...account, asset }, trx)).available;
    if (gross.isNegative()) {
      const deficit = gross.neg();
      const fromUser = position.td_mode === 'cross' ? Dec.min(deficit, free) : Dec.ZERO;
      free = free.sub(fromUser);
      pushPositive(legs, {
        id: id(`${leg}-loss`),
        debit: account,
        credit: POOL,
        asset,
        amount: fromUser,
        code: 'futures_close',
        reference,
      });
      pushPositive(legs, {
        id: id(`${leg}-insurance`),
        debit: INSURANCE,
        credit: POOL,
        asset,
        amount: deficit.sub(fromUser),
        code: 'futures_insurance',
        reference,
      });
    }
    const feeFromFree = Dec.min(feeDue, free);
    pushPositive(legs, {
      id: id(`${leg}-fee-free`),
      debit: account,
      credit: FEES,
      asset,
      amount: feeFromFree,
      code: 'futures_fee',
      reference,
    });
    const feePaid = fee.sub(feeDue).add(feeFromFree);
    if (hal) chargeHal(legs, id(`${leg}-fee-hal`), row, hal, reference);
    row.fee = Dec.parse(row.fee).add(feePaid).toString();
    this.reducePosition(position, lots, price, figures, feePaid);
    return position;
  }

  private reducePosition(
    position: PositionRow,
    lots: Dec,
    price: Dec,
    figures: { marginReleased: Dec; costReleased: Dec; realised: Dec },
    feePaid: Dec,
  ): void {
    const accuracy = this.market(position.contract_id).contract.price_accuracy;
    position.number = Dec.parse(position.number).sub(lots).toString();
    position.cost = Dec.parse(position.cost).sub(figures.costReleased).toString();
    position.margin = Dec.parse(position.margin).sub(figures.marginReleased).toString();
    position.realised = Dec.parse(position.realised).add(figures.realised).toString();
    position.fees = Dec.parse(position.fees).add(feePaid).toString();
    const closedNumber = Dec.parse(position.closed_number).add(lots);
    position.closed_number = closedNumber.toString();
    position.close_money = Dec.parse(position.close_money).add(price.mul(lots)).toString();
    position.close_price = Dec.parse(position.close_money).div(closedNumber).floorTo(accuracy).toString();
  }

  /**
   * The house (market maker) holds one net position per contract, without
   * margin: a fill against its position realises PnL between the margin pool
   * and the house account, the rest opens or adds. It is never liquidated;
   * its account backs it. Keeping it as a position keeps longs equal to
   * shorts, which makes the margin pool balance and funding exact.
   */
  private async houseFill(
    trx: Trx,
    market: ContractMarket,
    side: 'buy' | 'sell',
    lots: Dec,
    price: Dec,
    legs: TransferInput[],
    id: string,
    now: number,
  ): Promise<PositionRow> {
    const existing = [...this.positions.values()].find(
      (row) => row.owner === HOUSE_OWNER && row.contract_id === market.contract.autoid,
    );
    const asset = market.contract.maincoin;
    let rest = lots;
    if (existing && existing.type !== side) {
      const held = Dec.parse(existing.number);
      const closing = Dec.min(held, lots);
      const figures = closeFigures(this.positionFigures(existing), closing, price);
      if (figures.realised.isPositive()) {
        legs.push({
          id: `${id}-pnl`,
          debit: POOL,
          credit: HOUSE,
          asset,
          amount: figures.realised,
          code: 'futures_close',
        });
      } else if (figures.realised.isNegative()) {
        legs.push({
          id: `${id}-pnl`,
          debit: HOUSE,
          credit: POOL,
          asset,
          amount: figures.realised.neg(),
          code: 'futures_close',
        });
      }
      this.reducePosition(existing, closing, price, figures, Dec.ZERO);
      rest = lots.sub(closing);
      if (!rest.isPositive()) return existing;
      await this.persistPosition(trx, existing, now);
    }
    const key = { owner: HOUSE_OWNER, user_id: 0, type: side, td_mode: 'cross' as const, lever: 1 };
    const position =
      existing && existing.type === side ? existing : await this.positionFor(trx, market, key, price, now);
    position.number = Dec.parse(position.number).add(rest).toString();
    position.cost = Dec.parse(position.cost)
      .add(notionalOf(price, rest, market.unit))
      .toString();
    return position;
  }

  /**
   * Writes a position and keeps the caches in step: an open one with lots is
   * re-priced for the liquidation scan; one at zero lots is closed (or was
   * liquidated) and leaves the caches, its active triggers cancelled.
   */
  private async persistPosition(trx: Trx, position: PositionRow, now: number): Promise<void> {
    if (position.state === 'open' && Dec.parse(position.number).isZero()) {
      position.state = 'closed';
      position.closedate = now;
    }
    position.updated_at = now;
    await savePosition(trx, position);
    if (position.state === 'open') {
      this.refreshRisk(position);
      return;
    }
    this.positions.delete(position.autoid);
    this.isolatedRisk.delete(position.autoid);
    for (const trigger of [...this.triggers.values()]) {
      if (trigger.position_id !== position.autoid) continue;
      trigger.state = 'cancelled';
      trigger.updated_at = now;
      await saveTrigger(trx, trigger);
      this.triggers.delete(trigger.autoid);
    }
  }

  private refreshRisk(position: PositionRow): void {
    if (position.td_mode !== 'lsolate' || position.owner === HOUSE_OWNER) return;
    const market = this.market(position.contract_id);
    this.isolatedRisk.set(position.autoid, {
      positionId: position.autoid,
      contractId: position.contract_id,
      long: position.type === 'buy',
      liquidationUnits: isolatedLiquidationUnits(this.positionFigures(position), market.mmf),
    });
  }

  /**
   * An order left the book: filled, or cancelled (by its owner, for want of
   * liquidity, by self-trade prevention). What its hold still reserves is released.
   */
  private async endOrder(
    trx: Trx,
    row: EntrustRow,
    done: Extract<BookEvent, { type: 'done' }>,
    now: number,
  ): Promise<void> {
    const filled = Dec.parse(row.unfilled).lt(Dec.parse(row.number));
    row.state = done.status === 'filled' ? 'all' : filled ? 'uncancel' : 'cancel';
    row.cancel_reason = done.cancelReason;
    row.updated_at = now;
    const rest = Dec.parse(row.held).sub(Dec.parse(row.hold_spent));
    if (!rest.isPositive()) return;
    await this.options.ledger.execute(
      [
        {
          id: `futures:${row.autoid}:release`,
          type: 'void_pending',
          pendingId: holdId(row.autoid),
          code: 'futures_release',
          reference: orderReference(row.autoid),
        },
      ],
      trx,
    );
  }

  // ── TP/SL orders on a position ──────────────────────────────────────────

  /** Spec §5: at least one of TP or SL; a long's TP not below the open price and SL not above, a short's the reverse. */
  private checkSetTrigger(trx: Trx, command: SetTriggerCommand): Execution {
    const position = this.positions.get(command.positionId);
    if (!position || position.owner !== String(command.userId)) throw notFound('futures.positionNotFound');
    const existing = command.triggerId === undefined ? null : this.triggers.get(command.triggerId);
    if (command.triggerId !== undefined && (!existing || existing.position_id !== position.autoid)) {
      throw notFound('futures.triggerNotFound');
    }
    const openPrice = Dec.parse(position.open_price);
    throwRule(
      checkPositionTpSl({
        side: directionOf(position.type),
        openPrice: openPrice.toString(),
        ...(command.profitPrice ? { takeProfit: command.profitPrice } : {}),
        ...(command.lossPrice ? { stopLoss: command.lossPrice } : {}),
        priceAccuracy: this.market(position.contract_id).contract.price_accuracy,
      }),
    );
    if (command.number !== undefined && command.number !== '') {
      throwRule(checkPartialClose({ quantity: command.number, available: position.number }));
    }
    const now = this.options.now();
    const fields = {
      profit_price: command.profitPrice ? Dec.parse(command.profitPrice).toString() : null,
      loss_price: command.lossPrice ? Dec.parse(command.lossPrice).toString() : null,
      number: command.number ? Dec.parse(command.number).toString() : null,
      updated_at: now,
    };
    return async () => {
      if (existing) {
        Object.assign(existing, fields);
        await saveTrigger(trx, existing);
        return { orders: [], positions: [], triggers: [{ ...existing }] };
      }
      const trigger = await insertTrigger(trx, {
        ...fields,
        position_id: position.autoid,
        user_id: command.userId,
        state: 'active',
        fired_price: null,
        wdate: now,
      });
      this.triggers.set(trigger.autoid, trigger);
      return { orders: [], positions: [], triggers: [{ ...trigger }] };
    };
  }

  private checkCancelTrigger(trx: Trx, command: CancelTriggerCommand): Execution {
    const trigger = this.triggers.get(command.triggerId);
    if (!trigger || trigger.user_id !== command.userId) throw notFound('futures.triggerNotFound');
    return async () => {
      trigger.state = 'cancelled';
      trigger.updated_at = this.options.now();
      await saveTrigger(trx, trigger);
      this.triggers.delete(trigger.autoid);
      return { orders: [], positions: [], triggers: [{ ...trigger }] };
    };
  }

  // ── risk pass: TP/SL, liquidation, funding ──────────────────────────────

  /** Everything a mark change can set off in one contract, in order: TP/SL, liquidations, funding when due. */
  private async riskPass(trx: Trx, contractId: number, effects: GroupEffects): Promise<CommandResult> {
    const market = this.market(contractId);
    const mark = this.markOf(contractId);
    const result: CommandResult = { orders: [], positions: [], triggers: [] };
    if (mark === null) return result;
    await this.fireTriggers(trx, market, mark, effects, result);
    await this.liquidateIsolated(trx, market, mark, effects, result);
    await this.liquidateCross(trx, market, effects, result);
    await this.fundIfDue(trx, market, mark);
    return result;
  }

  /** A trigger whose price the mark reached closes its lots (all when none given) at market. */
  private async fireTriggers(
    trx: Trx,
    market: ContractMarket,
    mark: Dec,
    effects: GroupEffects,
    result: CommandResult,
  ) {
    for (const trigger of [...this.triggers.values()]) {
      const position = this.positions.get(trigger.position_id);
      if (!position || position.contract_id !== market.contract.autoid) continue;
      const hit = triggerHit(
        directionOf(position.type),
        {
          profitPrice: parseOptionalPrice(trigger.profit_price),
          lossPrice: parseOptionalPrice(trigger.loss_price),
        },
        mark,
      );
      if (hit === null) continue;
      const { bestBid, bestAsk } = market.book.depth(1);
      // Without a counterparty the trigger waits for the next tick.
      if ((position.type === 'buy' ? bestBid : bestAsk) === null) continue;
      trigger.state = 'fired';
      trigger.fired_price = mark.toString();
      trigger.updated_at = this.options.now();
      await saveTrigger(trx, trigger);
      this.triggers.delete(trigger.autoid);
      result.triggers.push({ ...trigger });
      const held = Dec.parse(position.number);
      const lots = trigger.number === null ? held : Dec.min(Dec.parse(trigger.number), held);
      const closed = await this.executeClose(trx, market, position, lots, effects);
      result.orders.push(...closed.orders);
      result.positions.push(...closed.positions);
    }
  }

  /**
   * Isolated positions at or past their liquidation price (the scan compares
   * cached prices), re-checked from their figures, then taken over at the
   * bankruptcy price (see {@link takeOver}).
   */
  private async liquidateIsolated(
    trx: Trx,
    market: ContractMarket,
    mark: Dec,
    effects: GroupEffects,
    result: CommandResult,
  ) {
    const ids = scanIsolated(this.isolatedRisk.values(), market.contract.autoid, mark.units);
    for (const positionId of ids) {
      const position = this.positions.get(positionId);
      if (!position) continue;
      const figures = this.positionFigures(position);
      const equity = positionEquity(figures, mark);
      if (!isBelowMaintenance(equity, maintenanceMargin(figures, mark, market.mmf))) continue;
      await this.takeOver(trx, market, position, mark, equity, effects, `futures:liq:${position.autoid}`);
      result.positions.push({ ...position });
    }
  }

  /**
   * Cross accounts with a position in this contract whose equity (free
   * balance + Σ margin + unrealised PnL) fell to their maintenance: their
   * resting orders are cancelled, then every cross position is taken over and
   * the free balance goes to the insurance fund with the remaining margin
   * (the account is closed at its bankruptcy point).
   */
  private async liquidateCross(
    trx: Trx,
    market: ContractMarket,
    effects: GroupEffects,
    result: CommandResult,
  ) {
    const owners = new Set<string>();
    for (const row of this.positions.values()) {
      if (
        row.contract_id === market.contract.autoid &&
        row.td_mode === 'cross' &&
        row.owner !== HOUSE_OWNER
      ) {
        owners.add(row.owner);
      }
    }
    for (const owner of owners) {
      const userId = Number(owner);
      const account = { ...userAccount(userId, 'futures'), asset: market.contract.maincoin };
      const free = (await this.options.ledger.balance(account, trx)).available;
      if (!crossBreached(free, this.crossPositionsOf(owner))) continue;
      await this.cancelAllOf(trx, owner, effects);
      const freeAfterCancel = (await this.options.ledger.balance(account, trx)).available;
      const rows = [...this.positions.values()].filter(
        (row) => row.owner === owner && row.td_mode === 'cross',
      );
      const tag = `futures:liq:cross:${owner}:${rows.map((row) => row.autoid).join('-')}`;
      if (freeAfterCancel.isPositive()) {
        await this.options.ledger.execute(
          [
            {
              id: `${tag}:free`,
              debit: userAccount(userId, 'futures'),
              credit: INSURANCE,
              asset: market.contract.maincoin,
              amount: freeAfterCancel,
              code: 'futures_liquidation',
            },
          ],
          trx,
        );
      }
      for (const row of rows) {
        const rowMarket = this.market(row.contract_id);
        const mark = this.markOf(row.contract_id);
        if (mark === null) continue;
        const equity = positionEquity(this.positionFigures(row), mark);
        await this.takeOver(trx, rowMarket, row, mark, equity, effects, `${tag}:${row.autoid}`);
        result.positions.push({ ...row });
      }
    }
  }

  /**
   * Closes a position at its bankruptcy price into the insurance fund: the
   * owner's realised loss is exactly the margin; the position's equity at the
   * mark e + s·(mark − p) goes from the margin pool to the insurance fund when
   * positive (the remaining margin) or is paid by the insurance fund into the
   * pool when negative (the shortfall). The house takes the position over at
   * the mark, so longs stay equal to shorts.
   */
  private async takeOver(
    trx: Trx,
    market: ContractMarket,
    position: PositionRow,
    mark: Dec,
    equity: Dec,
    effects: GroupEffects,
    tag: string,
  ): Promise<void> {
    const now = this.options.now();
    const figures = this.positionFigures(position);
    const asset = market.contract.maincoin;
    const legs: TransferInput[] = [];
    if (equity.isPositive()) {
      legs.push({
        id: `${tag}:remaining`,
        debit: POOL,
        credit: INSURANCE,
        asset,
        amount: equity,
        code: 'futures_liquidation',
        reference: positionReference(position.autoid),
      });
    } else if (equity.isNegative()) {
      legs.push({
        id: `${tag}:shortfall`,
        debit: INSURANCE,
        credit: POOL,
        asset,
        amount: equity.neg(),
        code: 'futures_insurance',
        reference: positionReference(position.autoid),
      });
    }
    const house = await this.houseFill(
      trx,
      market,
      position.type,
      figures.lots,
      mark,
      legs,
      `${tag}:house`,
      now,
    );
    if (legs.length > 0) await this.options.ledger.execute(legs, trx);
    await this.persistPosition(trx, house, now);
    const bankruptcy = bankruptcyPrice(figures, figures.margin).floorTo(market.contract.price_accuracy);
    position.realised = Dec.parse(position.realised).sub(figures.margin).toString();
    position.closed_number = Dec.parse(position.closed_number).add(figures.lots).toString();
    position.close_money = Dec.parse(position.close_money).add(bankruptcy.mul(figures.lots)).toString();
    position.close_price = bankruptcy.toString();
    position.number = '0';
    position.cost = '0';
    position.margin = '0';
    position.state = 'liquidated';
    position.closedate = now;
    await this.persistPosition(trx, position, now);
    effects.contracts.add(market.contract.autoid);
  }

  /**
   * Funding once per interval (FUNDING_INTERVAL_MS): rate from the book's mid
   * over the index (risk.fundingRate), payment |s| × mark × |rate| per
   * position. Payers pay into clearing first — cross from the free balance,
   * then the margin; isolated from the margin; the house from its account;
   * any part a position cannot pay is covered by the insurance fund — then
   * receivers are paid out of clearing (isolated into their margin). Longs
   * and shorts are equal in size, so clearing ends at zero.
   */
  private async fundIfDue(trx: Trx, market: ContractMarket, mark: Dec): Promise<void> {
    const { autoid: contractId, maincoin: asset } = market.contract;
    const slot = fundingSlot(this.options.now(), this.options.fundingIntervalMs);
    const last = this.lastFunding.get(contractId) ?? slot;
    if (slot <= last) return;
    const { rate, mid } = roundRate(market.book.depth(1), mark);
    await insertFunding(trx, {
      contract_id: contractId,
      slot,
      rate: rate.toString(),
      mark: mark.toString(),
      mid: mid.toString(),
      wdate: this.options.now(),
    });
    this.lastFunding.set(contractId, slot);
    if (rate.isZero()) return;
    const payers: TransferInput[] = [];
    const receivers: TransferInput[] = [];
    const touched: PositionRow[] = [];
    for (const position of this.positions.values()) {
      if (position.contract_id !== contractId) continue;
      const payment = fundingPayment(this.positionFigures(position), mark, rate);
      if (payment.isZero()) continue;
      const id = `futures:funding:${contractId}:${slot}:${position.autoid}`;
      const reference = positionReference(position.autoid);
      const owner = position.owner === HOUSE_OWNER ? HOUSE : userAccount(position.user_id, 'futures');
      if (payment.isPositive()) {
        const toMargin = position.td_mode === 'lsolate';
        receivers.push({
          id,
          debit: CLEARING,
          credit: toMargin ? POOL : owner,
          asset,
          amount: payment,
          code: 'futures_funding',
          reference,
        });
        if (toMargin) position.margin = Dec.parse(position.margin).add(payment).toString();
      } else {
        await this.payFunding(trx, position, owner, payment.neg(), id, reference, asset, payers);
      }
      position.funding = Dec.parse(position.funding).add(payment).toString();
      touched.push(position);
    }
    for (const batch of chunks([...payers, ...receivers], FUNDING_CHUNK))
      await this.options.ledger.execute(batch, trx);
    for (const position of touched) await this.persistPosition(trx, position, this.options.now());
  }

  private async payFunding(
    trx: Trx,
    position: PositionRow,
    owner: AccountRef,
    amount: Dec,
    id: string,
    reference: string,
    asset: string,
    legs: TransferInput[],
  ): Promise<void> {
    let due = amount;
    if (position.owner === HOUSE_OWNER || position.td_mode === 'cross') {
      const free = (await this.options.ledger.balance({ ...owner, asset }, trx)).available;
      const fromFree = position.owner === HOUSE_OWNER ? due : Dec.min(due, free);
      pushPositive(legs, {
        id: `${id}:free`,
        debit: owner,
        credit: CLEARING,
        asset,
        amount: fromFree,
        code: 'futures_funding',
        reference,
      });
      due = due.sub(fromFree);
    }
    const margin = Dec.parse(position.margin);
    const fromMargin = Dec.min(due, margin);
    pushPositive(legs, {
      id: `${id}:margin`,
      debit: POOL,
      credit: CLEARING,
      asset,
      amount: fromMargin,
      code: 'futures_funding',
      reference,
    });
    position.margin = margin.sub(fromMargin).toString();
    pushPositive(legs, {
      id: `${id}:insurance`,
      debit: INSURANCE,
      credit: CLEARING,
      asset,
      amount: due.sub(fromMargin),
      code: 'futures_insurance',
      reference,
    });
  }
}

/**
 * A market buy's budget in the book's quote (price × lots): the largest B
 * with B × unit × (1/lever + gas) ≤ hold, i.e. floor(hold × lever / (unit ×
 * (1 + gas × lever))), so its fills' margin and fee never exceed the hold.
 */
function marketBudget(market: ContractMarket, leverInt: number, hold: Dec): Dec {
  const lever = Dec.fromInt(leverInt);
  const budget = hold.mul(lever).div(market.unit.mul(Dec.ONE.add(market.gas.mul(lever))));
  return budget.floorTo(market.contract.price_accuracy);
}

/** An order's filled figures after one of its trades. */
function recordFill(row: EntrustRow, trade: TradeEvent): void {
  row.unfilled = Dec.parse(row.unfilled).sub(trade.amount).toString();
  row.deal_money = Dec.parse(row.deal_money).add(trade.quoteAmount).toString();
}

function actionRank(row: EntrustRow): number {
  if (isHouse(row.owner)) return 1;
  return row.action === 'open' ? 0 : 2;
}

function tradeRow(
  market: ContractMarket,
  maker: EntrustRow,
  taker: EntrustRow,
  trade: TradeEvent,
  now: number,
): FuturesTradeRow {
  return {
    autoid: 0,
    contract_id: market.contract.autoid,
    maker_order_id: maker.autoid,
    taker_order_id: taker.autoid,
    taker_side: trade.takerSide,
    price: trade.price.toString(),
    number: trade.amount.toString(),
    wdate: now,
  };
}

/** Zero-amount legs are left out: the ledger moves only positive amounts. */
function pushPositive(legs: TransferInput[], leg: TransferInput & { amount: Dec }): void {
  if (leg.amount.isPositive()) legs.push(leg);
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

export function isOpenState(state: EntrustState): boolean {
  return state === 'unfilled' || state === 'section';
}

function holdId(autoid: number): string {
  return `futures:${autoid}:hold`;
}

function orderReference(autoid: number): string {
  return `futures:${autoid}`;
}

function positionReference(autoid: number): string {
  return `futures:position:${autoid}`;
}

function throwRule(error: RuleError | null): void {
  if (error !== null) throw badRequest(error.key, error.params);
}

/** A fee paid in HAL: from the user's spot wallet to the fee account; the entrust records it apart from its coin fee. */
function chargeHal(legs: TransferInput[], id: string, row: EntrustRow, hal: Dec, reference: string): void {
  legs.push({
    id,
    debit: userAccount(row.user_id, 'spot'),
    credit: FEES,
    asset: REFERRAL_TOKEN,
    amount: hal,
    code: 'futures_fee',
    reference,
  });
  row.fee_hal = Dec.parse(row.fee_hal).add(hal).toString();
}
