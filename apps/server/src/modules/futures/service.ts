// The one face of the futures module: every use-case the routes call, each
// a few lines around a command to the engine (FuturesEngine on SQL,
// CoreFutures on the sequenced core) or a read; its answers take the shapes
// of views.ts. Just over 500 lines as one file: the use-cases share the
// contract lookups and the checks before each command, and a split would
// pass those between files rather than make any use-case shorter.
import { Dec } from '@halyard/money';
import type { FuturesContractSettings, FuturesSymbolRow, MarketCoins } from '@halyard/protocol';
import { depthRows } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import { unrealisedPnl } from '../../core/state/futures-margin.ts';
import type { TdMode } from '../../core/state/futures-rows.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { type Ledger, userAccount } from '../../ledger/index.ts';
import type { IndexTick, MarketModule } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { Db, Trx } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import type { ReferralFees } from '../referral/index.ts';
import { demoContractRows, demoFundingTransfers } from './contracts.ts';
import { CoreFutures } from './core-futures.ts';
import {
  type ContractMarket,
  FuturesEngine,
  HOUSE_TAKER_TRADER,
  HOUSE_TRADER,
  type OpenCommand,
  userTrader,
} from './engine.ts';
import { FUTURES_BOOK_ROWS, marketRef, publishCommitted, toTradePush } from './publish.ts';
import {
  type FuturesListing,
  futuresRowWith,
  futuresSettingsOf,
  newContractRow,
  requireValidListing,
  requireValidSettings,
} from './settings.ts';
import {
  insertContract,
  insertMissingContracts,
  selectClosedPositionPage,
  selectContract,
  selectEntrustPage,
} from './store.ts';
import {
  type EntrustView,
  type FuturesExposureView,
  FuturesViews,
  type PageView,
  type PositionView,
  type TriggerView,
} from './views.ts';
import type { CommittedEffects, FuturesWriter } from './writer.ts';

// The service answers in these shapes.
export type { EntrustView, FuturesExposureView, PageView, PositionView, TriggerView } from './views.ts';

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
  /** The sequenced core: with it, the commands and marks go to the money state (core-futures.ts). */
  core?: MoneyCoreHandle | undefined;
  /** On the core: see CoreFuturesOptions.beforeFee. */
  beforeFee?: (userId: number) => Promise<void>;
  onError: (error: unknown) => void;
}

/**
 * The futures use-cases (spec §7 "Contract"): resolves contracts and users,
 * runs identity checks, sends commands to the {@link FuturesEngine}, answers
 * the reads and publishes what each committed group changed.
 */
export class FuturesService {
  /** The SQL engine, or the same face on the sequenced core (with `core`). */
  readonly engine: FuturesWriter;
  private readonly views: FuturesViews;
  private readonly byCoins = new Map<string, number>();
  private readonly detach: () => void;

  constructor(private readonly options: FuturesServiceOptions) {
    const onCommitted = (effects: CommittedEffects) =>
      publishCommitted(effects, {
        markets: this.engine,
        publisher: options.publisher,
        data: options.market.data,
      });
    const shared = {
      db: options.db,
      now: () => options.clock.now(),
      fundingIntervalMs: options.fundingIntervalMs,
      onCommitted,
      onError: options.onError,
    };
    if (options.core) {
      const { beforeFee } = options;
      const onCore = new CoreFutures({ ...shared, core: options.core, ...(beforeFee ? { beforeFee } : {}) });
      this.engine = onCore;
      this.detach = () => onCore.close();
    } else {
      this.engine = new FuturesEngine({ ...shared, ledger: options.ledger, referral: options.referral });
      this.detach = () => {};
    }
    this.views = new FuturesViews(this.engine, options.market.data);
  }

  async load(): Promise<void> {
    await this.engine.restore();
    this.byCoins.clear();
    for (const market of this.engine.markets.values()) {
      this.byCoins.set(coinsKey(market.contract), market.contract.autoid);
      const tick = this.options.market.index.current(market.contract.tradcoin);
      if (tick) await this.engine.startMark(tick.coin, tick.price);
    }
  }

  /** Demo seed (idempotent): the demo contracts, the house and the insurance fund funded by the treasury. */
  async seedDemo(): Promise<void> {
    const quote = this.options.market.index.quote;
    await insertMissingContracts(this.options.db, demoContractRows(quote));
    await this.load();
    await this.options.ledger.execute(demoFundingTransfers(quote));
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
      // On the core the tick reaches the state as `indexPrices`, which the projector charts.
      if (this.options.market.data.recordsPrints)
        this.options.market.data.recordPrice(marketRef(market), tick.price, tick.ts);
    }
    return this.engine.applyMark(tick.coin, tick.price);
  }

  /**
   * The id of the contract of these coins. A contract the engine holds that
   * the map does not is one listed since through another gateway of a
   * cluster (on the core the state holds every contract): the map is built
   * again from the engine's then.
   */
  private contractId(coins: Coins): number | undefined {
    const key = coinsKey(coins);
    if (!this.byCoins.has(key) && this.byCoins.size !== this.engine.markets.size)
      for (const { contract } of this.engine.markets.values())
        this.byCoins.set(coinsKey(contract), contract.autoid);
    return this.byCoins.get(key);
  }

  contract(coins: Coins): ContractMarket {
    const id = this.contractId(coins);
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
      unit: Dec.canonical(contract.unit),
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
    if (this.contractId(listing) !== undefined) throw conflict('markets.exists');
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
    return this.views.entrust(result.orders[0]!);
  }

  async placeForHouse(input: FuturesOrderInput): Promise<EntrustView> {
    const market = this.contract(input);
    const result = await this.engine.submit(this.openCommand(HOUSE_TRADER, market, input));
    return this.views.entrust(result.orders[0]!);
  }

  /** The house's crossing role's order (demo mode): it meets the house's own quotes, so trades print. */
  async crossForHouse(input: FuturesOrderInput): Promise<EntrustView> {
    const market = this.contract(input);
    const result = await this.engine.submit(this.openCommand(HOUSE_TAKER_TRADER, market, input));
    return this.views.entrust(result.orders[0]!);
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
    return result.orders.filter((row) => row.autoid === autoid).map((row) => this.views.entrust(row));
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
    return this.views.position(row, Dec.ZERO);
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
    return this.views.trigger(result.triggers[0]!);
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
    return this.views.trigger(result.triggers[0]!);
  }

  // ── reads ───────────────────────────────────────────────────────────────

  /** Spec §3 "Futures pair" of every contract. */
  symbols(): FuturesSymbolRow[] {
    return [...this.engine.markets.values()].map((market) => this.views.symbol(market));
  }

  /** GET /contract/contract: the contract's info and its book, 7 rows a side. */
  info(coins: Coins) {
    const market = this.contract(coins);
    const ticker = this.options.market.data.ticker(marketRef(market));
    const mark = this.engine.markOf(market.contract.autoid);
    return {
      info: {
        ...this.views.symbol(market),
        levers: market.levers,
        mark_price: mark?.toString() ?? '0',
        initial_margin_rate: Dec.canonical(market.contract.initial_margin_rate),
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
      entrust_order: entrusts.map((row) => this.views.entrust(row)),
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
    return rows.map((row) => this.views.position(row, free));
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
    return { list: rows.map((row) => this.views.entrust(row)), count, page, limit };
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
    return { list: rows.map((row) => this.views.position(row, Dec.ZERO)), count, page, limit };
  }

  /** Active TP/SL orders of the user, of one position when given. */
  triggers(userId: number, positionId: number | null): TriggerView[] {
    return [...this.engine.triggers.values()]
      .filter((row) => row.user_id === userId && (positionId === null || row.position_id === positionId))
      .map((row) => this.views.trigger(row));
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

  /** Stops following the core's events (on SQL, nothing to stop). */
  close(): void {
    this.detach();
  }

  /** The periodic broadcast of the contract list (spec: `consymbols`). */
  publishSymbols(): void {
    this.options.publisher.publish({ type: 'consymbols', data: this.symbols() });
  }
}

function coinsKey(coins: Coins): string {
  return `${coins.tradcoin.toUpperCase()}/${coins.maincoin.toUpperCase()}`;
}
