import type { OrderBook } from '@halyard/matching';
import { CODE } from '@halyard/protocol';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type PairConfig,
  type SpotOrderRecord,
  spotOrderRecordOf,
} from '../../core/state/index.ts';
import { AppError, conflict } from '../../http/errors.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { refusalError } from '../../money-core/submit.ts';
import type { CommandResult, PairMarketHooks, SpotCommand, SpotPairMarket } from './pair-market.ts';
import { type CommittedTrade, DEPTH_LEVELS, PairTape, TOP_TRADES } from './pair-tape.ts';
import { orderRowOf } from './projection.ts';
import { pairConfigOf } from './state-from-sql.ts';
import { type OrderRow, type PairRow, selectLatestTrades, updatePairSettings } from './store.ts';
import { HOUSE_USER_ID, type Trader } from './trader.ts';

/** Refusals of the state that name something missing: answered 404, as PairMarket answers them. */
const REFUSAL_CODES: ReadonlyMap<string, number> = new Map([
  ['spot.pairNotFound', CODE.notFound],
  ['spot.orderNotOpen', CODE.notFound],
]);

export interface CorePairMarketOptions extends PairMarketHooks {
  core: MoneyCoreHandle;
  /** Before a user's order: the referral profile its fees read reaches the state (ReferralOnCore.beforeFee). */
  beforeFee?: (userId: number) => Promise<void>;
}

/**
 * One spot pair on the sequenced core (issue 19, docs/core.md "The cut-over"):
 * its commands go to the money state, which checks, holds, matches and
 * settles them; the projector writes the rows behind. A command is answered
 * once it is durable, with its orders as the command left them, taken from
 * the events it published under its own sequence, without waiting for SQL:
 * the user's next request waits until SQL holds it (read-your-writes, see
 * `answer`).
 */
export class CorePairMarket extends PairTape implements SpotPairMarket {
  private settings: PairRow;
  private readonly symbol: string;
  /**
   * The order records this pair's commands published, by sequence, in the
   * order published (an order's last record is how its command left it),
   * until their replies take them. Every spot command of the pair is
   * submitted here, so every entry has a reply waiting for it.
   */
  private readonly unanswered = new Map<number, SpotOrderRecord[]>();
  private readonly unsubscribe: () => void;

  private constructor(
    private readonly options: CorePairMarketOptions,
    trades: readonly CommittedTrade[],
  ) {
    const symbol = pairConfigOf(options.pair).symbol;
    super(options.core.state.books.get(symbol)!.depth(DEPTH_LEVELS), options.indexPrice);
    this.settings = options.pair;
    this.symbol = symbol;
    this.restoreTape(trades, this.depth());
    this.unsubscribe = options.core.sequencer.subscribe((published) => this.published(published));
  }

  /** Opens the pair in the state if the state does not hold it yet (a pair listed since), and reads its latest trades. */
  static async open(options: CorePairMarketOptions): Promise<CorePairMarket> {
    if (!options.core.state.pairs.has(pairConfigOf(options.pair).symbol))
      await submitted(options.core, {
        kind: 'openPair',
        at: options.now(),
        pair: pairConfigOf(options.pair),
      });
    return new CorePairMarket(options, await selectLatestTrades(options.db, options.pair.autoid, TOP_TRADES));
  }

  get pair(): PairRow {
    return this.settings;
  }

  async submit(command: SpotCommand): Promise<CommandResult> {
    const at = this.options.now();
    switch (command.kind) {
      case 'place': {
        if (command.trader.userId !== HOUSE_USER_ID) await this.options.beforeFee?.(command.trader.userId);
        const index = this.options.indexPrice();
        const { result, seq } = await this.send({
          kind: 'place',
          at,
          pair: this.symbol,
          owner: command.trader.owner,
          account: command.trader.account,
          email: command.email,
          side: command.side,
          style: command.style,
          ...(command.price === undefined ? {} : { price: command.price }),
          amount: command.amount,
          ...(index === null ? {} : { indexPrice: index.toString() }),
        });
        return this.answer(command.trader, result, seq);
      }
      case 'cancel': {
        const { trader, autoid } = command;
        const sent = { kind: 'cancel', at, pair: this.symbol, owner: trader.owner, orderId: autoid } as const;
        const { result, seq } = await this.send(sent);
        return this.answer(trader, result, seq);
      }
      case 'cancelAll': {
        const { result, seq } = await this.send({
          kind: 'cancelAll',
          at,
          pair: this.symbol,
          owner: command.trader.owner,
        });
        return this.answer(command.trader, result, seq);
      }
      case 'settings':
        return this.changeSettings(command.pair, at);
    }
  }

  async idle(): Promise<void> {
    await this.options.core.projected(this.options.core.sequencer.lastSequence());
  }

  /** No command waits per pair: the core has one queue for all (the ledger's `queued`). */
  workload(): { queued: number; openOrders: number } {
    return { queued: 0, openOrders: this.book().orderCount };
  }

  openOrdersOf(owner: string): OrderRow[] {
    const rows: OrderRow[] = [];
    for (const order of this.options.core.state.orders.values())
      if (order.pair === this.symbol && order.owner === owner)
        rows.push(orderRowOf(spotOrderRecordOf(order, null, order.placedAt), this.pair.autoid));
    return rows.sort((a, b) => a.autoid - b.autoid);
  }

  /** Stops following the core's events. */
  close(): void {
    this.unsubscribe();
  }

  /** Submits a command; a refusal throws the AppError the SQL path throws. Answers the reply and its durable sequence. */
  private async send(
    command: MoneyCommand,
  ): Promise<{ result: Extract<MoneyResult, { ok: true }>; seq: number }> {
    const { result, seq } = await this.options.core.submit(command);
    if (!result.ok) throw refusalError(result.error, result.params, REFUSAL_CODES);
    return { result, seq };
  }

  /**
   * The orders a command answered, as its own events left them, at once: SQL
   * may not hold them yet. The trader's next request waits until it does
   * (`answeredAhead`, the session guard's `caughtUp`); the house has no
   * session and reads its orders from the state.
   */
  private answer(trader: Trader, result: Extract<MoneyResult, { ok: true }>, seq: number): CommandResult {
    const records = this.unanswered.get(seq) ?? [];
    this.unanswered.delete(seq);
    const ids = result.orders?.map((order) => order.orderId) ?? (result.order ? [result.order.orderId] : []);
    const orders = ids.map((id) => {
      const record = records.findLast((candidate) => candidate.orderId === id);
      if (!record) throw new Error(`spot: order ${id} is not in the events of command ${seq}`);
      return orderRowOf(record, this.pair.autoid);
    });
    if (trader.userId !== HOUSE_USER_ID) this.options.core.answeredAhead(trader.userId, seq);
    return { orders };
  }

  /**
   * New settings: the row first, then the state takes them with the pair
   * (openPair again). In that order because the other gateways of a cluster
   * read the row when their replica applies the openPair
   * (state-pairs.ts). A refusal puts the row back; an unknown outcome (no
   * sequencer answered) leaves it, as the command may have been applied.
   */
  private async changeSettings(pair: PairRow, at: number): Promise<CommandResult> {
    const precisionChanges =
      pair.price_accuracy !== this.pair.price_accuracy || pair.amount_accuracy !== this.pair.amount_accuracy;
    if (precisionChanges && this.book().orderCount > 0) throw conflict('markets.precisionWithOpenOrders');
    const before = this.settings;
    await updatePairSettings(this.options.db, pair);
    try {
      await submitted(this.options.core, { kind: 'openPair', at, pair: pairConfigOf(pair) });
    } catch (error) {
      if (error instanceof AppError) await updatePairSettings(this.options.db, before);
      throw error;
    }
    this.settings = pair;
    return { orders: [] };
  }

  /**
   * The pair's row as the store holds it now, changed through another
   * gateway (state-pairs.ts): taken once the state holds the
   * same settings, so a row written for a change the state then refused
   * (and put back) is never taken.
   */
  takeSettings(pair: PairRow): void {
    const held = this.options.core.state.pairs.get(this.symbol)?.config;
    const stored = pairConfigOf(pair);
    const same =
      held !== undefined &&
      (Object.keys(stored) as (keyof PairConfig)[]).every((key) => held[key] === stored[key]);
    if (same) this.settings = pair;
  }

  /**
   * The pair's book in the state (opened with the market). It may be ahead
   * of what is durable by the batches being written, never more.
   */
  private book(): OrderBook {
    return this.options.core.state.books.get(this.symbol)!;
  }

  /** A durable batch: this pair's order records by command (for the replies), trades and depth (for the pushes). */
  private published(batch: readonly { seq: number; events: readonly MoneyEvent[] }[]): void {
    const trades: CommittedTrade[] = [];
    let touched = false;
    for (const { seq, events } of batch) {
      // Made only for a command with this pair's orders: every pair's market reads every command of the batch.
      let records: SpotOrderRecord[] | null = null;
      for (const event of events) {
        if (event.type === 'book' && event.pair === this.symbol) touched = true;
        else if (
          (event.type === 'spotOrderAccepted' || event.type === 'spotOrderUpdated') &&
          event.order.pair === this.symbol
        ) {
          records ??= [];
          records.push(event.order);
        } else if (event.type === 'spotTrade' && event.trade.pair === this.symbol)
          trades.push({
            price: event.trade.price,
            amount: event.trade.amount,
            taker_side: event.trade.takerSide,
            wdate: event.trade.at,
          });
      }
      if (records !== null) this.unanswered.set(seq, records);
    }
    if (!touched) return;
    this.recordTape(trades, this.book().depth(DEPTH_LEVELS));
    try {
      this.options.onCommitted({ trades, depth: this.depth() });
    } catch (error) {
      this.options.onError(error);
    }
  }
}

async function submitted(core: MoneyCoreHandle, command: MoneyCommand): Promise<void> {
  const { result } = await core.submit(command);
  if (!result.ok) throw refusalError(result.error, result.params, REFUSAL_CODES);
}
