// Matching: a checked order is written, its hold taken, and it meets the
// contract's book (a limit order rests what does not fill; a market order's
// rest is cancelled); cancels take orders off the book. What the book
// answers goes to settlement.
import type { BookEvent, OrderBook } from '@halyard/matching';
import { Dec } from '@halyard/money';
import type { OpenPlan } from './checks.ts';
import type { CommandResult } from './commands.ts';
import { holdTransfer } from './ledger-plan.ts';
import { settle } from './settlement.ts';
import type { ContractMarket, GroupContext } from './state.ts';
import { type EntrustRow, insertEntrust, type PositionRow } from './store.ts';

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

/** An opening order's fields, as checks.ts planned it (the engine and the money state write the same row). */
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
    profit_price: command.profitPrice ? Dec.parse(command.profitPrice).toString() : null,
    loss_price: command.lossPrice ? Dec.parse(command.lossPrice).toString() : null,
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
  return price !== null
    ? market.book.place({ ...common, kind: 'limit', side: command.side, price })
    : placeMarket(market.book, common, command.side, budget);
}

/** An order's fields for the book: its id, owner, time priority (its id) and lots. */
export function bookCommonOf(row: EntrustRow, lots: Dec): PlaceCommon {
  return { orderId: String(row.autoid), userId: row.owner, sequence: row.autoid, amount: lots };
}

/** An opening order (checks.ts planned it): written, its hold taken, then through the book. */
export async function placeOpen(group: GroupContext, plan: OpenPlan): Promise<CommandResult> {
  const { market, command, lots, hold } = plan;
  const row = await insertOrder(group, openEntrustOf(plan));
  if (hold.isPositive()) {
    const transfer = holdTransfer(row.autoid, command.trader.account, market.contract.maincoin, hold);
    await group.ledger.execute([transfer], group.trx);
  }
  return match(group, market, row, lots, (common) => openOnBook(plan, common));
}

/** Closes `lots` of a position with a market order through the book. */
export async function placeClose(
  group: GroupContext,
  market: ContractMarket,
  position: PositionRow,
  lots: Dec,
): Promise<CommandResult> {
  const row = await insertOrder(group, closeEntrustOf(market, position, lots));
  return match(group, market, row, lots, (common) =>
    placeMarket(market.book, common, closingSide(position), null),
  );
}

export async function cancelOrder(
  group: GroupContext,
  market: ContractMarket,
  row: EntrustRow,
): Promise<CommandResult> {
  const events = market.book.cancel({ kind: 'cancel', orderId: String(row.autoid), userId: row.owner });
  return settle(group, market, events);
}

/** Cancels every resting order of an owner in every book (a cross liquidation starts here). */
export async function cancelAllOf(group: GroupContext, owner: string): Promise<void> {
  for (const market of group.state.markets.values()) {
    const events = market.book.cancelAll({ kind: 'cancelAll', userId: owner });
    if (events.length > 0) await settle(group, market, events);
  }
}

async function insertOrder(group: GroupContext, order: NewEntrust): Promise<EntrustRow> {
  return insertEntrust(group.trx, newEntrustFields(order, group.now()));
}

export interface PlaceCommon {
  orderId: string;
  userId: string;
  sequence: number;
  amount: Dec;
}

/** The new order joins the open ones and meets the book; answers it settled (the other orders it touched left out). */
async function match(
  group: GroupContext,
  market: ContractMarket,
  row: EntrustRow,
  lots: Dec,
  place: (common: PlaceCommon) => BookEvent[],
): Promise<CommandResult> {
  group.state.open.set(row.autoid, row);
  const result = await settle(group, market, place(bookCommonOf(row, lots)), row.autoid);
  return { ...result, orders: result.orders.filter((order) => order.autoid === row.autoid) };
}

/** A market order: a buy spends at most its budget when it has one. */
export function placeMarket(
  book: OrderBook,
  common: PlaceCommon,
  side: 'buy' | 'sell',
  budget: Dec | null,
): BookEvent[] {
  return side === 'buy'
    ? book.place({ ...common, kind: 'market', side: 'buy', ...(budget ? { quoteBudget: budget } : {}) })
    : book.place({ ...common, kind: 'market', side: 'sell' });
}
