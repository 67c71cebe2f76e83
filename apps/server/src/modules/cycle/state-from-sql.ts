import { Dec } from '@halyard/money';
import type { MoneyState } from '../../core/state/index.ts';
import type { Executor } from '../../store/database.ts';
import { selectHeldStakes, selectOpenOrders } from './store.ts';

/**
 * The cycle part of the money state built from SQL (projection/initial-state.ts):
 * the open orders, added in id order (the order they were accepted, which is
 * how settlement takes each instant's orders), and the next order id after
 * the highest ever given. The latest index ticks are not kept: the first tick
 * after the start has no previous one, as after a restart of the module.
 */
export async function loadCycleState(db: Executor, state: MoneyState): Promise<void> {
  if ((await selectHeldStakes(db, 1)).length > 0)
    throw new Error(
      'cycle: some open orders still have their stake as a hold (migration 012); start once on the SQL path to settle them before starting on the core',
    );
  const open = await selectOpenOrders(db);
  open.sort((a, b) => a.orderid - b.orderid);
  for (const order of open)
    state.cycle.open.add({
      ...order,
      // As the state writes decimals (PostgreSQL pads NUMERIC columns with zeros).
      number: decimalText(order.number),
      profit_gas: decimalText(order.profit_gas),
      loss_gas: decimalText(order.loss_gas),
      gas: decimalText(order.gas),
      open_price: decimalText(order.open_price),
    });
  const highest = await db
    .selectFrom('cycle_orders')
    .select((eb) => eb.fn.max('orderid').as('id'))
    .executeTakeFirst();
  state.cycle.nextOrderId = Number(highest?.id ?? 0) + 1;
}

function decimalText(value: string): string {
  return Dec.parse(String(value)).toString();
}
