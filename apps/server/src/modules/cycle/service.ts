import { Dec } from '@halyard/money';
import {
  CODE,
  type CycleHistoryPage,
  type CycleInfo,
  type CyclePairSettings,
  type CyclePosition,
  type CycleSide,
  type CycleTopRow,
  type CycleVoidReason,
  type MarketCoins,
  type MarketRef,
  marketKey,
} from '@halyard/protocol';
import { CYCLE_AMOUNT_DIGITS, CYCLE_CLOCK_TOLERANCE_MS, checkCycleOrder, winIncome } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import type { MoneyEvent } from '../../core/state/index.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { type Ledger, userAccount } from '../../ledger/index.ts';
import type { MarketModule } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { OwnEvents } from '../../money-core/submit.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import type { Db, Trx } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import type { ReferralFees } from '../referral/index.ts';
import { CoreSettlement } from './core-settlement.ts';
import { demoCyclePairs } from './demo.ts';
import { cycleLeverRows, cyclePairColumns, cycleSettingsOf, requireValidCycleSettings } from './settings.ts';
import {
  type CycleSettlement,
  ratesOf,
  type SettledOrder,
  SettlementEngine,
  stakePayment,
} from './settlement.ts';
import {
  insertMissingPairs,
  insertOrder,
  insertPair,
  type LeverRow,
  type OrderWithSettlement,
  type PairRow,
  replacePairSettings,
  selectHistoryPage,
  selectLatestSettled,
  selectPairs,
  selectUserOrder,
} from './store.ts';

/** A pair as the routes name it. */
export interface Coins {
  tradcoin: string;
  maincoin: string;
}

export interface CycleOrderInput extends Coins {
  side: CycleSide;
  /** The stake, as typed. */
  number: string;
  paycoin: string;
  /** Duration in seconds. */
  lever: number;
}

/** Spec §9: top orders show the latest 20. */
export const TOP_ORDERS = 20;

export interface CycleServiceOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  market: MarketModule;
  publisher: Publisher;
  /** Phone area codes (digits, e.g. "44") whose users may not trade cycle contracts. */
  refusedAreaCodes: readonly string[];
  /** Referral commissions on the wins' fees (modules/referral). */
  referral: ReferralFees;
  /**
   * The sequenced core, when the contracts run on it (issue 19's cut-over,
   * which tests drive until every money module is on it): orders and
   * settlements go to the money state (cycleOpen, cycleSettle) instead of SQL.
   */
  core?: MoneyCoreHandle;
  /** On the core: before a user's order, the referral profile its fees read reaches the state (ReferralOnCore.beforeFee). */
  beforeFee?: (userId: number) => Promise<void>;
}

interface ListedPair {
  pair: PairRow;
  levers: LeverRow[];
}

/**
 * Cycle contracts (spec §7 "Cycle"): the pairs and their duration options,
 * accepting an order (stake paid from the user's spot wallet into the
 * stakes account, opening index price recorded), the reads, and the
 * pushes. Settlement is the {@link SettlementEngine}'s alone, or on the
 * sequenced core the money state's ({@link CoreSettlement}); it keeps the
 * open orders, so the positions are read from it.
 *
 * Stakes come from the spot wallet: the spec's balance pages show spot,
 * futures and fiat assets and offer no cycle wallet or transfer into one, so
 * money in a cycle wallet could be neither seen nor topped up.
 */
export class CycleService {
  readonly settlement: CycleSettlement;
  /** The SQL path's engine, which takes each order accepted; null on the core, whose state holds them. */
  private readonly engine: SettlementEngine | null;
  private readonly pairs = new Map<string, ListedPair>();
  /** On the core: the orders the users' contracts open, which their replies show. */
  private readonly opened: OwnEvents<CycleOrderOpened> | null;

  constructor(private readonly options: CycleServiceOptions) {
    const { core, db, clock, market } = options;
    this.opened = core ? new OwnEvents(core, isCycleOrderOpened) : null;
    if (core) {
      this.engine = null;
      this.settlement = new CoreSettlement({ core, db, clock, index: market.index });
    } else {
      this.engine = new SettlementEngine({
        db,
        ledger: options.ledger,
        clock,
        index: market.index,
        referral: options.referral,
      });
      this.settlement = this.engine;
    }
  }

  /** (Re)reads the pairs and their durations; the map is swapped only once read, so no order sees it empty. */
  async load(): Promise<void> {
    const listed = await selectPairs(this.options.db);
    this.pairs.clear();
    for (const entry of listed) this.pairs.set(coinsKey(entry.pair), entry);
  }

  // ── the back office (issue 18) ─────────────────────────────────────────

  /** Every pair with the settings an operator edits. */
  pairSettings(): Array<{ id: number } & MarketCoins & CyclePairSettings> {
    return [...this.pairs.values()].map(({ pair, levers }) => ({
      id: pair.autoid,
      tradcoin: pair.tradcoin,
      maincoin: pair.maincoin,
      ...cycleSettingsOf(pair, levers),
    }));
  }

  /**
   * New settings of a pair (its durations replaced; none closes it), live
   * for the next order: an order already accepted keeps the terms it was
   * accepted with. Answers the settings before and after.
   */
  async changePairSettings(
    id: number,
    settings: CyclePairSettings,
  ): Promise<{ before: CyclePairSettings; after: CyclePairSettings }> {
    const listed = [...this.pairs.values()].find(({ pair }) => pair.autoid === id);
    if (!listed) throw notFound('markets.notFound');
    requireValidCycleSettings(settings);
    const before = cycleSettingsOf(listed.pair, listed.levers);
    // Settings move no money: their own transaction, not the ledger's (which the core does not take).
    await this.options.db
      .transaction()
      .execute((trx) => replacePairSettings(trx, id, cyclePairColumns(settings), cycleLeverRows(settings)));
    await this.load();
    const after = this.listed(listed.pair);
    return { before, after: cycleSettingsOf(after.pair, after.levers) };
  }

  /** Checks a new pair: its coins and settings, and that it is not listed yet. */
  checkListing(coins: MarketCoins, settings: CyclePairSettings): void {
    requireValidCycleSettings(settings, coins);
    if (this.pairs.has(coinsKey(coins))) throw conflict('markets.exists');
  }

  /** Writes a new pair in the caller's transaction (an approved listing); `load()` after the commit opens it. */
  async insertListing(trx: Trx, coins: MarketCoins, settings: CyclePairSettings): Promise<number> {
    this.checkListing(coins, settings);
    const pair = { tradcoin: coins.tradcoin, maincoin: coins.maincoin, ...cyclePairColumns(settings) };
    return insertPair(trx, pair, cycleLeverRows(settings));
  }

  /** Demo seed (idempotent): the demo pairs. The house is the treasury, which needs no funding. */
  async seedDemo(): Promise<void> {
    await insertMissingPairs(this.options.db, demoCyclePairs(this.options.market.index.quote));
    await this.load();
  }

  // ── orders ──────────────────────────────────────────────────────────────

  /**
   * Accepts an up (buy) or down (sell) contract: the option must exist, the
   * account be neither frozen nor in a refused region, then the spec §5 checks
   * (bound email first). The stake moves to the stakes account (a contract
   * cannot be cancelled: it is paid when opened, like an option's premium) and
   * the opening index price, its time and source are stored with the order,
   * in one transaction; on the core, by the money state (`openOnCore`).
   */
  async place(userId: number, input: CycleOrderInput): Promise<CyclePosition> {
    const { pair, levers } = this.listed(input);
    if (!pair.paycoins.split(',').includes(input.paycoin)) {
      throw badRequest('cycle.payCoinNotAccepted', { coin: input.paycoin });
    }
    const lever = levers.find((option) => option.seconds === input.lever);
    if (!lever) throw badRequest('cycle.durationNotOffered', { seconds: input.lever });
    await this.options.identity.assertNotFrozen(userId);
    const user = await this.options.identity.getUser(userId);
    if (user.areaCode !== null && this.options.refusedAreaCodes.includes(user.areaCode)) {
      throw forbidden('cycle.regionRefused');
    }
    if (this.engine === null) return this.openOnCore(this.opened!, userId, user.email, pair, lever, input);
    const account = { ...userAccount(userId, 'spot'), asset: input.paycoin };
    const usable = (await this.options.ledger.balance(account)).available;
    const refusal = checkCycleOrder({
      quantity: input.number,
      usable: usable.toString(),
      min: lever.minnumber,
      max: lever.maxnumber,
      email: user.email,
    });
    if (refusal) throw badRequest(refusal.key, refusal.params);
    const stake = Dec.parse(input.number);
    if (!stake.hasAtMostDigits(CYCLE_AMOUNT_DIGITS))
      throw badRequest('rules.tooManyDecimals', { digits: CYCLE_AMOUNT_DIGITS });
    if (this.settlement.full) throw new AppError('cycle.busy', {}, 429);
    const open = this.freshTick(pair);
    const now = this.options.clock.now();
    const order = await this.options.ledger.transaction(async (trx) => {
      const row = await insertOrder(trx, {
        user_id: userId,
        pair_id: pair.autoid,
        tradcoin: pair.tradcoin,
        maincoin: pair.maincoin,
        paycoin: input.paycoin,
        type: input.side,
        number: stake.toString(),
        seconds: lever.seconds,
        profit_gas: lever.profit_gas,
        loss_gas: lever.loss_gas,
        gas: lever.gas,
        open_price: open.price.toString(),
        open_ts: open.ts,
        open_source: open.source,
        wdate: now,
        expires_at: now + lever.seconds * 1000,
      });
      await this.options.ledger.execute([stakePayment(row)], trx);
      return row;
    });
    this.engine.opened(order);
    return positionView({ order, settlement: null });
  }

  /**
   * An order on the sequenced core: the state makes the spec §5 checks and
   * pays the stake in (cycleOpen, the SQL path's rules), and the edge stamps
   * what the state cannot read: the time, the option's terms and the opening
   * tick. The tick is read before the state's checks (after them on the SQL
   * path): an order both refused and without a fresh price is answered for
   * the price. Answered as soon as it is durable, with the order it wrote
   * (the row the projector will insert): the user's next request waits until
   * SQL holds it.
   */
  private async openOnCore(
    opened: OwnEvents<CycleOrderOpened>,
    userId: number,
    email: string | null,
    pair: PairRow,
    lever: LeverRow,
    input: CycleOrderInput,
  ): Promise<CyclePosition> {
    await this.options.beforeFee?.(userId);
    const open = this.freshTick(pair);
    const { events } = await opened.submit(
      userId,
      {
        kind: 'cycleOpen',
        at: this.options.clock.now(),
        userId,
        email,
        pairId: pair.autoid,
        tradcoin: pair.tradcoin,
        maincoin: pair.maincoin,
        paycoin: input.paycoin,
        side: input.side,
        number: input.number,
        seconds: lever.seconds,
        minnumber: lever.minnumber,
        maxnumber: lever.maxnumber,
        profitGas: lever.profit_gas,
        lossGas: lever.loss_gas,
        gas: lever.gas,
        openPrice: open.price.toString(),
        openTs: open.ts,
        openSource: open.source,
      },
      REFUSAL_CODES,
    );
    const [accepted] = events;
    if (!accepted) throw new Error('cycle: the order command wrote no order');
    return positionView({ order: accepted.order, settlement: null });
  }

  /**
   * The opening price: the latest recorded index tick, refused when there is
   * none or it is older than the spec's 5 s clock tolerance (a stalled feed
   * would let someone bet on a move that already happened).
   */
  private freshTick(pair: PairRow) {
    const { index } = this.options.market;
    const tick = index.quote === pair.maincoin ? index.current(pair.tradcoin) : null;
    if (!tick || this.options.clock.now() - tick.ts > CYCLE_CLOCK_TOLERANCE_MS) {
      throw badRequest('cycle.priceUnavailable');
    }
    return tick;
  }

  // ── reads ───────────────────────────────────────────────────────────────

  symbols(): CycleInfo[] {
    return [...this.pairs.values()].map((listed) => this.infoOf(listed));
  }

  info(coins: Coins): CycleInfo {
    return this.infoOf(this.listed(coins));
  }

  /** Open contracts waiting for their settlement, and whether new ones must wait (the back office's dashboard). */
  workload(): { openOrders: number; full: boolean } {
    return { openOrders: this.settlement.openCount, full: this.settlement.full };
  }

  positions(userId: number, coins: Coins | null): CyclePosition[] {
    const pairId = coins ? this.listed(coins).pair.autoid : null;
    return this.settlement.openOf(userId, pairId).map((order) => positionView({ order, settlement: null }));
  }

  /** The user's order by id, as a one-item list (spec: positionById returns a data list). */
  async positionById(userId: number, orderid: number): Promise<CyclePosition[]> {
    const found = await selectUserOrder(this.options.db, userId, orderid);
    if (!found) throw notFound('cycle.orderNotFound');
    return [positionView(found)];
  }

  async history(userId: number, coins: Coins | null, page: number, limit: number): Promise<CycleHistoryPage> {
    const pair = coins ? this.listed(coins).pair : null;
    const { rows, count } = await selectHistoryPage(this.options.db, userId, pair, (page - 1) * limit, limit);
    return { list: rows.map(positionView), count, page, limit };
  }

  async topOrders(coins: Coins): Promise<CycleTopRow[]> {
    const rows = await selectLatestSettled(this.options.db, this.listed(coins).pair.autoid, TOP_ORDERS);
    return rows.map(topRow);
  }

  // ── pushes ──────────────────────────────────────────────────────────────

  /** `cycleinfo` of every pair of the coin that just ticked, with `new_date` = the tick's time. */
  publishInfo(coin: string): void {
    for (const listed of this.pairs.values()) {
      if (listed.pair.tradcoin !== coin) continue;
      this.options.publisher.publish({
        type: 'cycleinfo',
        key: marketKey(marketRef(listed.pair)),
        data: this.infoOf(listed),
      });
    }
  }

  /** `cycletop` of each pair that just had orders settled. */
  async publishSettled(settled: readonly SettledOrder[]): Promise<void> {
    const pairIds = new Set(settled.map(({ order }) => order.pair_id));
    for (const listed of this.pairs.values()) {
      if (!pairIds.has(listed.pair.autoid)) continue;
      const data = await this.topOrders(listed.pair);
      this.options.publisher.publish({ type: 'cycletop', key: marketKey(marketRef(listed.pair)), data });
    }
  }

  // ── helpers ─────────────────────────────────────────────────────────────

  private listed(coins: Coins): ListedPair {
    const listed = this.pairs.get(coinsKey(coins));
    if (!listed) throw notFound('cycle.pairNotFound');
    return listed;
  }

  private infoOf({ pair, levers }: ListedPair): CycleInfo {
    const { index, data } = this.options.market;
    const tick = index.quote === pair.maincoin ? index.current(pair.tradcoin) : null;
    const ticker = data.ticker(marketRef(pair));
    const price = tick ? tick.price.toFixed(pair.price_accuracy) : '0';
    // The ticker is built from committed bars, a moment behind the latest tick: the range includes the price.
    const high =
      ticker && tick ? Dec.max(Dec.parse(ticker.high), tick.price).toString() : (ticker?.high ?? price);
    const low =
      ticker && tick ? Dec.min(Dec.parse(ticker.low), tick.price).toString() : (ticker?.low ?? price);
    return {
      autoid: pair.autoid,
      tradcoin: pair.tradcoin,
      maincoin: pair.maincoin,
      price,
      rise: ticker?.rise ?? '0.00',
      high,
      height: high,
      low,
      volume: ticker?.volume ?? '0',
      ts: tick?.ts ?? 0,
      price_accuracy: pair.price_accuracy,
      new_date: tick?.ts ?? 0,
      source: tick?.source ?? index.name,
      limit: pair.paycoins.split(',').map((paycoin) => ({ paycoin })),
      lever: levers.map((lever) => ({
        lever: lever.seconds,
        minnumber: Dec.canonical(lever.minnumber),
        maxnumber: Dec.canonical(lever.maxnumber),
        profitGas: Dec.canonical(lever.profit_gas),
        lossGas: Dec.canonical(lever.loss_gas),
        gas: Dec.canonical(lever.gas),
      })),
    };
  }
}

/** Refusals of the money state answered with another code than 400, as the SQL path answers them. */
const REFUSAL_CODES: ReadonlyMap<string, number> = new Map([['cycle.busy', CODE.tooManyRequests]]);

type CycleOrderOpened = Extract<MoneyEvent, { type: 'cycleOrderOpened' }>;

function isCycleOrderOpened(event: MoneyEvent): event is CycleOrderOpened {
  return event.type === 'cycleOrderOpened';
}

function coinsKey(coins: Coins): string {
  return `${coins.tradcoin.toUpperCase()}/${coins.maincoin.toUpperCase()}`;
}

function marketRef(pair: Coins): MarketRef {
  return { kind: 'cycle', maincoin: pair.maincoin, tradcoin: pair.tradcoin };
}

/** Spec §3 "Cycle position" of an order, with both prices, their times and source (AMENDMENTS A3). */
export function positionView({ order, settlement }: OrderWithSettlement): CyclePosition {
  const stake = Dec.parse(order.number);
  return {
    orderid: String(order.orderid),
    autoid: order.orderid,
    tradcoin: order.tradcoin,
    maincoin: order.maincoin,
    paycoin: order.paycoin,
    type: order.type,
    price: Dec.canonical(order.open_price),
    number: stake.toString(),
    wdate: order.wdate,
    lever: order.seconds,
    profit_gas: Dec.canonical(order.profit_gas),
    loss_gas: Dec.canonical(order.loss_gas),
    gas: Dec.canonical(order.gas),
    income: winIncome(stake, ratesOf(order)).net.toString(),
    last_profit: settlement ? Dec.canonical(settlement.last_profit) : '0',
    state: settlement ? 'settled' : 'open',
    result: settlement?.result ?? null,
    expires_at: order.expires_at,
    open_price: Dec.canonical(order.open_price),
    open_ts: order.open_ts,
    open_source: order.open_source,
    close_price: settlement ? Dec.canonical(settlement.close_price) : null,
    close_ts: settlement?.close_ts ?? null,
    close_source: settlement?.close_source ?? null,
    fee: settlement ? Dec.canonical(settlement.fee) : '0',
    settled_at: settlement?.settled_at ?? null,
    void_reason: voidReasonOf(settlement),
  };
}

function voidReasonOf(settlement: OrderWithSettlement['settlement']): CycleVoidReason | null {
  if (settlement?.result !== 'void' || settlement.void_tolerance_ms === null) return null;
  return { code: 'no_index_price_at_expiry', tolerance_ms: settlement.void_tolerance_ms };
}

/**
 * A settled order on the top-orders board. Its income is what the outcome
 * earned: a win's income after fee, nothing for a loss or a draw (a lost
 * order beside "income 78.40" would say it won).
 */
export function topRow(found: OrderWithSettlement): CycleTopRow {
  const view = positionView(found);
  return {
    wdate: view.settled_at ?? view.wdate,
    type: view.type,
    income: view.result === 'win' ? view.income : '0',
    last_profit: view.last_profit,
  };
}
