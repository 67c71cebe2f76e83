// Over 500 lines because it is the one face of the futures module: the
// wire shapes of spec §3 (entrust, position, totals) and every use-case the
// routes call, each a few lines around a command to FuturesEngine or a read.
import { Dec } from '@halyard/money';
import type { FuturesContractSettings, FuturesSymbolRow, MarketCoins } from '@halyard/protocol';
import { depthRows } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { type Ledger, systemAccount, userAccount } from '../../ledger/index.ts';
import type { IndexTick, MarketModule } from '../../market/index.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { Db, Trx } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import type { ReferralFees } from '../referral/index.ts';
import { demoContractRows } from './contracts.ts';
import {
  type ContractMarket,
  FuturesEngine,
  HOUSE_TAKER_TRADER,
  HOUSE_TRADER,
  type OpenCommand,
  userTrader,
} from './engine.ts';
import { crossLiquidationPrice, isolatedLiquidationUnits } from './liquidation.ts';
import { FUTURES_BOOK_ROWS, marketRef, publishCommitted, toTradePush } from './publish.ts';
import { averagePrice, sizeOf, unrealisedPnl } from './risk.ts';
import {
  type FuturesListing,
  futuresRowWith,
  futuresSettingsOf,
  newContractRow,
  requireValidListing,
  requireValidSettings,
} from './settings.ts';
import {
  type EntrustRow,
  insertContract,
  insertMissingContracts,
  type PositionRow,
  selectClosedPositionPage,
  selectContract,
  selectEntrustPage,
  type TdMode,
  type TriggerRow,
} from './store.ts';

/** A contract as the routes name it. */
export interface Coins {
  tradcoin: string;
  maincoin: string;
}

/** Spec §3 "Futures order payload". */
export interface FuturesOrderInput extends Coins {
  side: 'buy' | 'sell';
  style: 'limit' | 'market';
  price?: string | undefined;
  profitPrice?: string | undefined;
  lossPrice?: string | undefined;
  number: string;
  lever: number;
  tdMode: TdMode;
}

/** Spec §3 "Entrust (futures)" plus what the entrust card shows. */
export interface EntrustView {
  autoid: number;
  id: string;
  type: 'buy' | 'sell';
  /** open: adds to a position; close: reduces one (closePosition, TP/SL). */
  action: 'open' | 'close';
  tdMode: TdMode;
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
  state: EntrustRow['state'];
  margin: string;
  fee: string;
  /** The coin the fee was paid in (the contract's margin coin). */
  feeCoin: string;
  /** Fees paid in HAL instead (fee deduction). */
  feeHal: string;
}

/** Spec §3 "Futures position" plus its labels (liquidation price, TP/SL, value, funding). */
export interface PositionView {
  autoid: number;
  type: 'buy' | 'sell';
  tdMode: TdMode;
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
  state: PositionRow['state'];
  closedate: number | null;
  close_price: string;
  /** Spec §3 "Poster order": the realised PnL of a closed position, income = profit / margin × 100. */
  last_profit: string;
  income: string;
}

/** Per settlement coin: open positions' margin and unrealised PnL, and open entrusts' remaining hold. */
export interface FuturesExposureView {
  coin: string;
  margin: Dec;
  profit: Dec;
  entrust: Dec;
}

export interface TriggerView {
  id: number;
  autoid: number;
  tradcoin: string;
  maincoin: string;
  type: 'buy' | 'sell';
  profitPrice: string;
  lossPrice: string;
  number: string;
  state: TriggerRow['state'];
  wdate: number;
}

export interface PageView<T> {
  list: T[];
  count: number;
  page: number;
  limit: number;
}

export interface FuturesServiceOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  market: MarketModule;
  publisher: Publisher;
  fundingIntervalMs: number;
  /** Referral commissions on fees (modules/referral). */
  referral: ReferralFees;
  onError: (error: unknown) => void;
}

/** What the treasury gives the house and the insurance fund at the demo seed (play money). */
const HOUSE_FUNDING = Dec.parse('5000000');
const INSURANCE_FUNDING = Dec.parse('1000000');
const HUNDRED = Dec.fromInt(100);

/**
 * The futures use-cases (spec §7 "Contract"): resolves contracts and users,
 * runs identity checks, sends commands to the {@link FuturesEngine}, answers
 * the reads and publishes what each committed group changed.
 */
export class FuturesService {
  readonly engine: FuturesEngine;
  private readonly byCoins = new Map<string, number>();

  constructor(private readonly options: FuturesServiceOptions) {
    this.engine = new FuturesEngine({
      db: options.db,
      ledger: options.ledger,
      now: () => options.clock.now(),
      fundingIntervalMs: options.fundingIntervalMs,
      referral: options.referral,
      onCommitted: (effects) =>
        publishCommitted(effects, {
          markets: this.engine,
          publisher: options.publisher,
          data: options.market.data,
        }),
      onError: options.onError,
    });
  }

  async load(): Promise<void> {
    await this.engine.restore();
    this.byCoins.clear();
    for (const market of this.engine.markets.values()) {
      this.byCoins.set(coinsKey(market.contract), market.contract.autoid);
      const tick = this.options.market.index.current(market.contract.tradcoin);
      if (tick) this.engine.marks.set(tick.coin, tick.price);
    }
  }

  /** Demo seed (idempotent): the demo contracts, the house and the insurance fund funded by the treasury. */
  async seedDemo(): Promise<void> {
    const quote = this.options.market.index.quote;
    await insertMissingContracts(this.options.db, demoContractRows(quote));
    await this.load();
    const treasury = systemAccount('treasury');
    await this.options.ledger.execute([
      {
        id: `futures:house-funding:${quote}`,
        debit: treasury,
        credit: systemAccount('market_maker'),
        asset: quote,
        amount: HOUSE_FUNDING,
        code: 'demo_funding',
      },
      {
        id: `futures:insurance-funding:${quote}`,
        debit: treasury,
        credit: systemAccount('insurance'),
        asset: quote,
        amount: INSURANCE_FUNDING,
        code: 'demo_funding',
      },
    ]);
  }

  /**
   * Every index tick is the mark of the coin's contracts (never an
   * operator's number): it is charted as a zero-volume print of the contract
   * market and re-checks TP/SL, liquidations and funding.
   */
  onIndexTick(tick: IndexTick): Promise<void> {
    for (const market of this.engine.markets.values()) {
      if (
        market.contract.tradcoin !== tick.coin ||
        market.contract.maincoin !== this.options.market.index.quote
      )
        continue;
      this.options.market.data.recordPrice(marketRef(market), tick.price, tick.ts);
    }
    return this.engine.applyMark(tick.coin, tick.price);
  }

  contract(coins: Coins): ContractMarket {
    const id = this.byCoins.get(coinsKey(coins));
    if (id === undefined) throw notFound('futures.contractNotFound');
    return this.engine.market(id);
  }

  // ── the back office (issue 18) ─────────────────────────────────────────

  /** Every contract with the settings an operator edits. */
  contractSettings(): Array<
    { id: number; name: string; unit: string } & MarketCoins & FuturesContractSettings
  > {
    return [...this.engine.markets.values()].map(({ contract }) => ({
      id: contract.autoid,
      name: contract.chinaname,
      unit: Dec.parse(contract.unit).toString(),
      tradcoin: contract.tradcoin,
      maincoin: contract.maincoin,
      ...futuresSettingsOf(contract),
    }));
  }

  /** New settings of a contract, through the engine's queue: live for the next command; answers before and after. */
  async changeContractSettings(
    id: number,
    settings: FuturesContractSettings,
  ): Promise<{ before: FuturesContractSettings; after: FuturesContractSettings }> {
    const market = this.engine.markets.get(id);
    if (!market) throw notFound('markets.notFound');
    requireValidSettings(settings);
    const before = futuresSettingsOf(market.contract);
    await this.engine.submit({ kind: 'settings', contract: futuresRowWith(market.contract, settings) });
    return { before, after: futuresSettingsOf(this.engine.market(id).contract) };
  }

  /** Checks a new contract: its coins, name, lot size and settings, and that it is not listed yet. */
  checkListing(listing: FuturesListing, settings: FuturesContractSettings): void {
    requireValidListing(listing, settings);
    if (this.byCoins.has(coinsKey(listing))) throw conflict('markets.exists');
  }

  /** Writes a new contract in the caller's transaction (an approved listing); `openListed` after the commit. */
  async insertListing(trx: Trx, listing: FuturesListing, settings: FuturesContractSettings): Promise<number> {
    this.checkListing(listing, settings);
    return insertContract(trx, newContractRow(listing, settings));
  }

  /** Opens a contract written by `insertListing` once its transaction committed: its book, its funding clock. */
  async openListed(id: number): Promise<void> {
    const contract = await selectContract(this.options.db, id);
    if (!contract) throw notFound('markets.notFound');
    await this.engine.submit({ kind: 'settings', contract });
    this.byCoins.set(coinsKey(contract), id);
  }

  // ── writes ──────────────────────────────────────────────────────────────

  async placeForUser(userId: number, input: FuturesOrderInput): Promise<EntrustView> {
    const market = this.contract(input);
    await this.options.identity.assertNotFrozen(userId);
    const result = await this.engine.submit(this.openCommand(userTrader(userId), market, input));
    return this.entrustView(result.orders[0]!);
  }

  async placeForHouse(input: FuturesOrderInput): Promise<EntrustView> {
    const market = this.contract(input);
    const result = await this.engine.submit(this.openCommand(HOUSE_TRADER, market, input));
    return this.entrustView(result.orders[0]!);
  }

  /** The house's crossing role's order (demo mode): it meets the house's own quotes, so trades print. */
  async crossForHouse(input: FuturesOrderInput): Promise<EntrustView> {
    const market = this.contract(input);
    const result = await this.engine.submit(this.openCommand(HOUSE_TAKER_TRADER, market, input));
    return this.entrustView(result.orders[0]!);
  }

  private openCommand(
    trader: OpenCommand['trader'],
    market: ContractMarket,
    input: FuturesOrderInput,
  ): OpenCommand {
    return {
      kind: 'open',
      trader,
      contractId: market.contract.autoid,
      side: input.side,
      style: input.style,
      price: input.price,
      number: input.number,
      lever: input.lever,
      tdMode: input.tdMode,
      profitPrice: input.profitPrice,
      lossPrice: input.lossPrice,
    };
  }

  async cancelForUser(userId: number, autoid: number): Promise<EntrustView[]> {
    const result = await this.engine.submit({ kind: 'cancel', owner: String(userId), autoid });
    return result.orders.filter((row) => row.autoid === autoid).map((row) => this.entrustView(row));
  }

  async cancelForHouse(autoid: number): Promise<void> {
    await this.engine.submit({ kind: 'cancel', owner: HOUSE_TRADER.owner, autoid });
  }

  /** Closes `number` lots of one position (all when null) at market. */
  async closePosition(userId: number, autoid: number, number: string | null): Promise<PositionView> {
    await this.options.identity.assertNotFrozen(userId);
    const before = this.engine.positions.get(autoid);
    const result = await this.engine.submit({ kind: 'close', userId, positionId: autoid, number });
    const row = result.positions.find((position) => position.autoid === autoid) ?? before;
    if (!row) throw notFound('futures.positionNotFound');
    return this.positionView(row, Dec.ZERO);
  }

  /** Closes every position of the user in one contract, or of one side (all, buy, sell) in one or every contract. */
  async closeMany(
    userId: number,
    filter: { coins: Coins | null; type: 'all' | 'buy' | 'sell' },
  ): Promise<PositionView[]> {
    const contractId = filter.coins ? this.contract(filter.coins).contract.autoid : null;
    const targets = [...this.engine.positions.values()].filter(
      (row) =>
        row.owner === String(userId) &&
        (contractId === null || row.contract_id === contractId) &&
        (filter.type === 'all' || row.type === filter.type),
    );
    if (targets.length === 0) throw notFound('futures.noPositions');
    const closed: PositionView[] = [];
    for (const row of targets) closed.push(await this.closePosition(userId, row.autoid, null));
    return closed;
  }

  async setTrigger(
    userId: number,
    input: {
      positionId: number;
      triggerId?: number;
      profitPrice?: string;
      lossPrice?: string;
      number?: string;
    },
  ): Promise<TriggerView> {
    const result = await this.engine.submit({ kind: 'setTrigger', userId, ...input });
    return this.triggerView(result.triggers[0]!);
  }

  /** editProfitLoss: finds the trigger's position, then replaces its prices and lots. */
  async editTrigger(
    userId: number,
    input: { triggerId: number; profitPrice?: string; lossPrice?: string; number?: string },
  ): Promise<TriggerView> {
    const trigger = this.engine.triggers.get(input.triggerId);
    if (!trigger || trigger.user_id !== userId) throw notFound('futures.triggerNotFound');
    return this.setTrigger(userId, { ...input, positionId: trigger.position_id });
  }

  async cancelTrigger(userId: number, triggerId: number): Promise<TriggerView> {
    const result = await this.engine.submit({ kind: 'cancelTrigger', userId, triggerId });
    return this.triggerView(result.triggers[0]!);
  }

  // ── reads ───────────────────────────────────────────────────────────────

  /** Spec §3 "Futures pair" of every contract. */
  symbols(): FuturesSymbolRow[] {
    return [...this.engine.markets.values()].map((market) => this.symbolRow(market));
  }

  /** GET /contract/contract: the contract's info and its book, 7 rows a side. */
  info(coins: Coins) {
    const market = this.contract(coins);
    const ticker = this.options.market.data.ticker(marketRef(market));
    const mark = this.engine.markOf(market.contract.autoid);
    return {
      info: {
        ...this.symbolRow(market),
        levers: market.levers,
        mark_price: mark?.toString() ?? '0',
        initial_margin_rate: Dec.parse(market.contract.initial_margin_rate).toString(),
        maintenance_margin_rate: market.mmf.toString(),
        high: ticker?.high ?? '0',
        low: ticker?.low ?? '0',
      },
      buy: depthRows(market.depth.bids, FUTURES_BOOK_ROWS),
      sell: depthRows(market.depth.asks, FUTURES_BOOK_ROWS),
      top: market.trades.map(toTradePush),
    };
  }

  levers(coins: Coins): { lever: number }[] {
    return this.contract(coins).levers.map((lever) => ({ lever }));
  }

  /** GET /contract/contractAccount: the usable futures balance and the user's open entrusts in the contract. */
  async account(userId: number, coins: Coins) {
    const market = this.contract(coins);
    const balance = await this.options.ledger.balance({
      ...userAccount(userId, 'futures'),
      asset: market.contract.maincoin,
    });
    const entrusts = [...this.engine.open.values()]
      .filter((row) => row.owner === String(userId) && row.contract_id === market.contract.autoid)
      .reverse();
    return {
      balance: { usable: balance.available.toString(), locked: balance.locked.toString() },
      entrust_order: entrusts.map((row) => this.entrustView(row)),
    };
  }

  /** Open positions of the user, newest first, in one contract or all. */
  async positions(userId: number, coins: Coins | null): Promise<PositionView[]> {
    const contractId = coins ? this.contract(coins).contract.autoid : null;
    const rows = [...this.engine.positions.values()]
      .filter(
        (row) => row.owner === String(userId) && (contractId === null || row.contract_id === contractId),
      )
      .reverse();
    if (rows.length === 0) return [];
    const free = (
      await this.options.ledger.balance({
        ...userAccount(userId, 'futures'),
        asset: this.options.market.index.quote,
      })
    ).available;
    return rows.map((row) => this.positionView(row, free));
  }

  /**
   * What the user's futures hold outside their free balance, per settlement
   * coin: the margin of open positions (it sits in the `futures_margin` pool,
   * not in the user's account), their unrealised PnL at the mark (a contract
   * without a mark adds none) and what open entrusts still hold for margin
   * and fee (the pending part of the user's futures account).
   */
  exposure(userId: number): FuturesExposureView[] {
    const owner = String(userId);
    const byCoin = new Map<string, FuturesExposureView>();
    const of = (contractId: number): FuturesExposureView => {
      const coin = this.engine.market(contractId).contract.maincoin;
      const found = byCoin.get(coin);
      if (found) return found;
      const fresh = { coin, margin: Dec.ZERO, profit: Dec.ZERO, entrust: Dec.ZERO };
      byCoin.set(coin, fresh);
      return fresh;
    };
    for (const row of this.engine.positions.values()) {
      if (row.owner !== owner || row.state !== 'open') continue;
      const figures = this.engine.positionFigures(row);
      const mark = this.engine.markOf(row.contract_id);
      const entry = of(row.contract_id);
      entry.margin = entry.margin.add(figures.margin);
      if (mark) entry.profit = entry.profit.add(unrealisedPnl(figures, mark));
    }
    for (const row of this.engine.open.values()) {
      if (row.owner !== owner) continue;
      const entry = of(row.contract_id);
      entry.entrust = entry.entrust.add(Dec.parse(row.held).sub(Dec.parse(row.hold_spent)));
    }
    return [...byCoin.values()];
  }

  async entrustPage(
    userId: number,
    open: boolean,
    coins: Coins | null,
    page: number,
    limit: number,
  ): Promise<PageView<EntrustView>> {
    const contractId = coins ? this.contract(coins).contract.autoid : undefined;
    const { rows, count } = await selectEntrustPage(
      this.options.db,
      { userId, open, contractId },
      (page - 1) * limit,
      limit,
    );
    return { list: rows.map((row) => this.entrustView(row)), count, page, limit };
  }

  /** Closed and liquidated positions (the poster orders), newest first. */
  async historyPage(
    userId: number,
    coins: Coins | null,
    page: number,
    limit: number,
  ): Promise<PageView<PositionView>> {
    const contractId = coins ? this.contract(coins).contract.autoid : undefined;
    const { rows, count } = await selectClosedPositionPage(
      this.options.db,
      userId,
      contractId,
      (page - 1) * limit,
      limit,
    );
    return { list: rows.map((row) => this.positionView(row, Dec.ZERO)), count, page, limit };
  }

  /** Active TP/SL orders of the user, of one position when given. */
  triggers(userId: number, positionId: number | null): TriggerView[] {
    return [...this.engine.triggers.values()]
      .filter((row) => row.user_id === userId && (positionId === null || row.position_id === positionId))
      .map((row) => this.triggerView(row));
  }

  /** The engine's queue and what it holds open (the back office's dashboard). */
  workload(): { queued: number; openOrders: number; openPositions: number; triggers: number } {
    const { engine } = this;
    return {
      queued: engine.queued,
      openOrders: engine.open.size,
      openPositions: engine.positions.size,
      triggers: engine.triggers.size,
    };
  }

  async idle(): Promise<void> {
    await this.engine.idle();
  }

  /** The periodic broadcast of the contract list (spec: `consymbols`). */
  publishSymbols(): void {
    this.options.publisher.publish({ type: 'consymbols', data: this.symbols() });
  }

  // ── views ───────────────────────────────────────────────────────────────

  private symbolRow(market: ContractMarket): FuturesSymbolRow {
    const { contract, depth } = market;
    const ticker = this.options.market.data.ticker(marketRef(market));
    return {
      autoid: contract.autoid,
      tradcoin: contract.tradcoin,
      maincoin: contract.maincoin,
      price: (this.engine.latestPrice(contract.autoid) ?? Dec.ZERO).toFixed(contract.price_accuracy),
      rise: ticker?.rise ?? '0.00',
      volume: ticker?.volume ?? '0',
      state: contract.state,
      plate: contract.plate,
      minnumber: Dec.parse(contract.minnumber).toString(),
      price_accuracy: contract.price_accuracy,
      amount_accuracy: 0,
      buyprice: depth.bestBid?.toString() ?? '0',
      sellprice: depth.bestAsk?.toString() ?? '0',
      unit: market.unit.toString(),
      isOptional: false,
      gas: market.gas.toString(),
      maxnumber: Dec.parse(contract.maxnumber).toString(),
      max_lever: contract.max_lever,
      chinaname: contract.chinaname,
      symbol: contract.symbol,
    };
  }

  entrustView(row: EntrustRow): EntrustView {
    const market = this.engine.market(row.contract_id);
    const filled = Dec.parse(row.number).sub(Dec.parse(row.unfilled));
    return {
      autoid: row.autoid,
      id: String(row.autoid),
      type: row.type,
      action: row.action,
      tdMode: row.td_mode,
      lever: row.lever,
      tradcoin: market.contract.tradcoin,
      maincoin: market.contract.maincoin,
      wdate: row.wdate,
      entrust_price: row.price === null ? '0' : Dec.parse(row.price).toString(),
      price: (this.engine.latestPrice(row.contract_id) ?? Dec.ZERO).toString(),
      deal_price: filled.isPositive()
        ? Dec.parse(row.deal_money).div(filled).floorTo(market.contract.price_accuracy).toString()
        : '0',
      profitPrice: priceText(row.profit_price),
      lossPrice: priceText(row.loss_price),
      number: Dec.parse(row.number).toString(),
      unfilled: Dec.parse(row.unfilled).toString(),
      style: row.style,
      point: market.contract.price_accuracy,
      state: row.state,
      margin: Dec.parse(row.margin).toString(),
      fee: Dec.parse(row.fee).toString(),
      feeCoin: market.contract.maincoin,
      feeHal: Dec.parse(row.fee_hal).toString(),
    };
  }

  /** `free` is the user's free futures balance: a cross position's liquidation price draws on it. */
  positionView(row: PositionRow, free: Dec): PositionView {
    const market = this.engine.market(row.contract_id);
    const accuracy = market.contract.price_accuracy;
    const figures = this.engine.positionFigures(row);
    const mark = this.engine.markOf(row.contract_id) ?? Dec.ZERO;
    const open = row.state === 'open';
    const profit = open ? unrealisedPnl(figures, mark) : Dec.ZERO;
    const margin = figures.margin;
    const triggers = [...this.engine.triggers.values()].filter(
      (trigger) => trigger.position_id === row.autoid,
    );
    const realised = Dec.parse(row.realised);
    // A closed position's margin is gone: its income is measured on the margin it was opened with (cost / lever).
    const closedCost = open ? Dec.ZERO : closedEntryCost(row, market);
    const closedSize = Dec.parse(row.closed_number).mul(market.unit);
    const closedMargin = open ? margin : closedCost.div(Dec.fromInt(row.lever));
    return {
      autoid: row.autoid,
      type: row.type,
      tdMode: row.td_mode,
      lever: row.lever,
      tradcoin: market.contract.tradcoin,
      maincoin: market.contract.maincoin,
      wdate: row.wdate,
      price: (open ? averagePrice(figures) : closedSize.isPositive() ? closedCost.div(closedSize) : Dec.ZERO)
        .floorTo(accuracy)
        .toString(),
      open_price: Dec.parse(row.open_price).toString(),
      number: figures.lots.toString(),
      unfilled: figures.lots.toString(),
      position: margin.toString(),
      profit: profit.toString(),
      profit_rate: percentOf(profit, margin),
      realised: realised.toString(),
      gas: market.gas.toString(),
      fess: Dec.parse(row.fees).toString(),
      funding: Dec.parse(row.funding).toString(),
      point: accuracy,
      profitOrder: triggers.length,
      mark_price: mark.toString(),
      liquidation_price: open ? this.liquidationPriceOf(row, free) : '0',
      value: sizeOf(figures).mul(mark).toString(),
      tp_price: priceText(triggers.find((trigger) => trigger.profit_price !== null)?.profit_price),
      sl_price: priceText(triggers.find((trigger) => trigger.loss_price !== null)?.loss_price),
      state: row.state,
      closedate: row.closedate,
      close_price: row.close_price === null ? '' : Dec.parse(row.close_price).toString(),
      last_profit: realised.toString(),
      income: open ? percentOf(profit, margin) : percentOf(realised, closedMargin),
    };
  }

  private liquidationPriceOf(row: PositionRow, free: Dec): string {
    const market = this.engine.market(row.contract_id);
    const figures = this.engine.positionFigures(row);
    const accuracy = market.contract.price_accuracy;
    if (row.td_mode === 'lsolate') {
      const units = isolatedLiquidationUnits(figures, market.mmf);
      return units === null ? '0' : Dec.fromUnits(units).floorTo(accuracy).toString();
    }
    const mark = this.engine.markOf(row.contract_id) ?? Dec.ZERO;
    const own = { ...figures, mark, mmf: market.mmf };
    const price = crossLiquidationPrice(free, own, this.engine.crossPositionsOf(row.owner, row.autoid));
    return price === null ? '0' : price.floorTo(accuracy).toString();
  }

  private triggerView(row: TriggerRow): TriggerView {
    const position = this.engine.positions.get(row.position_id);
    const market = position ? this.engine.market(position.contract_id) : null;
    return {
      id: row.autoid,
      autoid: row.position_id,
      tradcoin: market?.contract.tradcoin ?? '',
      maincoin: market?.contract.maincoin ?? '',
      type: position?.type ?? 'buy',
      profitPrice: priceText(row.profit_price),
      lossPrice: priceText(row.loss_price),
      number: priceText(row.number),
      state: row.state,
      wdate: row.wdate,
    };
  }
}

/**
 * The entry notional of a closed position, recovered from its closes: what
 * the closes traded for minus the realised PnL for a long, plus it for a
 * short (a liquidation closed at the bankruptcy price with PnL −margin fits
 * the same identity).
 */
function closedEntryCost(row: PositionRow, market: ContractMarket): Dec {
  const closedNotional = Dec.parse(row.close_money).mul(market.unit);
  const realised = Dec.parse(row.realised);
  return row.type === 'buy' ? closedNotional.sub(realised) : closedNotional.add(realised);
}

/** A stored optional price as canonical text, '' when none. */
function priceText(text: string | null | undefined): string {
  return text === null || text === undefined ? '' : Dec.parse(text).toString();
}

function percentOf(value: Dec, base: Dec): string {
  return base.isPositive() ? value.mul(HUNDRED).div(base).toFixed(2) : '0.00';
}

function coinsKey(coins: Coins): string {
  return `${coins.tradcoin.toUpperCase()}/${coins.maincoin.toUpperCase()}`;
}
