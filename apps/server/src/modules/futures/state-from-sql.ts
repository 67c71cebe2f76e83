import { Dec } from '@halyard/money';
import type { MoneyState } from '../../core/state/index.ts';
import type { Executor } from '../../store/database.ts';
import { restoreFutures } from './state.ts';

/**
 * The futures part of the money state built from SQL (projection/initial-state.ts):
 * the engine's own reads (state.ts, `restoreFutures`: contracts, open
 * orders, open positions, active triggers, each contract's latest trades
 * and last funding round) handed to `FuturesState.rebuild`, every decimal as the state writes it
 * (PostgreSQL pads NUMERIC columns with zeros), and the next ids after the
 * highest the tables ever gave. `currentSlot` is the funding slot at the
 * start: a contract that never paid a round starts its clock there, as the
 * engine does at a restart. The marks are not kept: the edge's first index
 * tick after the start sends them.
 */
export async function loadFuturesState(db: Executor, state: MoneyState, currentSlot: number): Promise<void> {
  const { futures } = state;
  await restoreFutures(futures.book, db, () => currentSlot);
  const rows = [
    ...[...futures.book.markets.values()].flatMap((market) => [market.contract, ...market.trades]),
    ...futures.book.open.values(),
    ...futures.book.positions.values(),
    ...futures.book.triggers.values(),
  ];
  for (const row of rows) canonicalDecimals(row);
  // The parsed settings (unit, gas, the maintenance rate) are the rows' own values, so they need no second look.
  futures.nextOrderId = (await highestId(db, 'futures_orders')) + 1;
  futures.nextPositionId = (await highestId(db, 'futures_positions')) + 1;
  futures.nextTriggerId = (await highestId(db, 'futures_triggers')) + 1;
}

async function highestId(
  db: Executor,
  table: 'futures_orders' | 'futures_positions' | 'futures_triggers',
): Promise<number> {
  const highest = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('autoid').as('id'))
    .executeTakeFirst();
  return Number(highest?.id ?? 0);
}

/** A row's decimal texts rewritten as Dec writes them (the text columns hold no such shape). */
function canonicalDecimals(row: object): void {
  const fields = row as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields))
    if (typeof value === 'string' && /^-?\d+\.\d+$/.test(value)) fields[key] = Dec.canonical(value);
}
