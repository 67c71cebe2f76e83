import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../store/database.ts';

/** Spec §4 spot order states, as stored and as the API answers them. */
export const ORDER_STATES = ['unfilled', 'partial', 'filled', 'cancelled', 'partially_cancelled'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
/** The states of an order still in the book. */
export const OPEN_STATES: readonly OrderState[] = ['unfilled', 'partial'];

export interface SpotPairsTable {
  autoid: Generated<number>;
  tradcoin: string;
  maincoin: string;
  price_accuracy: number;
  amount_accuracy: number;
  minnumber: string;
  maxnumber: string;
  state: number;
  plate: number;
  unit: string;
  maker_fee: string;
  taker_fee: string;
  introduction: string;
  sort: number;
}

export interface SpotOrdersTable {
  autoid: Generated<number>;
  pair_id: number;
  user_id: number;
  owner: string;
  type: 'buy' | 'sell';
  style: 'limit' | 'market';
  price: string | null;
  number: string;
  unfilled: string;
  held: string;
  hold_spent: string;
  deal_amount: string;
  deal_money: string;
  fee: string;
  state: OrderState;
  cancel_reason: string | null;
  wdate: number;
  updated_at: number;
}

export interface SpotTradesTable {
  autoid: Generated<number>;
  pair_id: number;
  maker_order_id: number;
  taker_order_id: number;
  taker_side: 'buy' | 'sell';
  price: string;
  amount: string;
  quote_amount: string;
  buyer_fee: string;
  seller_fee: string;
  wdate: number;
}

declare module '../../store/database.ts' {
  interface Database {
    spot_pairs: SpotPairsTable;
    spot_orders: SpotOrdersTable;
    spot_trades: SpotTradesTable;
  }
}

export type PairRow = Selectable<SpotPairsTable>;
export type OrderRow = Selectable<SpotOrdersTable>;
export type TradeRow = Selectable<SpotTradesTable>;
export type OrderChanges = Pick<
  Updateable<SpotOrdersTable>,
  'unfilled' | 'hold_spent' | 'deal_amount' | 'deal_money' | 'fee' | 'state' | 'cancel_reason' | 'updated_at'
>;

export async function selectPairs(db: Executor): Promise<PairRow[]> {
  return db.selectFrom('spot_pairs').selectAll().orderBy('sort').orderBy('autoid').execute();
}

/** Inserts the pairs that are not listed yet (by trade and main coin); listed ones are left as they are. */
export async function insertMissingPairs(db: Executor, pairs: Insertable<SpotPairsTable>[]): Promise<void> {
  const listed = new Set((await selectPairs(db)).map((pair) => `${pair.tradcoin}/${pair.maincoin}`));
  const missing = pairs.filter((pair) => !listed.has(`${pair.tradcoin}/${pair.maincoin}`));
  if (missing.length > 0) await db.insertInto('spot_pairs').values(missing).execute();
}

/** The highest order autoid so far (0 when none): new orders are numbered after it. */
export async function selectMaxOrderAutoid(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('spot_orders')
    .select((eb) => eb.fn.max('autoid').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Rows per INSERT statement: well inside every engine's bound on bound parameters. */
const INSERT_CHUNK = 200;

/** Inserts orders with the autoids they were given. */
export async function insertOrders(db: Executor, orders: OrderRow[]): Promise<void> {
  for (let start = 0; start < orders.length; start += INSERT_CHUNK) {
    await db
      .insertInto('spot_orders')
      .values(orders.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}

export async function updateOrder(db: Executor, autoid: number, changes: OrderChanges): Promise<void> {
  await db.updateTable('spot_orders').set(changes).where('autoid', '=', autoid).execute();
}

export async function insertTrades(db: Executor, trades: Insertable<SpotTradesTable>[]): Promise<void> {
  for (let start = 0; start < trades.length; start += INSERT_CHUNK) {
    await db
      .insertInto('spot_trades')
      .values(trades.slice(start, start + INSERT_CHUNK))
      .execute();
  }
}

/** Every order still in the book of a pair, oldest first: what a restart restores. */
export async function selectOpenOrdersOfPair(db: Executor, pairId: number): Promise<OrderRow[]> {
  return db
    .selectFrom('spot_orders')
    .selectAll()
    .where('pair_id', '=', pairId)
    .where('state', 'in', OPEN_STATES)
    .orderBy('autoid')
    .execute();
}

export async function selectOrder(db: Executor, autoid: number): Promise<OrderRow | undefined> {
  return db.selectFrom('spot_orders').selectAll().where('autoid', '=', autoid).executeTakeFirst();
}

export interface OrderFilter {
  userId: number;
  open: boolean;
  pairId?: number | undefined;
}

function filteredOrders(db: Executor, filter: OrderFilter) {
  let query = db
    .selectFrom('spot_orders')
    .where('user_id', '=', filter.userId)
    .where('state', filter.open ? 'in' : 'not in', OPEN_STATES);
  if (filter.pairId !== undefined) query = query.where('pair_id', '=', filter.pairId);
  return query;
}

/** A page of a user's orders, newest first, and how many match in all. */
export async function selectOrderPage(
  db: Executor,
  filter: OrderFilter,
  offset: number,
  limit: number,
): Promise<{ rows: OrderRow[]; count: number }> {
  const rows = await filteredOrders(db, filter)
    .selectAll()
    .orderBy('autoid', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  const counted = await filteredOrders(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return { rows, count: Number(counted.count) };
}

/** The newest trades of a pair, newest first. */
export async function selectLatestTrades(db: Executor, pairId: number, limit: number): Promise<TradeRow[]> {
  return db
    .selectFrom('spot_trades')
    .selectAll()
    .where('pair_id', '=', pairId)
    .orderBy('autoid', 'desc')
    .limit(limit)
    .execute();
}
