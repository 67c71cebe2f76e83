// A futures order's row through its life, as the engine and the money state
// both write it: the fields a placement chooses (an open as the checks
// planned it, a close of a position), how it meets the book, what each trade
// and its end change on it, and the trade's row.
import type { BookEvent, OrderBook, TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import type { TransferInput } from '../../ledger/index.ts';
import type { ContractMarket } from './futures-book.ts';
import type { OpenPlan } from './futures-checks.ts';
import { isHouse } from './futures-commands.ts';
import { releaseTransfer } from './futures-legs.ts';
import type { EntrustRow, EntrustState, FuturesTradeRow, PositionRow } from './futures-rows.ts';

/** The order fields a placement chooses; the rest start empty. */
export type NewEntrust = Omit<
  EntrustRow,
  | 'autoid'
  | 'unfilled'
  | 'hold_spent'
  | 'deal_money'
  | 'fee'
  | 'fee_hal'
  | 'margin'
  | 'state'
  | 'cancel_reason'
  | 'wdate'
  | 'updated_at'
>;

/** An opening order's fields, as futures-checks.ts planned it (the engine and the money state write the same row). */
export function openEntrustOf(plan: OpenPlan): NewEntrust {
  const { market, command, price, lots, hold } = plan;
  return {
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
    held: hold.toString(),
    profit_price: command.profitPrice ? Dec.canonical(command.profitPrice) : null,
    loss_price: command.lossPrice ? Dec.canonical(command.lossPrice) : null,
    position_id: null,
  };
}

/** A closing order's fields: `lots` of the position at market, the other side. */
export function closeEntrustOf(market: ContractMarket, position: PositionRow, lots: Dec): NewEntrust {
  return {
    contract_id: market.contract.autoid,
    user_id: position.user_id,
    owner: position.owner,
    type: closingSide(position),
    action: 'close',
    td_mode: position.td_mode,
    lever: position.lever,
    style: 'market',
    price: null,
    number: lots.toString(),
    held: '0',
    profit_price: null,
    loss_price: null,
    position_id: position.autoid,
  };
}

/** The side that closes a position. */
export function closingSide(position: PositionRow): 'buy' | 'sell' {
  return position.type === 'buy' ? 'sell' : 'buy';
}

/** A new order's row fields beyond what the placement chose: nothing filled yet, stamped `now`. */
export function newEntrustFields(order: NewEntrust, now: number) {
  return {
    ...order,
    unfilled: order.number,
    hold_spent: '0',
    deal_money: '0',
    fee: '0',
    fee_hal: '0',
    margin: '0',
    state: 'unfilled' as const,
    cancel_reason: null,
    wdate: now,
    updated_at: now,
  };
}

/** An opening order meets the book: a limit order at its price, a market order within its budget. */
export function openOnBook(plan: OpenPlan, common: PlaceCommon): BookEvent[] {
  const { market, command, price, budget } = plan;
  if (price === null) return placeMarket(market.book, common, command.side, budget);
  // Field by field, not `{ ...common, kind, … }`: a spread followed by new fields takes V8's slow path (ledger/accounts.ts, accountKey).
  const { orderId, userId, sequence, amount } = common;
  return market.book.place({ orderId, userId, sequence, amount, kind: 'limit', side: command.side, price });
}

/** An order's fields for the book: its id, owner, time priority (its id) and lots. */
export function bookCommonOf(row: EntrustRow, lots: Dec): PlaceCommon {
  return { orderId: String(row.autoid), userId: row.owner, sequence: row.autoid, amount: lots };
}

export interface PlaceCommon {
  orderId: string;
  userId: string;
  sequence: number;
  amount: Dec;
}

/** A market order: a buy spends at most its budget when it has one. */
export function placeMarket(
  book: OrderBook,
  common: PlaceCommon,
  side: 'buy' | 'sell',
  budget: Dec | null,
): BookEvent[] {
  const { orderId, userId, sequence, amount } = common;
  if (side === 'sell') return book.place({ orderId, userId, sequence, amount, kind: 'market', side });
  return book.place(
    budget
      ? { orderId, userId, sequence, amount, kind: 'market', side, quoteBudget: budget }
      : { orderId, userId, sequence, amount, kind: 'market', side },
  );
}

/** A touched order about to be written: an open one is `section` once it traded, stamped `now`. */
export function stampOrder(row: EntrustRow, now: number): void {
  if (isOpenState(row.state))
    row.state = Dec.parse(row.unfilled).lt(Dec.parse(row.number)) ? 'section' : 'unfilled';
  row.updated_at = now;
}

/** An ended order's row (filled, or cancelled with or without fills); answers the release of its hold's rest, if any. */
export function endedOrder(
  row: EntrustRow,
  done: Extract<BookEvent, { type: 'done' }>,
  now: number,
): TransferInput | null {
  const filled = Dec.parse(row.unfilled).lt(Dec.parse(row.number));
  row.state = done.status === 'filled' ? 'all' : filled ? 'uncancel' : 'cancel';
  row.cancel_reason = done.cancelReason;
  row.updated_at = now;
  const rest = Dec.parse(row.held).sub(Dec.parse(row.hold_spent));
  return rest.isPositive() ? releaseTransfer(row.autoid) : null;
}

/** An order's filled figures after one of its trades. */
export function recordFill(row: EntrustRow, trade: TradeEvent): void {
  row.unfilled = Dec.parse(row.unfilled).sub(trade.amount).toString();
  row.deal_money = Dec.parse(row.deal_money).add(trade.quoteAmount).toString();
}

/** Opening sides settle first, then the house, then closing sides (paid from the pool the openings fund). */
export function actionRank(row: EntrustRow): number {
  if (isHouse(row.owner)) return 1;
  return row.action === 'open' ? 0 : 2;
}

export function isOpenState(state: EntrustState): boolean {
  return state === 'unfilled' || state === 'section';
}

export function tradeRow(
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
