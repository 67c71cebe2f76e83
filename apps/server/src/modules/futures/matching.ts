// Matching: a checked order is written, its hold taken, and it meets the
// contract's book (a limit order rests what does not fill; a market order's
// rest is cancelled); cancels take orders off the book. What the book
// answers goes to settlement.
import type { BookEvent } from '@halyard/matching';
import type { Dec } from '@halyard/money';
import type { ContractMarket } from '../../core/state/futures-book.ts';
import type { OpenPlan } from '../../core/state/futures-checks.ts';
import type { CommandResult } from '../../core/state/futures-commands.ts';
import { holdTransfer } from '../../core/state/futures-legs.ts';
import {
  bookCommonOf,
  closeEntrustOf,
  closingSide,
  type NewEntrust,
  newEntrustFields,
  openEntrustOf,
  openOnBook,
  type PlaceCommon,
  placeMarket,
} from '../../core/state/futures-orders.ts';
import type { EntrustRow, PositionRow } from '../../core/state/futures-rows.ts';
import { settle } from './settlement.ts';
import type { GroupContext } from './state.ts';
import { insertEntrust } from './store.ts';

/** An opening order (the checks planned it): written, its hold taken, then through the book. */
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
