// Matching: a checked order is written, its hold taken, and it meets the
// contract's book (a limit order rests what does not fill; a market order's
// rest is cancelled); cancels take orders off the book. What the book
// answers goes to settlement.
import type { BookEvent, OrderBook } from '@halyard/matching';
import { Dec } from '@halyard/money';
import type { Insertable } from 'kysely';
import type { OpenPlan } from './checks.ts';
import type { CommandResult } from './commands.ts';
import { holdTransfer } from './ledger-plan.ts';
import { settle } from './settlement.ts';
import type { ContractMarket, GroupContext } from './state.ts';
import { type EntrustRow, type FuturesOrdersTable, insertEntrust, type PositionRow } from './store.ts';

/** The order fields a placement chooses; the rest start empty. */
type NewEntrust = Omit<
  Insertable<FuturesOrdersTable>,
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

/** An opening order (checks.ts planned it): written, its hold taken, then through the book. */
export async function placeOpen(group: GroupContext, plan: OpenPlan): Promise<CommandResult> {
  const { market, command, price, lots, hold, budget } = plan;
  const row = await insertOrder(group, {
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
  });
  if (hold.isPositive()) {
    const transfer = holdTransfer(row.autoid, command.trader.account, market.contract.maincoin, hold);
    await group.ledger.execute([transfer], group.trx);
  }
  return match(group, market, row, lots, (common) =>
    price !== null
      ? market.book.place({ ...common, kind: 'limit', side: command.side, price })
      : placeMarket(market.book, common, command.side, budget),
  );
}

/** Closes `lots` of a position with a market order through the book. */
export async function placeClose(
  group: GroupContext,
  market: ContractMarket,
  position: PositionRow,
  lots: Dec,
): Promise<CommandResult> {
  const side = position.type === 'buy' ? 'sell' : 'buy';
  const row = await insertOrder(group, {
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
    held: '0',
    profit_price: null,
    loss_price: null,
    position_id: position.autoid,
  });
  return match(group, market, row, lots, (common) => placeMarket(market.book, common, side, null));
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
  const now = group.now();
  return insertEntrust(group.trx, {
    ...order,
    unfilled: order.number,
    hold_spent: '0',
    deal_money: '0',
    fee: '0',
    fee_hal: '0',
    margin: '0',
    state: 'unfilled',
    cancel_reason: null,
    wdate: now,
    updated_at: now,
  });
}

interface PlaceCommon {
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
  const common = { orderId: String(row.autoid), userId: row.owner, sequence: row.autoid, amount: lots };
  const result = await settle(group, market, place(common), row.autoid);
  return { ...result, orders: result.orders.filter((order) => order.autoid === row.autoid) };
}

/** A market order: a buy spends at most its budget when it has one. */
function placeMarket(
  book: OrderBook,
  common: PlaceCommon,
  side: 'buy' | 'sell',
  budget: Dec | null,
): BookEvent[] {
  return side === 'buy'
    ? book.place({ ...common, kind: 'market', side: 'buy', ...(budget ? { quoteBudget: budget } : {}) })
    : book.place({ ...common, kind: 'market', side: 'sell' });
}
