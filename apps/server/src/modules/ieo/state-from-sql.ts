import { Dec } from '@halyard/money';
import { decodeIeo, type IeoSnapshot } from '../../core/state/ieo.ts';
import type { MoneyState } from '../../core/state/index.ts';
import type { Executor } from '../../store/database.ts';
import { ieoSaleTermsOf } from './service.ts';

/**
 * The IEO part of the money state built from SQL (projection/initial-state.ts):
 * every sale with its terms as the edge sends them (ieoSaleTermsOf), its
 * state and sold count; every order; the FCFS rebates still owed; the
 * tranches not released in full; the next order id after the highest given.
 * Amounts are written as the state writes them (Dec's text), so a database's
 * padded NUMERIC text does not reach the state. A sale caught calculating or
 * distributing (a crash of the module) is taken as it stands, and the clock's
 * next `ieoAdvance` carries on: the allocation, then a batch a command.
 */
export async function loadIeoState(db: Executor, state: MoneyState): Promise<void> {
  const projects = await db.selectFrom('ieo_projects').selectAll().orderBy('id').execute();
  const orders = await db.selectFrom('ieo_orders').selectAll().orderBy('id').execute();
  const owed = await db
    .selectFrom('ieo_rebates')
    .selectAll()
    .where('state', '=', 'owed')
    .orderBy('order_id')
    .execute();
  const tranches = await db
    .selectFrom('ieo_tranches')
    .innerJoin('ieo_orders', 'ieo_orders.id', 'ieo_tranches.order_id')
    .innerJoin('ieo_projects', 'ieo_projects.id', 'ieo_orders.project_id')
    .selectAll('ieo_tranches')
    .select('ieo_projects.token_decimals')
    .where('ieo_tranches.released_at', 'is', null)
    .orderBy('ieo_tranches.order_id')
    .orderBy('ieo_tranches.seq')
    .execute();
  const orderIds = new Map<number, number[]>();
  for (const order of orders) {
    const projectId = Number(order.project_id);
    const ids = orderIds.get(projectId) ?? [];
    ids.push(Number(order.id));
    orderIds.set(projectId, ids);
  }
  const snapshot: IeoSnapshot = {
    nextOrderId: (orders.at(-1) ? Number(orders.at(-1)!.id) : 0) + 1,
    sales: projects.map((row) => ({
      projectId: Number(row.id),
      terms: ieoSaleTermsOf(row),
      salt: row.salt,
      state: row.state,
      sold: Dec.canonical(row.sold),
      orderIds: orderIds.get(Number(row.id)) ?? [],
    })),
    orders: orders.map((row) => ({
      id: Number(row.id),
      project_id: Number(row.project_id),
      user_id: Number(row.user_id),
      paycoin: row.paycoin,
      price: Dec.canonical(row.price),
      amount: Dec.canonical(row.amount),
      holds: Number(row.holds),
      spent: Dec.canonical(row.spent),
      refund: Dec.canonical(row.refund),
      tokens: Dec.canonical(row.tokens),
      gift: Dec.canonical(row.gift),
      state: row.state,
      anon_id: row.anon_id,
      served_round: row.served_round === null ? null : Number(row.served_round),
      created_at: Number(row.created_at),
    })),
    owed: owed.map((row) => ({
      orderId: Number(row.order_id),
      inviterId: Number(row.inviter_id),
      amount: Dec.canonical(row.amount),
    })),
    tranches: tranches.map((row) => ({
      orderId: Number(row.order_id),
      seq: Number(row.seq),
      releaseAt: Number(row.release_at),
      until: row.until === null ? null : Number(row.until),
      amount: Dec.canonical(row.amount),
      released: Dec.canonical(row.released_amount),
      nextReleaseAt: Number(row.next_release_at),
      tokenDecimals: Number(row.token_decimals),
    })),
  };
  state.ieo = decodeIeo(snapshot);
}
