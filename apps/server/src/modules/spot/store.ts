import type { Generated, Insertable, Selectable } from 'kysely';
import { placeholderRow, placeholderRows, SizedStatement, valuesOf } from '../../store/batched.ts';
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
  /** HAL paid for fills whose fee was deducted in HAL (migration 031; `fee` holds the rest, in the coin received). */
  fee_hal: string;
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
  /** The coin each fee was paid in: the coin received, or HAL when deducted (null on trades before migration 031). */
  buyer_fee_coin: string | null;
  seller_fee_coin: string | null;
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
export type NewTradeRow = Insertable<SpotTradesTable>;

export async function selectPairs(db: Executor): Promise<PairRow[]> {
  return db.selectFrom('spot_pairs').selectAll().orderBy('sort').orderBy('autoid').execute();
}

export async function selectPair(db: Executor, id: number): Promise<PairRow | undefined> {
  return db.selectFrom('spot_pairs').selectAll().where('autoid', '=', id).executeTakeFirst();
}

/** The settings an operator may change (the back office); the coins and the texts stay. */
export async function updatePairSettings(db: Executor, pair: PairRow): Promise<void> {
  await db
    .updateTable('spot_pairs')
    .set({
      price_accuracy: pair.price_accuracy,
      amount_accuracy: pair.amount_accuracy,
      minnumber: pair.minnumber,
      maxnumber: pair.maxnumber,
      maker_fee: pair.maker_fee,
      taker_fee: pair.taker_fee,
      state: pair.state,
      sort: pair.sort,
    })
    .where('autoid', '=', pair.autoid)
    .execute();
}

/** A new pair (an approved listing); answers its id. */
export async function insertPair(db: Executor, pair: Insertable<SpotPairsTable>): Promise<number> {
  const row = await db.insertInto('spot_pairs').values(pair).returning('autoid').executeTakeFirstOrThrow();
  return Number(row.autoid);
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

const ORDER_COLUMNS = [
  'autoid',
  'pair_id',
  'user_id',
  'owner',
  'type',
  'style',
  'price',
  'number',
  'unfilled',
  'held',
  'hold_spent',
  'deal_amount',
  'deal_money',
  'fee',
  'fee_hal',
  'state',
  'cancel_reason',
  'wdate',
  'updated_at',
] as const satisfies readonly (keyof OrderRow)[];
const TRADE_COLUMNS = [
  'pair_id',
  'maker_order_id',
  'taker_order_id',
  'taker_side',
  'price',
  'amount',
  'quote_amount',
  'buyer_fee',
  'seller_fee',
  'buyer_fee_coin',
  'seller_fee_coin',
  'wdate',
] as const satisfies readonly (keyof NewTradeRow)[];

// Multi-row statements compiled once per store and size (store/batched.ts).
const upsertOrderRows = new SizedStatement<never>(ORDER_COLUMNS.length, (db, size) =>
  db
    .insertInto('spot_orders')
    .values(placeholderRows(placeholderRow(ORDER_COLUMNS) as unknown as OrderRow, size))
    .onConflict((oc) =>
      oc.column('autoid').doUpdateSet((eb) => ({
        unfilled: eb.ref('excluded.unfilled'),
        hold_spent: eb.ref('excluded.hold_spent'),
        deal_amount: eb.ref('excluded.deal_amount'),
        deal_money: eb.ref('excluded.deal_money'),
        fee: eb.ref('excluded.fee'),
        fee_hal: eb.ref('excluded.fee_hal'),
        state: eb.ref('excluded.state'),
        cancel_reason: eb.ref('excluded.cancel_reason'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .compile(),
);
const insertTradeRows = new SizedStatement<never>(TRADE_COLUMNS.length, (db, size) =>
  db
    .insertInto('spot_trades')
    .values(placeholderRows(placeholderRow(TRADE_COLUMNS) as unknown as NewTradeRow, size))
    .compile(),
);

/**
 * Writes orders as they stand: a new one is inserted with the autoid it was
 * given, a stored one gets its fill, state and times updated.
 */
export async function saveOrders(db: Executor, orders: readonly OrderRow[]): Promise<void> {
  await upsertOrderRows.run(db, valuesOf(orders, ORDER_COLUMNS));
}

/** Inserts trades; the store numbers them (an `autoid` given is not written). */
export async function insertTrades(db: Executor, trades: readonly NewTradeRow[]): Promise<void> {
  await insertTradeRows.run(db, valuesOf(trades, TRADE_COLUMNS));
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
