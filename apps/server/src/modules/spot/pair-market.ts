// One file (over 500 lines): a pair's queue, book, open-order cache and settlement
// share private state that one group changes together and a rollback rebuilds
// together; fee settlement and commissions live in fees.ts.
import {
  type BookEvent,
  type DepthSnapshot,
  OrderBook,
  type PairPrecision,
  type TradeEvent,
} from '@halyard/matching';
import { Dec } from '@halyard/money';
import {
  heldAssetOf,
  holdOf,
  isRefusal,
  planSpotOrder,
  releaseOf,
  tradeLegs,
} from '../../core/state/spot-legs.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { type AccountKey, accountKey, type Ledger } from '../../ledger/index.ts';
import type { Executor } from '../../store/database.ts';
import type { ReferralFees } from '../referral/index.ts';
import { settleFees } from './fees.ts';
import { GroupWork } from './group.ts';
import { type CommittedTrade, DEPTH_LEVELS, PairTape, TOP_TRADES } from './pair-tape.ts';
import {
  type OrderRow,
  type OrderState,
  type PairRow,
  selectLatestTrades,
  selectOpenOrdersOfPair,
  selectPair,
  type TradeRow,
  updatePairSettings,
} from './store.ts';
import { type Trader, traderOf } from './trader.ts';

/** Commands waiting in one pair's queue, at most; beyond it orders are refused with `spot.busy`. */
export const QUEUE_MAX = 10_000;
/** Queued commands committed together in one transaction, at most (group commit). */
export const GROUP_MAX = 64;

export interface PlaceOrder {
  kind: 'place';
  trader: Trader;
  /** The trader's bound email (spec §5: none means refused); the house passes its own. */
  email: string | null;
  side: 'buy' | 'sell';
  style: 'limit' | 'market';
  /** Limit only, as typed. */
  price?: string | undefined;
  /** Base amount, as typed; for a market buy too (spec: "amount"). */
  amount: string;
}

export interface CancelOrder {
  kind: 'cancel';
  trader: Trader;
  autoid: number;
}

export interface CancelAllOrders {
  kind: 'cancelAll';
  trader: Trader;
}

/**
 * New settings of the pair (the back office): queued like an order, so they
 * apply between two commands and never in the middle of one, and written in
 * the group's transaction. The precision may change only while the book is
 * empty: resting orders are on the old tick.
 */
export interface ChangeSettings {
  kind: 'settings';
  pair: PairRow;
}

export type SpotCommand = PlaceOrder | CancelOrder | CancelAllOrders | ChangeSettings;

/** What a committed command answers: the orders it created or ended, as stored after commit. */
export interface CommandResult {
  orders: OrderRow[];
}

/** What one committed group changed, for the pushes that follow it. */
export interface GroupEffects {
  trades: CommittedTrade[];
  depth: DepthSnapshot;
}

/**
 * One spot pair as SpotService drives it: {@link PairMarket} writes through
 * SQL group commits; CorePairMarket (core-pair-market.ts) submits to the
 * sequenced core (docs/core.md, "The cut-over").
 */
export interface SpotPairMarket {
  readonly pair: PairRow;
  /** Queues a command; answers once it is durable, with the orders it created or ended. */
  submit(command: SpotCommand): Promise<CommandResult>;
  /** Resolves once every command taken so far is written (shutdown, tests). */
  idle(): Promise<void>;
  /** The book as of the last durable command, best first, up to 20 levels a side. */
  depth(): DepthSnapshot;
  /** The latest trades, newest first. */
  latestTrades(): readonly CommittedTrade[];
  /** Last trade price, else the index price; null when neither is known. */
  latestPrice(): Dec | null;
  /** Commands waiting, and orders resting in the book (the back office's dashboard). */
  workload(): { queued: number; openOrders: number };
  /** The open orders of one owner in this pair, oldest first. */
  openOrdersOf(owner: string): OrderRow[];
}

/** What SpotService gives a pair's market on either path (PairMarket here, CorePairMarket on the core). */
export interface PairMarketHooks {
  pair: PairRow;
  db: Executor;
  now: () => number;
  /** The index price of the trade coin, when one is known: the last resort for a market order's cost. */
  indexPrice: () => Dec | null;
  /** Called after each durable write that touched the pair (pushes); must not throw. */
  onCommitted: (effects: GroupEffects) => void;
  onError: (error: unknown) => void;
}

export interface PairMarketOptions extends PairMarketHooks {
  ledger: Ledger;
  /** Fees in HAL and referral commissions, paid in the fee's own transaction. */
  referral: ReferralFees;
}

interface Job {
  command: SpotCommand;
  resolve(result: CommandResult): void;
  reject(error: unknown): void;
}

/** A place command after the checks: exact values, ready to write. */
interface PlacePlan {
  command: PlaceOrder;
  price: Dec | null;
  amount: Dec;
  /** Quote for a buy, base for a sell. */
  hold: Dec;
}

type Plan =
  | ({ kind: 'place' } & PlacePlan)
  | { kind: 'cancel'; row: OrderRow }
  | { kind: 'cancelAll'; owner: string }
  | { kind: 'settings'; pair: PairRow };

type Outcome = { ok: true; value: CommandResult } | { ok: false; error: AppError };

/**
 * One spot pair: its order book, its open orders and its write queue.
 *
 * Stages (exchange-core): check and hold funds → match → settle → publish.
 * Writes of the pair are serialised through one in-process queue; queued
 * commands are taken up to GROUP_MAX at a time and run in ONE ledger
 * transaction (group commit), so a burst costs one commit. A command's
 * caller is answered only after that transaction commits.
 *
 * A refusal (a spec §5 rule, an unknown order) is decided from reads before
 * the command writes anything, so it fails alone and the group goes on. Any
 * other error rolls the whole group back, fails every command in it, and the
 * pair's in-memory book and open-order cache are rebuilt from the store: the
 * book is matched in memory during the transaction, and rebuilding is the
 * simple way to guarantee no change survives a rollback.
 */
export class PairMarket extends PairTape implements SpotPairMarket {
  private settings: PairRow;
  private pairPrecision: PairPrecision;
  private book: OrderBook;
  /** The orders in the book, by autoid, mirrored from their rows. */
  private open = new Map<number, OrderRow>();
  private readonly queue: Job[] = [];
  private draining = false;
  private makerFee: Dec;
  private takerFee: Dec;

  constructor(private readonly options: PairMarketOptions) {
    const book = new OrderBook(precisionOf(options.pair));
    super(book.depth(DEPTH_LEVELS), options.indexPrice);
    this.book = book;
    this.settings = options.pair;
    this.pairPrecision = precisionOf(options.pair);
    this.makerFee = Dec.parse(options.pair.maker_fee);
    this.takerFee = Dec.parse(options.pair.taker_fee);
  }

  /** The pair's row as of its latest settings. */
  get pair(): PairRow {
    return this.settings;
  }

  /** Rebuilds the book from the open orders in the store (restart, or after a rolled-back group). */
  async restore(): Promise<void> {
    const rows = await selectOpenOrdersOfPair(this.options.db, this.pair.autoid);
    this.open = new Map(rows.map((row) => [row.autoid, row]));
    this.rebuildBook();
    this.restoreTape(
      await selectLatestTrades(this.options.db, this.pair.autoid, TOP_TRADES),
      this.book.depth(DEPTH_LEVELS),
    );
  }

  /** The book from the open orders mirrored in memory, under the current precision and minimum. */
  private rebuildBook(): void {
    this.book = OrderBook.restore(
      this.pairPrecision,
      [...this.open.values()].map((row) => ({
        orderId: String(row.autoid),
        userId: row.owner,
        side: row.type,
        price: Dec.parse(row.price ?? '0'),
        amount: Dec.parse(row.number),
        remaining: Dec.parse(row.unfilled),
        sequence: row.autoid,
      })),
    );
  }

  /** Takes new settings in memory (their row is written by the caller); the book keeps its orders. */
  private applySettings(pair: PairRow): void {
    this.settings = pair;
    this.pairPrecision = precisionOf(pair);
    this.makerFee = Dec.parse(pair.maker_fee);
    this.takerFee = Dec.parse(pair.taker_fee);
    this.rebuildBook();
  }

  /** Queues a command; answers after its transaction commits. */
  submit(command: SpotCommand): Promise<CommandResult> {
    if (this.queue.length >= QUEUE_MAX) return Promise.reject(new AppError('spot.busy', {}, 429));
    return new Promise((resolve, reject) => {
      this.queue.push({ command, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Resolves once every queued command has been run (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.draining) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Commands waiting in the write queue, and orders resting in the book (the back office's dashboard). */
  workload(): { queued: number; openOrders: number } {
    return { queued: this.queue.length, openOrders: this.open.size };
  }

  /** The open orders of one owner in this pair, oldest first. */
  openOrdersOf(owner: string): OrderRow[] {
    return [...this.open.values()].filter((row) => row.owner === owner);
  }

  /**
   * Runs the queue group by group. Each group starts on the event loop's next
   * turn, not at once: every command submitted in this turn (every request
   * read in one poll of the sockets) joins it. Started at once, a group would
   * hold the one command that woke the queue, and on SQLite, whose commit
   * blocks the thread, every group would stay that small.
   */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        await this.runGroup(this.queue.splice(0, GROUP_MAX));
      }
    } finally {
      this.draining = false;
    }
  }

  private async runGroup(jobs: Job[]): Promise<void> {
    const outcomes: Outcome[] = [];
    const effects: GroupEffects = { trades: [], depth: this.depth() };
    try {
      await this.options.ledger.transaction(async (trx) => {
        const work = await GroupWork.open(trx, this.options.ledger, this.balancesChecked(jobs));
        for (const job of jobs) outcomes.push(await this.run(work, job.command));
        await work.flush();
        effects.trades = work.trades;
      });
    } catch (error) {
      for (const job of jobs) job.reject(error);
      await this.rebuildAfterRollback();
      return;
    }
    this.recordTape(effects.trades, this.book.depth(DEPTH_LEVELS));
    effects.depth = this.depth();
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

  /** The accounts whose balances the group's orders are checked against: both coins of each trader. */
  private balancesChecked(jobs: readonly Job[]): AccountKey[] {
    const accounts: AccountKey[] = [];
    for (const { command } of jobs) {
      if (command.kind !== 'place') continue;
      const { account } = command.trader;
      accounts.push(accountKey(account, this.pair.maincoin), accountKey(account, this.pair.tradcoin));
    }
    return accounts;
  }

  private async rebuildAfterRollback(): Promise<void> {
    try {
      // The group may have held new settings: back to the stored ones.
      const stored = await selectPair(this.options.db, this.pair.autoid);
      if (stored) this.applySettings(stored);
      await this.restore();
    } catch (error) {
      this.options.onError(error);
    }
  }

  /**
   * One command: planned from reads (a refusal throws there, before anything
   * is written, and fails the command alone), then executed. An error while
   * executing propagates and rolls the whole group back.
   */
  private async run(work: GroupWork, command: SpotCommand): Promise<Outcome> {
    let plan: Plan;
    try {
      plan = await this.plan(work, command);
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
    const orders = this.execute(work, plan);
    await settleFees(work, this.options.referral);
    return { ok: true, value: { orders: copies(orders) } };
  }

  private async plan(work: GroupWork, command: SpotCommand): Promise<Plan> {
    switch (command.kind) {
      case 'place':
        return { kind: 'place', ...(await this.planPlace(work, command)) };
      case 'cancel': {
        const row = this.open.get(command.autoid);
        if (!row || row.owner !== command.trader.owner) throw notFound('spot.orderNotOpen');
        return { kind: 'cancel', row };
      }
      case 'cancelAll':
        return { kind: 'cancelAll', owner: command.trader.owner };
      case 'settings': {
        const { pair } = command;
        const precisionChanges =
          pair.price_accuracy !== this.pair.price_accuracy ||
          pair.amount_accuracy !== this.pair.amount_accuracy;
        if (precisionChanges && this.open.size > 0) throw conflict('markets.precisionWithOpenOrders');
        await updatePairSettings(work.trx, pair);
        return { kind: 'settings', pair };
      }
    }
  }

  /** Runs a planned command; answers the orders it created or ended (live rows: the caller copies them). */
  private execute(work: GroupWork, plan: Plan): OrderRow[] {
    switch (plan.kind) {
      case 'place':
        return this.place(work, plan);
      case 'cancel': {
        const events = this.book.cancel({
          kind: 'cancel',
          orderId: String(plan.row.autoid),
          userId: plan.row.owner,
        });
        return this.settle(work, events, plan.row.autoid);
      }
      case 'cancelAll': {
        const events = this.book.cancelAll({ kind: 'cancelAll', userId: plan.owner });
        return this.settle(work, events, null);
      }
      case 'settings':
        this.applySettings(plan.pair);
        return [];
    }
  }

  /**
   * The spot checks (spot-legs.ts), on balances read under the ledger's lock;
   * a refusal throws. The latest price counts the group's own trades before
   * this command, as the balances do: a market buy's hold must not depend on
   * where a group happened to begin (the sequenced core's state, which knows
   * no groups, decides it the same way).
   */
  private async planPlace(work: GroupWork, command: PlaceOrder): Promise<PlacePlan> {
    const account = command.trader.account;
    const main = await work.available(account, this.pair.maincoin);
    const trade = await work.available(account, this.pair.tradcoin);
    const groupLast = work.trades.at(-1);
    const planned = planSpotOrder(
      command,
      {
        minNumber: this.pair.minnumber,
        maxNumber: this.pair.maxnumber,
        priceAccuracy: this.pair.price_accuracy,
        amountAccuracy: this.pair.amount_accuracy,
      },
      {
        latest: groupLast ? Dec.parse(groupLast.price) : this.latestPrice(),
        usableMain: main,
        usableTrade: trade,
      },
    );
    if (isRefusal(planned)) throw badRequest(planned.key, planned.params);
    return { command, ...planned };
  }

  /** Writes the order and its hold, matches it, settles what traded. */
  private place(work: GroupWork, plan: PlacePlan): OrderRow[] {
    const { command } = plan;
    const now = this.options.now();
    const row = work.newOrder({
      pair_id: this.pair.autoid,
      user_id: command.trader.userId,
      owner: command.trader.owner,
      type: command.side,
      style: command.style,
      price: plan.price?.toString() ?? null,
      number: plan.amount.toString(),
      unfilled: plan.amount.toString(),
      held: plan.hold.toString(),
      hold_spent: '0',
      deal_amount: '0',
      deal_money: '0',
      fee: '0',
      fee_hal: '0',
      state: 'unfilled',
      cancel_reason: null,
      wdate: now,
      updated_at: now,
    });
    work.hold(holdOf(row.autoid, command.trader.account, heldAssetOf(command.side, this.pair), plan.hold));
    this.open.set(row.autoid, row);
    const common = {
      orderId: String(row.autoid),
      userId: row.owner,
      sequence: row.autoid,
      amount: plan.amount,
    };
    const events =
      command.style === 'limit'
        ? this.book.place({ ...common, kind: 'limit', side: command.side, price: plan.price! })
        : command.side === 'buy'
          ? this.book.place({ ...common, kind: 'market', side: 'buy', quoteBudget: plan.hold })
          : this.book.place({ ...common, kind: 'market', side: 'sell' });
    this.settle(work, events, row.autoid);
    return [row];
  }

  /**
   * Turns book events into ledger batches and row updates: per trade one
   * linked batch (both holds posted by what traded, base and quote delivered
   * from clearing, fees deducted from what each side receives into the fee
   * account); per ended order the rest of its hold voided. Answers the
   * touched orders (the open-order cache's rows, which later groups change),
   * `subject` (if any) first.
   */
  private settle(work: GroupWork, events: readonly BookEvent[], subject: number | null): OrderRow[] {
    const now = this.options.now();
    const touched = new Map<number, OrderRow>();
    if (subject !== null) this.touch(touched, subject);
    const trades: TradeRow[] = [];
    for (const event of events) {
      if (event.type === 'trade') trades.push(this.settleTrade(work, event, touched, trades.length, now));
      else if (event.type === 'done')
        this.endOrder(work, this.touch(touched, Number(event.orderId)), event, now);
      else if (event.type === 'rejected')
        throw new Error(`spot: the book rejected a checked order (${event.reason})`);
    }
    for (const row of touched.values()) {
      if (isOpen(row.state)) row.state = Dec.parse(row.deal_amount).isPositive() ? 'partial' : 'unfilled';
      row.updated_at = now;
      work.touched(row);
      if (!isOpen(row.state)) this.open.delete(row.autoid);
    }
    work.trades.push(...trades);
    return [...touched.values()];
  }

  /** An open order a command changes, noted in `touched`. */
  private touch(touched: Map<number, OrderRow>, autoid: number): OrderRow {
    const row = this.open.get(autoid);
    if (!row) throw new Error(`spot: order ${autoid} is in the book but not in the open orders`);
    touched.set(autoid, row);
    return row;
  }

  private settleTrade(
    work: GroupWork,
    trade: TradeEvent,
    touched: Map<number, OrderRow>,
    index: number,
    now: number,
  ): TradeRow {
    const maker = this.touch(touched, Number(trade.makerOrderId));
    const taker = this.touch(touched, Number(trade.takerOrderId));
    const [buyer, seller] = trade.takerSide === 'buy' ? [taker, maker] : [maker, taker];
    const { maincoin, tradcoin } = this.pair;
    const legs = tradeLegs({
      trade,
      index,
      buyer: { orderId: buyer.autoid, account: traderOf(buyer.owner).account },
      seller: { orderId: seller.autoid, account: traderOf(seller.owner).account },
      maincoin,
      tradcoin,
      makerFee: this.makerFee,
      takerFee: this.takerFee,
    });
    const { tradeId, reference } = legs;
    const buyerFee = legs.buyerFee.fee;
    const sellerFee = legs.sellerFee.fee;
    for (const post of legs.posts) work.post(post);
    for (const delivery of legs.deliveries) work.pay(delivery);
    fill(buyer, trade, trade.quoteAmount, buyerFee);
    fill(seller, trade, trade.amount, sellerFee);
    const row: TradeRow = {
      autoid: 0,
      pair_id: this.pair.autoid,
      maker_order_id: maker.autoid,
      taker_order_id: taker.autoid,
      taker_side: trade.takerSide,
      price: trade.price.toString(),
      amount: trade.amount.toString(),
      quote_amount: trade.quoteAmount.toString(),
      buyer_fee: buyerFee.toString(),
      seller_fee: sellerFee.toString(),
      buyer_fee_coin: tradcoin,
      seller_fee_coin: maincoin,
      wdate: now,
    };
    // The fees are kept back in clearing; the command's fee step pays them, in coin or HAL (settleFees).
    const owed = { tradeId, trade: row, reference };
    if (sellerFee.isPositive())
      work.fees.push({
        ...owed,
        ...legs.sellerFee,
        order: seller,
        side: 'seller',
        counterpartyOwner: buyer.owner,
      });
    if (buyerFee.isPositive())
      work.fees.push({
        ...owed,
        ...legs.buyerFee,
        order: buyer,
        side: 'buyer',
        counterpartyOwner: seller.owner,
      });
    return row;
  }

  /**
   * An order left the book: filled, or cancelled (by its owner, for want of
   * liquidity, or by self-trade prevention). What its hold still reserves —
   * a cancelled rest, or the dust of a buy filled below its limit — is released.
   */
  private endOrder(
    work: GroupWork,
    row: OrderRow,
    done: Extract<BookEvent, { type: 'done' }>,
    now: number,
  ): void {
    const filled = Dec.parse(row.deal_amount).isPositive();
    row.state = done.status === 'filled' ? 'filled' : filled ? 'partially_cancelled' : 'cancelled';
    row.cancel_reason = done.cancelReason;
    row.updated_at = now;
    const rest = Dec.parse(row.held).sub(Dec.parse(row.hold_spent));
    if (!rest.isPositive()) return;
    work.release(releaseOf(row.autoid), traderOf(row.owner).account, heldAssetOf(row.type, this.pair), rest);
  }
}

/** A fill of one side: its unfilled amount, hold used, deal totals and fee. */
function fill(row: OrderRow, trade: TradeEvent, holdUsed: Dec, fee: Dec): void {
  row.unfilled = Dec.parse(row.unfilled).sub(trade.amount).toString();
  row.hold_spent = Dec.parse(row.hold_spent).add(holdUsed).toString();
  row.deal_amount = Dec.parse(row.deal_amount).add(trade.amount).toString();
  row.deal_money = Dec.parse(row.deal_money).add(trade.quoteAmount).toString();
  row.fee = Dec.parse(row.fee).add(fee).toString();
}

export function isOpen(state: OrderState): boolean {
  return state === 'unfilled' || state === 'partial';
}

/** The orders a command answers, copied: the cached rows change with later groups. */
function copies(rows: readonly OrderRow[]): OrderRow[] {
  return rows.map((row) => ({ ...row }));
}

function precisionOf(pair: PairRow): PairPrecision {
  return {
    priceAccuracy: pair.price_accuracy,
    amountAccuracy: pair.amount_accuracy,
    minNumber: Dec.parse(pair.minnumber),
  };
}
