// Just over 500 lines: one spot command's stages in order (checks, hold, match,
// settle each trade, release what is left), which share the state and the
// orders the command has touched so far. What stands alone is elsewhere: the
// transfers of a hold and a trade in spot-legs.ts, the fee step in spot-fees.ts.
import { type BookEvent, type DoneEvent, OrderBook, type TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { invalidAccountField } from '../../ledger/accounts.ts';
import { isLedgerError, type TransferInput } from '../../ledger/index.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type {
  CancelAllCommand,
  CancelCommand,
  MoneyEvent,
  MoneyResult,
  OpenPairCommand,
  PairConfig,
  PlaceCommand,
  SpotOrderRecord,
  SpotOrderState,
  SpotTradeRecord,
} from './commands.ts';
import {
  applyTransfers,
  available,
  type MoneyState,
  type OpenOrder,
  type PairState,
  withFillTotals,
} from './money-state.ts';
import type { CommissionRow } from './referral-rules.ts';
import { type OwedFee, settleFees } from './spot-fees.ts';
import {
  heldAssetOf,
  holdId,
  holdOf,
  isRefusal,
  planSpotOrder,
  releaseOf,
  type SpotOrderPlan,
  type TradeFee,
  type TradeLegs,
  tradeLegs,
} from './spot-legs.ts';

/**
 * Spot orders on the money state: the checks, holds, trade legs, fees and
 * releases of spot-legs.ts, shared with modules/spot, decided in memory, and
 * the rows of the spot tables published as events (modules/spot/projection.ts
 * writes them). Fees are taken in the coin received or in HAL, and pay
 * referral commissions (spot-fees.ts; docs/core.md, "Spot in the state").
 *
 * One file of a little over 500 lines: place, cancel and cancel-all share
 * `settle` and its private helpers (each trade's legs, an order's fill, the
 * rows' events), which a split would have to export to each other.
 */

type Refusal = Extract<MoneyResult, { ok: false }>;

export function openPair(state: MoneyState, command: OpenPairCommand): Applied<MoneyResult, MoneyEvent> {
  const { pair } = command;
  const existing = state.pairs.get(pair.symbol);
  const precisionChanges =
    existing !== undefined &&
    (existing.config.priceAccuracy !== pair.priceAccuracy ||
      existing.config.amountAccuracy !== pair.amountAccuracy);
  if (precisionChanges && state.books.get(pair.symbol)!.orderCount > 0)
    return refused('markets.precisionWithOpenOrders');
  const updated = pairStateOf(pair, existing?.lastPrice ?? null);
  state.pairs.set(pair.symbol, updated);
  const book = state.books.get(pair.symbol);
  if (book) book.changePrecision(updated.precision);
  else state.books.set(pair.symbol, new OrderBook(updated.precision));
  return { result: { ok: true }, events: [] };
}

function pairStateOf(config: PairConfig, lastPrice: Dec | null): PairState {
  return {
    config,
    precision: {
      priceAccuracy: config.priceAccuracy,
      amountAccuracy: config.amountAccuracy,
      minNumber: Dec.parse(config.minNumber),
    },
    makerFee: Dec.parse(config.makerFee),
    takerFee: Dec.parse(config.takerFee),
    lastPrice,
  };
}

/**
 * Sets a pair and builds its book from the open orders `state.orders`
 * already holds (a snapshot being loaded, or the state built from SQL).
 */
export function restorePair(state: MoneyState, config: PairConfig, lastPrice: Dec | null): void {
  const pair = pairStateOf(config, lastPrice);
  state.pairs.set(config.symbol, pair);
  const resting = [...state.orders.values()]
    .filter((order) => order.pair === config.symbol)
    .map((order) => ({
      orderId: String(order.id),
      userId: order.owner,
      side: order.side,
      price: order.price,
      amount: order.amount,
      remaining: order.remaining,
      sequence: order.id,
    }));
  state.books.set(config.symbol, OrderBook.restore(pair.precision, resting));
}

/** Checks, holds, matches and settles one order; a refusal changes nothing. `emit`: Machine.apply. */
export function placeOrder(
  state: MoneyState,
  command: PlaceCommand,
  seq: number,
  emit = true,
): Applied<MoneyResult, MoneyEvent> {
  const pair = state.pairs.get(command.pair);
  if (!pair) return refused('spot.pairNotFound');
  if (invalidAccountField(command.account) !== null) return refused('spot.invalidAccount');
  const planned = planOrder(state, command);
  if ('error' in planned) return { result: planned, events: [] };
  const id = state.nextOrderId;
  const hold = holdOf(id, command.account, heldAssetOf(command.side, pair.config), planned.hold);
  let holdPlan: ReturnType<typeof applyTransfers>;
  try {
    holdPlan = applyTransfers(state, [hold], command.at, seq, true);
  } catch (error) {
    if (isLedgerError(error)) return refused(error.key);
    throw error;
  }
  state.nextOrderId = id + 1;
  const order: OpenOrder = {
    id,
    pair: command.pair,
    owner: command.owner,
    account: command.account,
    side: command.side,
    style: command.style,
    price: planned.price ?? Dec.ZERO,
    amount: planned.amount,
    remaining: planned.amount,
    held: planned.hold,
    holdSpent: Dec.ZERO,
    dealMoney: Dec.ZERO,
    fee: Dec.ZERO,
    feeHal: Dec.ZERO,
    placedAt: command.at,
  };
  const book = state.books.get(command.pair)!;
  const orderId = String(id);
  const userId = command.owner;
  const amount = planned.amount;
  // Written out, not spread from a common object: see `owe` in settleTrade (a spread then new fields is slow in V8).
  const events =
    command.style === 'limit'
      ? book.place({
          orderId,
          userId,
          sequence: id,
          amount,
          kind: 'limit',
          side: command.side,
          price: planned.price!,
        })
      : command.side === 'buy'
        ? book.place({
            orderId,
            userId,
            sequence: id,
            amount,
            kind: 'market',
            side: 'buy',
            quoteBudget: planned.hold,
          })
        : book.place({ orderId, userId, sequence: id, amount, kind: 'market', side: 'sell' });
  const settled = settle(state, command.pair, events, order, command.at, seq, emit);
  const after = settled.touched.get(id)!;
  const result: MoneyResult = {
    ok: true,
    order: { orderId: id, filled: filledOf(after).toString(), open: !settled.ended.has(id) },
  };
  if (!emit) return { result, events: [] };
  return {
    result,
    events: [
      { type: 'transfers', transfers: [...holdPlan.newTransfers, ...settled.transfers] },
      { type: 'book', pair: command.pair, events },
      // The new order once, as its row stands after the command: a second record of it would be built, copied to
      // the projector and dropped there (each order's last record wins, in the writer and in the replies alike).
      { type: 'spotOrderAccepted', order: recordOf(after, settled.ended.get(id) ?? null, command.at) },
      ...spotEventsOf(settled, command.at, id),
    ],
  };
}

export function cancelOrder(
  state: MoneyState,
  command: CancelCommand,
  seq: number,
  emit = true,
): Applied<MoneyResult, MoneyEvent> {
  const order = state.orders.get(command.orderId);
  if (!order || order.owner !== command.owner || order.pair !== command.pair)
    return refused('spot.orderNotOpen');
  const events = state.books
    .get(command.pair)!
    .cancel({ kind: 'cancel', orderId: String(order.id), userId: order.owner });
  const settled = settle(state, command.pair, events, null, command.at, seq, emit);
  const result: MoneyResult = {
    ok: true,
    order: { orderId: order.id, filled: filledOf(order).toString(), open: false },
  };
  if (!emit) return { result, events: [] };
  return {
    result,
    events: [
      { type: 'transfers', transfers: settled.transfers },
      { type: 'book', pair: command.pair, events },
      ...spotEventsOf(settled, command.at),
    ],
  };
}

/** Every open order of the owner in the pair, cancelled in the book's order; none is not a refusal. */
export function cancelAllOrders(
  state: MoneyState,
  command: CancelAllCommand,
  seq: number,
  emit = true,
): Applied<MoneyResult, MoneyEvent> {
  const book = state.books.get(command.pair);
  if (!book) return refused('spot.pairNotFound');
  const events = book.cancelAll({ kind: 'cancelAll', userId: command.owner });
  if (events.length === 0) return { result: { ok: true, orders: [] }, events: [] };
  const settled = settle(state, command.pair, events, null, command.at, seq, emit);
  const orders = [...settled.ended.keys()].map((id) => {
    const order = settled.touched.get(id)!;
    return { orderId: id, filled: filledOf(order).toString(), open: false };
  });
  if (!emit) return { result: { ok: true, orders }, events: [] };
  return {
    result: { ok: true, orders },
    events: [
      { type: 'transfers', transfers: settled.transfers },
      { type: 'book', pair: command.pair, events },
      ...spotEventsOf(settled, command.at),
    ],
  };
}

/**
 * The shared spot checks (spot-legs.ts) on the balances in the state and the
 * latest price: the pair's last trade, else the index price the command
 * carries (one that is not a positive decimal counts as none).
 */
function planOrder(state: MoneyState, command: PlaceCommand): SpotOrderPlan | Refusal {
  const pair = state.pairs.get(command.pair)!;
  const { maincoin, tradcoin } = pair.config;
  const planned = planSpotOrder(command, pair.config, {
    latest: pair.lastPrice ?? indexPriceOf(command),
    usableMain: available(state, command.account, maincoin),
    usableTrade: available(state, command.account, tradcoin),
  });
  return isRefusal(planned) ? refusal(planned.key, planned.params) : planned;
}

/** What one command's book events did: its transfers, the orders it changed (as they stand after it), its trades. */
interface Settled {
  /** Empty, as are `trades` and `commissions`, when the command's events are not built. */
  transfers: NewTransfer[];
  /** In the order the command first touched them, the taker first. */
  touched: Map<number, OpenOrder>;
  /** The orders that left the book, with the book's word on how. */
  ended: Map<number, DoneEvent>;
  trades: SpotTradeRecord[];
  /** The commission rows of the command's fees (their payouts are among `transfers`). */
  commissions: CommissionRow[];
}

function indexPriceOf(command: PlaceCommand): Dec | null {
  if (typeof command.indexPrice !== 'string') return null;
  const price = Dec.tryParse(command.indexPrice);
  return price?.isPositive() ? price : null;
}

/**
 * Turns book events into ledger batches and order changes: per trade both
 * holds posted into clearing and each side paid from it, less its fee; per
 * ended order the rest of its hold released; then the fee step (spot-fees.ts:
 * each fee in its coin or in HAL, then the commissions). The ledger must
 * accept every batch: the checks and the hold came first, so a refusal here
 * is a bug and stops the sequencer. Without `emit` it builds no trade
 * records and lists no transfers: only the events would read them.
 */
function settle(
  state: MoneyState,
  pairSymbol: string,
  events: readonly BookEvent[],
  taker: OpenOrder | null,
  at: number,
  seq: number,
  emit: boolean,
): Settled {
  const pair = state.pairs.get(pairSymbol)!;
  const touched = new Map<number, OpenOrder>();
  if (taker) touched.set(taker.id, taker);
  const legs: TransferInput[] = [];
  const fees: OwedFee[] = [];
  const ended = new Map<number, DoneEvent>();
  const trades: SpotTradeRecord[] = [];
  let tradeCount = 0;
  for (const event of events) {
    if (event.type === 'trade') {
      const traded = settleTrade(state, touched, pair, event, tradeCount++, legs, fees);
      touched.set(traded.buyer.id, traded.buyer);
      touched.set(traded.seller.id, traded.seller);
      if (emit) trades.push(tradeRecordOf(pair, event, traded, at));
    } else if (event.type === 'done') {
      const order = orderOf(state, touched, event.orderId);
      ended.set(order.id, event);
      touched.set(order.id, order);
      const rest = order.held.sub(order.holdSpent);
      if (rest.isPositive()) legs.push(releaseOf(order.id));
    } else if (event.type === 'rejected') {
      throw new Error(`spot state: the book rejected a checked order (${event.reason})`);
    }
  }
  const plan = applyTransfers(state, legs, at, seq, true);
  const paid = settleFees(state, fees, touched, emit ? trades : null, at, seq);
  for (const order of touched.values()) {
    if (!ended.has(order.id)) state.orders.set(order.id, order);
    else {
      state.orders.delete(order.id);
      // Closed by now (posted in full, or its rest released above). Its id is derived, so it is in no retry window
      // that would forget it later (spot-legs.ts, holdOf).
      state.ledger.holds.delete(holdId(order.id));
    }
  }
  const last = events.findLast(isTrade);
  if (last)
    state.pairs.set(pairSymbol, {
      config: pair.config,
      precision: pair.precision,
      makerFee: pair.makerFee,
      takerFee: pair.takerFee,
      lastPrice: last.price,
    });
  if (!emit) return { transfers: [], touched, ended, trades, commissions: [] };
  return {
    transfers: [...plan.newTransfers, ...paid.transfers],
    touched,
    ended,
    trades,
    commissions: paid.commissions,
  };
}

/** One trade, settled: both orders after the fill, and what its record names. */
interface SettledTrade {
  buyer: OpenOrder;
  seller: OpenOrder;
  makerOrderId: number;
  takerOrderId: number;
  tradeId: string;
  buyerFee: TradeFee;
  sellerFee: TradeFee;
}

// Module functions, not closures made per command: under tsx each named closure also costs an
// `Object.defineProperty` for its name (`__name`), about 1 % of a replay (docs/core.md "Replay after stop 27").

/** An order a command's book events name: as the command left it so far, else as the state holds it. */
function orderOf(state: MoneyState, touched: Map<number, OpenOrder>, orderId: string): OpenOrder {
  const id = Number(orderId);
  const order = touched.get(id) ?? state.orders.get(id);
  if (!order) throw new Error(`spot state: order ${orderId} is in the book but not in the state`);
  return order;
}

function isTrade(event: BookEvent): event is TradeEvent {
  return event.type === 'trade';
}

/** One trade's legs (spot-legs.ts, as modules/spot writes them) and fees owed; answers both orders after the fill. */
function settleTrade(
  state: MoneyState,
  touched: Map<number, OpenOrder>,
  pair: PairState,
  trade: TradeEvent,
  index: number,
  legs: TransferInput[],
  fees: OwedFee[],
): SettledTrade {
  const maker = orderOf(state, touched, trade.makerOrderId);
  const taker = orderOf(state, touched, trade.takerOrderId);
  const [buyer, seller] = trade.takerSide === 'buy' ? [taker, maker] : [maker, taker];
  const planned = tradeLegs({
    trade,
    index,
    buyer: { orderId: buyer.id, account: buyer.account },
    seller: { orderId: seller.id, account: seller.account },
    maincoin: pair.config.maincoin,
    tradcoin: pair.config.tradcoin,
    makerFee: pair.makerFee,
    takerFee: pair.takerFee,
  });
  legs.push(...planned.posts, ...planned.deliveries);
  const { buyerFee, sellerFee } = planned;
  // Kept back in clearing; the fee step pays them (in coin or HAL), the seller's first.
  owe(fees, planned, index, sellerFee, 'seller', seller, buyer);
  owe(fees, planned, index, buyerFee, 'buyer', buyer, seller);
  return {
    buyer: filledBy(buyer, trade, trade.quoteAmount, buyerFee.fee),
    seller: filledBy(seller, trade, trade.amount, sellerFee.fee),
    makerOrderId: maker.id,
    takerOrderId: taker.id,
    tradeId: planned.tradeId,
    buyerFee,
    sellerFee,
  };
}

/** Notes a positive fee the trade kept back in clearing, for the fee step. */
function owe(
  fees: OwedFee[],
  trade: TradeLegs,
  index: number,
  fee: TradeFee,
  side: OwedFee['side'],
  payer: OpenOrder,
  other: OpenOrder,
): void {
  if (!fee.fee.isPositive()) return;
  // Field by field, not `...fee`: V8 (Node 20) takes a slow path of about 2 to 6 µs when properties are
  // added after a spread, which cost the replay several per cent (docs/core.md "Replay after issue #19").
  fees.push({
    legId: fee.legId,
    coin: fee.coin,
    fee: fee.fee,
    tradeId: trade.tradeId,
    reference: trade.reference,
    tradeIndex: index,
    side,
    orderId: payer.id,
    payer: payer.account,
    counterparty: other.account,
  });
}

/** The trade's row, its fees in the coin received (the fee step names HAL where it was paid in HAL). */
function tradeRecordOf(
  pair: PairState,
  trade: TradeEvent,
  settled: SettledTrade,
  at: number,
): SpotTradeRecord {
  return {
    pair: pair.config.symbol,
    tradeId: settled.tradeId,
    makerOrderId: settled.makerOrderId,
    takerOrderId: settled.takerOrderId,
    takerSide: trade.takerSide,
    price: trade.price.toString(),
    amount: trade.amount.toString(),
    quoteAmount: trade.quoteAmount.toString(),
    buyerFee: settled.buyerFee.fee.toString(),
    sellerFee: settled.sellerFee.fee.toString(),
    buyerFeeCoin: settled.buyerFee.coin,
    sellerFeeCoin: settled.sellerFee.coin,
    at,
  };
}

/** The order after a fill: a new object (state values are never changed in place). */
function filledBy(order: OpenOrder, trade: TradeEvent, holdUsed: Dec, fee: Dec): OpenOrder {
  return withFillTotals(order, {
    remaining: order.remaining.sub(trade.amount),
    holdSpent: order.holdSpent.add(holdUsed),
    dealMoney: order.dealMoney.add(trade.quoteAmount),
    fee: order.fee.add(fee),
    feeHal: order.feeHal,
  });
}

function filledOf(order: OpenOrder): Dec {
  return order.amount.sub(order.remaining);
}

/**
 * The rows' events of a command: its trades, every order it changed as it stands after it (but `placed`, the order
 * the command placed, whose `spotOrderAccepted` already stands so), its commissions.
 */
function spotEventsOf(settled: Settled, at: number, placed: number | null = null): MoneyEvent[] {
  const events: MoneyEvent[] = settled.trades.map((trade) => ({ type: 'spotTrade', trade }));
  for (const order of settled.touched.values())
    if (order.id !== placed)
      events.push({
        type: 'spotOrderUpdated',
        order: recordOf(order, settled.ended.get(order.id) ?? null, at),
      });
  if (settled.commissions.length > 0) events.push({ type: 'referralCommissions', rows: settled.commissions });
  return events;
}

/** An order's row: `done` when it left the book (spec §4: filled, or cancelled with or without fills). */
export function recordOf(order: OpenOrder, done: DoneEvent | null, at: number): SpotOrderRecord {
  const dealAmount = filledOf(order);
  return {
    orderId: order.id,
    pair: order.pair,
    owner: order.owner,
    side: order.side,
    style: order.style,
    price: order.style === 'limit' ? order.price.toString() : null,
    amount: order.amount.toString(),
    unfilled: order.remaining.toString(),
    held: order.held.toString(),
    holdSpent: order.holdSpent.toString(),
    dealAmount: dealAmount.toString(),
    dealMoney: order.dealMoney.toString(),
    fee: order.fee.toString(),
    feeHal: order.feeHal.toString(),
    state: stateOf(dealAmount.isPositive(), done),
    cancelReason: done?.cancelReason ?? null,
    placedAt: order.placedAt,
    updatedAt: at,
  };
}

function stateOf(filled: boolean, done: DoneEvent | null): SpotOrderState {
  if (done === null) return filled ? 'partial' : 'unfilled';
  if (done.status === 'filled') return 'filled';
  return filled ? 'partially_cancelled' : 'cancelled';
}

function refusal(error: string, params?: Record<string, string | number>): Refusal {
  return params === undefined ? { ok: false, error } : { ok: false, error, params };
}

function refused(error: string): { result: Refusal; events: [] } {
  return { result: refusal(error), events: [] };
}
