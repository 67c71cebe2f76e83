// Over 500 lines as one file: every use-case here reads the same pair maps (by coins and by id) and the
// same checks of traders; splitting them would pass both around.
import { Dec } from '@halyard/money';
import {
  type DepthLevel,
  type Locale,
  type MarketCoins,
  type MarketRef,
  marketKey,
  type SpotPairSettings,
  type SpotSymbolRow,
} from '@halyard/protocol';
import { checkMarketCoins, checkSpotPairSettings, depthRows, SPOT_BOOK_MAX_LEVELS } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { accountKey, type Ledger, systemAccount } from '../../ledger/index.ts';
import type { MarketModule } from '../../market/index.ts';
import { DEMO_COINS } from '../../market/index-price.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { type Publisher, tradePushRow } from '../../realtime/publisher.ts';
import type { Db, Trx } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import type { ReferralFees } from '../referral/index.ts';
import { CorePairMarket } from './core-pair-market.ts';
import { demoPairRows } from './demo-pairs.ts';
import {
  type GroupEffects,
  PairMarket,
  type PairMarketHooks,
  type PlaceOrder,
  type SpotPairMarket,
} from './pair-market.ts';
import { newSpotPairRow, spotRowWith, spotSettingsOf } from './settings.ts';
import { onStatePairsChanged } from './state-pairs.ts';
import {
  insertMissingPairs,
  insertPair,
  type OrderRow,
  type OrderState,
  type PairRow,
  selectOrder,
  selectOrderPage,
  selectPairs,
} from './store.ts';
import { HOUSE_QUOTER, type HOUSE_TAKER, houseTrader, type Trader, userTrader } from './trader.ts';

/** A pair as the routes name it. */
export interface Coins {
  tradcoin: string;
  maincoin: string;
}

export interface OrderInput extends Coins {
  side: 'buy' | 'sell';
  style: 'limit' | 'market';
  /** Limit orders only. */
  price?: string | undefined;
  /** Base amount (spec "number"), for a market buy too. */
  number: string;
}

/** Spec §3 "Open order (spot)" plus the fill totals. */
export interface OrderView {
  autoid: number;
  /** The order number as text (the spec's `id`); cancel takes the autoid. */
  id: string;
  type: 'buy' | 'sell';
  style: 'limit' | 'market';
  /** The limit price; for a market order the average fill price ('0' before any fill). */
  price: string;
  number: string;
  unfilled: string;
  /** Base amount filled, quote amount it traded for, fee paid in `feeCoin` (the coin received). */
  deal_amount: string;
  deal_money: string;
  fee: string;
  feeCoin: string;
  /** Fees paid in HAL instead (fee deduction). */
  feeHal: string;
  wdate: number;
  state: OrderState;
  tradcoin: string;
  maincoin: string;
}

/** Spec §3 "Order book level" with its depth-bar width (spec §9). */
export interface BookLevelView extends DepthLevel {
  /** Percent of the bar, 2 decimals: amount × 800 / total of the side shown, capped at 100. */
  width: string;
}

export interface PageView<T> {
  list: T[];
  count: number;
  page: number;
  limit: number;
}

export interface SpotServiceOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  /** HAL fee deduction and referral commissions, in each fee's transaction. */
  referral: ReferralFees;
  market: MarketModule;
  publisher: Publisher;
  /**
   * The sequenced core, when the pairs run on it (issue 19's cut-over, which
   * tests and benches drive until every money module is on it): orders go to
   * the money state instead of SQL group commits.
   */
  core?: MoneyCoreHandle;
  /** On the core: before a user's order, the referral profile its fees read reaches the state (ReferralOnCore.beforeFee). */
  beforeFee?: (userId: number) => Promise<void>;
  onError: (error: unknown) => void;
}

/** What the treasury gives the house at the demo seed, per asset: enough for 20+ levels a side on every pair. */
const HOUSE_QUOTE_FUNDING = Dec.parse('20000000');
/** Base funding of the house, worth this much quote at the index price of the seed. */
const HOUSE_BASE_FUNDING_VALUE = Dec.parse('5000000');

/**
 * The spot exchange's use-cases (spec §7 "Spot (trad)"): one {@link PairMarket}
 * per listed pair does the writing; this service resolves pairs and traders,
 * runs the identity checks, answers the reads and publishes what each
 * committed group changed.
 */
export class SpotService {
  private readonly markets = new Map<string, SpotPairMarket>();
  private readonly marketsById = new Map<number, SpotPairMarket>();
  /** One load at a time: a listing's, the demo seed's and the pairs' follower's may overlap. */
  private loading: Promise<void> = Promise.resolve();
  private readonly stopFollowing: () => void;

  constructor(private readonly options: SpotServiceOptions) {
    // On the core, a pair listed or changed through any gateway of a cluster opens or changes here too: the store's
    // row is written before the state's pair is replaced (a listing's transaction, CorePairMarket.changeSettings).
    this.stopFollowing = options.core
      ? onStatePairsChanged(options.core, () => void this.load().catch(options.onError))
      : () => {};
  }

  /**
   * Lists the pairs of the store and rebuilds each new pair's book from its
   * open orders; on the core, the settings of the pairs open already are
   * taken from the store again (another gateway may have changed them).
   */
  load(): Promise<void> {
    const loaded = this.loading.catch(() => {}).then(() => this.loadNow());
    this.loading = loaded;
    return loaded;
  }

  private async loadNow(): Promise<void> {
    for (const pair of await selectPairs(this.options.db)) {
      const open = this.marketsById.get(pair.autoid);
      if (open) {
        if (open instanceof CorePairMarket) open.takeSettings(pair);
        continue;
      }
      const market = await this.openMarket(pair);
      this.markets.set(coinsKey(pair), market);
      this.marketsById.set(pair.autoid, market);
    }
  }

  /** Stops following the core (the module's close, after the last command). */
  close(): void {
    this.stopFollowing();
    for (const market of this.marketsById.values()) if (market instanceof CorePairMarket) market.close();
  }

  /** A pair's market, its book rebuilt from the store (SQL) or held by the core. */
  private async openMarket(pair: PairRow): Promise<SpotPairMarket> {
    const hooks: PairMarketHooks = {
      pair,
      db: this.options.db,
      now: () => this.options.clock.now(),
      indexPrice: () => this.indexPrice(pair),
      onCommitted: (effects) => this.publishCommitted(pair, effects),
      onError: this.options.onError,
    };
    const { core, beforeFee } = this.options;
    if (core) return CorePairMarket.open({ ...hooks, core, ...(beforeFee ? { beforeFee } : {}) });
    const market = new PairMarket({ ...hooks, ledger: this.options.ledger, referral: this.options.referral });
    await market.restore();
    return market;
  }

  /** Demo seed (idempotent): the demo pairs, and the house funded from the treasury. */
  async seedDemo(): Promise<void> {
    await insertMissingPairs(this.options.db, demoPairRows());
    await this.load();
    await this.fundHouse();
  }

  pairs(): SpotPairMarket[] {
    return [...this.markets.values()];
  }

  market(coins: Coins): SpotPairMarket {
    const market = this.markets.get(coinsKey(coins));
    if (!market) throw notFound('spot.pairNotFound');
    return market;
  }

  // ── orders ──────────────────────────────────────────────────────────────

  /** A user's order: frozen accounts are refused, then the spec §5 checks (bound email first). */
  async placeForUser(userId: number, input: OrderInput): Promise<OrderView> {
    const market = this.market(input);
    await this.options.identity.assertNotFrozen(userId);
    const email = await this.options.identity.boundEmail(userId);
    return this.place(market, userTrader(userId), email, input);
  }

  /** The market maker's order, through the same queue, checks, holds and settlement as a user's. */
  async placeForHouse(role: typeof HOUSE_QUOTER | typeof HOUSE_TAKER, input: OrderInput): Promise<OrderView> {
    return this.place(this.market(input), houseTrader(role), HOUSE_EMAIL, input);
  }

  private async place(market: SpotPairMarket, trader: Trader, email: string | null, input: OrderInput) {
    if (market.pair.state !== 1) throw badRequest('spot.pairClosed');
    const command: PlaceOrder = {
      kind: 'place',
      trader,
      email,
      side: input.side,
      style: input.style,
      price: input.price,
      amount: input.number,
    };
    const { orders } = await market.submit(command);
    return this.view(market.pair, orders[0]!);
  }

  /** Cancels one of the user's open orders by autoid; another user's order reads as not found. */
  async cancelForUser(userId: number, autoid: number): Promise<OrderView> {
    const row = await selectOrder(this.options.db, autoid);
    if (!row || row.user_id !== userId || row.owner !== String(userId)) throw notFound('spot.orderNotFound');
    return this.cancel(userTrader(userId), row);
  }

  async cancelForHouse(row: OrderRow): Promise<OrderView> {
    return this.cancel(houseTrader(HOUSE_QUOTER), row);
  }

  private async cancel(trader: Trader, row: OrderRow): Promise<OrderView> {
    const market = this.marketsById.get(row.pair_id)!;
    const { orders } = await market.submit({ kind: 'cancel', trader, autoid: row.autoid });
    return this.view(market.pair, orders[0]!);
  }

  /** Cancels every open order of the user, in one pair or in all; answers the cancelled orders. */
  async cancelAllForUser(userId: number, coins: Coins | null): Promise<OrderView[]> {
    const markets = coins ? [this.market(coins)] : this.pairs();
    const trader = userTrader(userId);
    const results = await Promise.all(
      markets.map(async (market) => {
        const { orders } = await market.submit({ kind: 'cancelAll', trader });
        return orders.map((row) => this.view(market.pair, row));
      }),
    );
    return results.flat();
  }

  // ── reads ───────────────────────────────────────────────────────────────

  /** Spec §3 "Market pair (spot)" of every pair; favourites (isOptional) are kept by the browser. */
  symbols(): SpotSymbolRow[] {
    return this.pairs().map((market) => this.symbolRow(market));
  }

  /** The home screen's overview: the pairs open for trading. */
  overview(): SpotSymbolRow[] {
    return this.symbols().filter((row) => row.state === 1);
  }

  /** GET /trad/trad: the pair's info and its book, 20 levels a side with bar widths. */
  trad(coins: Coins) {
    const market = this.market(coins);
    const depth = market.depth();
    const ticker = this.options.market.data.ticker(marketRef(market.pair));
    return {
      info: {
        ...this.symbolRow(market),
        maxnumber: Dec.canonical(market.pair.maxnumber),
        maker_fee: Dec.canonical(market.pair.maker_fee),
        taker_fee: Dec.canonical(market.pair.taker_fee),
        high: ticker?.high ?? '0',
        low: ticker?.low ?? '0',
      },
      buy: depthRows(depth.bids, SPOT_BOOK_MAX_LEVELS),
      sell: depthRows(depth.asks, SPOT_BOOK_MAX_LEVELS),
      top: market.latestTrades().map(toTradePush),
    };
  }

  introduction(coins: Coins, locale: Locale) {
    const { pair } = this.market(coins);
    const texts = JSON.parse(pair.introduction) as Partial<Record<Locale, string>>;
    return { tradcoin: pair.tradcoin, maincoin: pair.maincoin, content: texts[locale] ?? texts.en ?? '' };
  }

  /** GET /trad/tradAccount: usable balances of both coins and the user's open orders in the pair. */
  async tradAccount(userId: number, coins: Coins) {
    const market = this.market(coins);
    const account = userTrader(userId).account;
    const [main, trade] = await Promise.all([
      this.options.ledger.balance(accountKey(account, market.pair.maincoin)),
      this.options.ledger.balance(accountKey(account, market.pair.tradcoin)),
    ]);
    return {
      balance: { mainusable: main.available.toString(), tradusable: trade.available.toString() },
      entrust_order: market
        .openOrdersOf(String(userId))
        .reverse()
        .map((row) => this.view(market.pair, row)),
    };
  }

  /** Open orders (entrustOrder) or finished ones (entrustHistory), newest first, optionally of one pair. */
  async orderPage(
    userId: number,
    open: boolean,
    coins: Coins | null,
    page: number,
    limit: number,
  ): Promise<PageView<OrderView>> {
    const pairId = coins ? this.market(coins).pair.autoid : undefined;
    const { rows, count } = await selectOrderPage(
      this.options.db,
      { userId, open, pairId },
      (page - 1) * limit,
      limit,
    );
    const list = rows.map((row) => this.view(this.marketsById.get(row.pair_id)!.pair, row));
    return { list, count, page, limit };
  }

  /** Per pair: commands waiting in its write queue and orders resting in its book (the back office's dashboard). */
  workload(): { pair: string; queued: number; openOrders: number }[] {
    return this.pairs().map((market) => ({
      pair: `${market.pair.tradcoin}/${market.pair.maincoin}`,
      ...market.workload(),
    }));
  }

  /** Waits until every pair's queue is empty (shutdown, tests). */
  async idle(): Promise<void> {
    await Promise.all(this.pairs().map((market) => market.idle()));
  }

  /** The periodic broadcast of both pair lists (spec: `overview`, `symbols`). */
  publishLists(): void {
    this.options.publisher.publish({ type: 'overview', data: this.overview() });
    this.options.publisher.publish({ type: 'symbols', data: this.symbols() });
  }

  // ── the back office (issue 18) ─────────────────────────────────────────

  /** Every pair with the settings an operator edits. */
  pairSettings(): Array<{ id: number } & MarketCoins & SpotPairSettings> {
    return this.pairs().map(({ pair }) => ({
      id: pair.autoid,
      tradcoin: pair.tradcoin,
      maincoin: pair.maincoin,
      ...spotSettingsOf(pair),
    }));
  }

  /**
   * New settings of a pair, queued like an order so they apply between two
   * commands, live for the next one; answers the settings before and after.
   */
  async changePairSettings(
    id: number,
    settings: SpotPairSettings,
  ): Promise<{ before: SpotPairSettings; after: SpotPairSettings }> {
    const market = this.marketsById.get(id);
    if (!market) throw notFound('markets.notFound');
    const refused = checkSpotPairSettings(settings);
    if (refused) throw badRequest(refused.key, refused.params);
    const before = spotSettingsOf(market.pair);
    await market.submit({ kind: 'settings', pair: spotRowWith(market.pair, settings) });
    return { before, after: spotSettingsOf(market.pair) };
  }

  /** Checks a new pair: its coins and settings, and that it is not listed yet. */
  checkListing(coins: MarketCoins, settings: SpotPairSettings): void {
    const refused = checkMarketCoins(coins) ?? checkSpotPairSettings(settings);
    if (refused) throw badRequest(refused.key, refused.params);
    if (this.markets.has(coinsKey(coins))) throw conflict('markets.exists');
  }

  /** Writes a new pair in the caller's transaction (an approved listing); `load()` after the commit opens it. */
  async insertListing(trx: Trx, coins: MarketCoins, settings: SpotPairSettings): Promise<number> {
    this.checkListing(coins, settings);
    return insertPair(trx, newSpotPairRow(coins, settings));
  }

  // ── helpers ─────────────────────────────────────────────────────────────

  private symbolRow(market: SpotPairMarket): SpotSymbolRow {
    const { pair } = market;
    const ticker = this.options.market.data.ticker(marketRef(pair));
    const depth = market.depth();
    return {
      autoid: pair.autoid,
      tradcoin: pair.tradcoin,
      maincoin: pair.maincoin,
      price: (market.latestPrice() ?? Dec.ZERO).toFixed(pair.price_accuracy),
      rise: ticker?.rise ?? '0.00',
      volume: ticker?.volume ?? '0',
      state: pair.state,
      plate: pair.plate,
      minnumber: Dec.canonical(pair.minnumber),
      price_accuracy: pair.price_accuracy,
      amount_accuracy: pair.amount_accuracy,
      buyprice: depth.bestBid?.toString() ?? '0',
      sellprice: depth.bestAsk?.toString() ?? '0',
      unit: pair.unit,
      isOptional: false,
    };
  }

  view(pair: PairRow, row: OrderRow): OrderView {
    const dealAmount = Dec.parse(row.deal_amount);
    const averagePrice = dealAmount.isPositive()
      ? Dec.parse(row.deal_money).div(dealAmount).floorTo(pair.price_accuracy)
      : Dec.ZERO;
    return {
      autoid: row.autoid,
      id: String(row.autoid),
      type: row.type,
      style: row.style,
      price: row.price === null ? averagePrice.toString() : Dec.canonical(row.price),
      number: Dec.canonical(row.number),
      unfilled: Dec.canonical(row.unfilled),
      deal_amount: dealAmount.toString(),
      deal_money: Dec.canonical(row.deal_money),
      fee: Dec.canonical(row.fee),
      feeCoin: row.type === 'buy' ? pair.tradcoin : pair.maincoin,
      feeHal: Dec.canonical(row.fee_hal),
      wdate: row.wdate,
      state: row.state,
      tradcoin: pair.tradcoin,
      maincoin: pair.maincoin,
    };
  }

  private indexPrice(pair: PairRow): Dec | null {
    const { index } = this.options.market;
    if (index.quote !== pair.maincoin) return null;
    return index.current(pair.tradcoin)?.price ?? null;
  }

  /**
   * The treasury mints the house's play money once per store (the transfer ids
   * are fixed, so a restart's seed is answered, not repeated).
   */
  private async fundHouse(): Promise<void> {
    const house = systemAccount('market_maker');
    const treasury = systemAccount('treasury');
    const quote = this.options.market.index.quote;
    const batch = [
      {
        id: `spot:house-funding:${quote}`,
        debit: treasury,
        credit: house,
        asset: quote,
        amount: HOUSE_QUOTE_FUNDING,
        code: 'demo_funding',
      },
    ];
    for (const market of this.pairs()) {
      const { pair } = market;
      const start = demoStartPrice(pair.tradcoin);
      if (pair.maincoin !== quote || start === null) continue;
      const amount = HOUSE_BASE_FUNDING_VALUE.div(start).floorTo(pair.amount_accuracy);
      batch.push({
        id: `spot:house-funding:${pair.tradcoin}`,
        debit: treasury,
        credit: house,
        asset: pair.tradcoin,
        amount,
        code: 'demo_funding',
      });
    }
    await this.options.ledger.execute(batch);
  }

  private publishCommitted(pair: PairRow, effects: GroupEffects): void {
    const { publisher, market } = this.options;
    const ref = marketRef(pair);
    const key = marketKey(ref);
    publisher.publish({ type: 'buy', key, data: depthRows(effects.depth.bids, SPOT_BOOK_MAX_LEVELS) });
    publisher.publish({ type: 'sell', key, data: depthRows(effects.depth.asks, SPOT_BOOK_MAX_LEVELS) });
    if (effects.trades.length === 0) return;
    // On the core the projector charts the trades (market/kline-writer.ts).
    if (market.data.recordsPrints)
      market.data.recordTrades(
        ref,
        effects.trades.map((trade) => ({
          price: Dec.parse(trade.price),
          amount: Dec.parse(trade.amount),
          ts: trade.wdate,
        })),
      );
    const top = this.marketsById.get(pair.autoid)?.latestTrades() ?? [];
    publisher.publish({ type: 'top', key, data: top.map(toTradePush) });
  }
}

/** The email the house's orders carry through the spec checks: it is no person and has nothing to bind. */
const HOUSE_EMAIL = 'market-maker@halyard.local';

function demoStartPrice(coin: string): Dec | null {
  const found = DEMO_COINS.find((demo) => demo.coin === coin);
  return found ? Dec.parse(found.startPrice) : null;
}

function coinsKey(coins: Coins): string {
  return `${coins.tradcoin.toUpperCase()}/${coins.maincoin.toUpperCase()}`;
}

function marketRef(pair: PairRow): MarketRef {
  return { kind: 'trad', maincoin: pair.maincoin, tradcoin: pair.tradcoin };
}

const toTradePush = (trade: { price: string; amount: string; taker_side: 'buy' | 'sell'; wdate: number }) =>
  tradePushRow({ price: trade.price, amount: trade.amount, takerSide: trade.taker_side, wdate: trade.wdate });
