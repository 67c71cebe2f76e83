import type { CycleResult } from '@halyard/protocol';
import type { Generated, Insertable, Selectable } from 'kysely';
import type { CycleOrderRecord } from '../../core/state/cycle-rules.ts';
import { placeholderRow, placeholderRows, SizedStatement } from '../../store/batched.ts';
import type { Executor } from '../../store/database.ts';

export type { CycleResult, CycleSide } from '@halyard/protocol';

export interface CyclePairsTable {
  autoid: Generated<number>;
  tradcoin: string;
  maincoin: string;
  price_accuracy: number;
  paycoins: string;
  sort: number;
}

export interface CycleLeversTable {
  pair_id: number;
  seconds: number;
  minnumber: string;
  maxnumber: string;
  profit_gas: string;
  loss_gas: string;
  gas: string;
}

export interface CycleOrdersTable extends Omit<CycleOrderRecord, 'orderid'> {
  orderid: Generated<number>;
}

/** The orders not settled yet: the record the settlement engine's memory is loaded from. */
export interface CycleOpenTable {
  orderid: number;
}

/** Orders whose stake is still a hold (accepted before stakes were paid in at acceptance; migration 012). */
export interface CycleHeldStakesTable {
  orderid: number;
}

/**
 * The closing tick orders were settled at, and when: one row for the orders
 * of an instant settled in one transaction (migration 013).
 */
export interface CycleClosesTable {
  id: Generated<number>;
  close_price: string;
  close_ts: number;
  close_source: string;
  settled_at: number;
  /** Void settlements only (migration 017): the tolerance the closing tick missed; null otherwise. */
  void_tolerance_ms: number | null;
}

/**
 * An order's outcome; whose and which pair's it is, is the order's, and its
 * closing tick and time are its close's (the reads join them).
 */
export interface CycleSettlementsTable {
  orderid: number;
  close_id: number;
  result: CycleResult;
  last_profit: string;
  fee: string;
}

declare module '../../store/database.ts' {
  interface Database {
    cycle_pairs: CyclePairsTable;
    cycle_levers: CycleLeversTable;
    cycle_orders: CycleOrdersTable;
    cycle_open: CycleOpenTable;
    cycle_settlements: CycleSettlementsTable;
    cycle_closes: CycleClosesTable;
    cycle_held_stakes: CycleHeldStakesTable;
  }
}

export type PairRow = Selectable<CyclePairsTable>;
export type LeverRow = Selectable<CycleLeversTable>;
export type OrderRow = Selectable<CycleOrdersTable>;
export type NewClose = Omit<Selectable<CycleClosesTable>, 'id'>;
/** An order's outcome as the reads answer it: the settlement with its close. */
export type SettlementRow = Omit<Selectable<CycleSettlementsTable>, 'close_id'> & NewClose;
export type NewOrder = Insertable<CycleOrdersTable>;
export type NewPair = Omit<Insertable<CyclePairsTable>, 'autoid'>;
export type NewLever = Omit<LeverRow, 'pair_id'>;

/** An order with its settlement, when it has one. */
export interface OrderWithSettlement {
  order: OrderRow;
  settlement: SettlementRow | null;
}

/** A settled order with its settlement. */
export interface SettledOrder {
  order: OrderRow;
  settlement: SettlementRow;
}

/** Every table of this module: the route test checks that only the order routes change them. */
export const CYCLE_TABLES = [
  'cycle_pairs',
  'cycle_levers',
  'cycle_orders',
  'cycle_open',
  'cycle_settlements',
  'cycle_closes',
  'cycle_held_stakes',
] as const;

// Postgres answers bigint columns as numbers (see store/connect.ts), SQLite
// answers integers as numbers: no conversion needed beyond Number() for safety.
function orderOf(row: OrderRow): OrderRow {
  return {
    ...row,
    orderid: Number(row.orderid),
    user_id: Number(row.user_id),
    pair_id: Number(row.pair_id),
    seconds: Number(row.seconds),
    open_ts: Number(row.open_ts),
    wdate: Number(row.wdate),
    expires_at: Number(row.expires_at),
  };
}

export async function selectPairs(db: Executor): Promise<{ pair: PairRow; levers: LeverRow[] }[]> {
  const pairs = await db.selectFrom('cycle_pairs').selectAll().orderBy('sort').orderBy('autoid').execute();
  const levers = await db.selectFrom('cycle_levers').selectAll().orderBy('seconds').execute();
  return pairs.map((pair) => ({
    pair: { ...pair, autoid: Number(pair.autoid) },
    levers: levers
      .filter((lever) => Number(lever.pair_id) === Number(pair.autoid))
      .map((lever) => ({ ...lever, pair_id: Number(lever.pair_id), seconds: Number(lever.seconds) })),
  }));
}

/** An operator's new settings of a pair: its columns, and its durations replaced (open orders keep their own terms). */
export async function replacePairSettings(
  db: Executor,
  pairId: number,
  pair: Omit<NewPair, 'tradcoin' | 'maincoin'>,
  levers: readonly NewLever[],
): Promise<void> {
  await db.updateTable('cycle_pairs').set(pair).where('autoid', '=', pairId).execute();
  await db.deleteFrom('cycle_levers').where('pair_id', '=', pairId).execute();
  if (levers.length > 0) {
    await db
      .insertInto('cycle_levers')
      .values(levers.map((lever) => ({ ...lever, pair_id: pairId })))
      .execute();
  }
}

/** A new pair with its durations (an approved listing); answers its id. */
export async function insertPair(db: Executor, pair: NewPair, levers: readonly NewLever[]): Promise<number> {
  const inserted = await db
    .insertInto('cycle_pairs')
    .values(pair)
    .returning('autoid')
    .executeTakeFirstOrThrow();
  const pairId = Number(inserted.autoid);
  await replacePairSettings(db, pairId, pair, levers);
  return pairId;
}

/** Inserts the pairs (and their levers) not yet listed; a listed pair is left as it is. */
export async function insertMissingPairs(
  db: Executor,
  rows: readonly { pair: NewPair; levers: readonly NewLever[] }[],
): Promise<void> {
  for (const { pair, levers } of rows) {
    const listed = await db
      .selectFrom('cycle_pairs')
      .select('autoid')
      .where('tradcoin', '=', pair.tradcoin)
      .where('maincoin', '=', pair.maincoin)
      .executeTakeFirst();
    if (listed) continue;
    const inserted = await db
      .insertInto('cycle_pairs')
      .values(pair)
      .returning('autoid')
      .executeTakeFirstOrThrow();
    const pairId = Number(inserted.autoid);
    await db
      .insertInto('cycle_levers')
      .values(levers.map((lever) => ({ ...lever, pair_id: pairId })))
      .execute();
  }
}

/** Writes an accepted order and lists it as open, in the caller's transaction. */
export async function insertOrder(db: Executor, order: NewOrder): Promise<OrderRow> {
  const row = await db.insertInto('cycle_orders').values(order).returningAll().executeTakeFirstOrThrow();
  const stored = orderOf(row);
  await db.insertInto('cycle_open').values({ orderid: stored.orderid }).execute();
  return stored;
}

/** The open orders whose stake is still a hold (migration 012), up to `limit`. */
export async function selectHeldStakes(db: Executor, limit: number): Promise<OrderRow[]> {
  const rows = await db
    .selectFrom('cycle_held_stakes')
    .innerJoin('cycle_orders', 'cycle_orders.orderid', 'cycle_held_stakes.orderid')
    .selectAll('cycle_orders')
    .orderBy('cycle_orders.orderid')
    .limit(limit)
    .execute();
  return rows.map(orderOf);
}

export async function deleteHeldStakes(db: Executor, orderids: readonly number[]): Promise<void> {
  if (orderids.length > 0)
    await db.deleteFrom('cycle_held_stakes').where('orderid', 'in', orderids).execute();
}

/** Every open order (the settlement engine's memory, loaded at start). */
export async function selectOpenOrders(db: Executor): Promise<OrderRow[]> {
  const rows = await db
    .selectFrom('cycle_open')
    .innerJoin('cycle_orders', 'cycle_orders.orderid', 'cycle_open.orderid')
    .selectAll('cycle_orders')
    .execute();
  return rows.map(orderOf);
}

/** Settlements that share one close (migration 013). */
export interface SettledAtClose {
  close: NewClose;
  settlements: readonly SettlementRow[];
}

const SETTLEMENT_COLUMNS = [
  'orderid',
  'close_id',
  'result',
  'last_profit',
  'fee',
] as const satisfies readonly (keyof CycleSettlementsTable)[];
// Thousands of rows per tick: statements of fixed sizes, compiled and prepared once (store/batched.ts).
const insertSettlementRows = new SizedStatement<never>(SETTLEMENT_COLUMNS.length, (db, size) =>
  db
    .insertInto('cycle_settlements')
    .values(
      placeholderRows(
        placeholderRow(SETTLEMENT_COLUMNS) as unknown as Selectable<CycleSettlementsTable>,
        size,
      ),
    )
    .compile(),
);
const deleteOpenRows = new SizedStatement<never>(1, (db, size) =>
  db.deleteFrom('cycle_open').where('orderid', 'in', placeholderRows(null, size)).compile(),
);

/** Records settlements with their closes and closes their orders, in the caller's transaction. */
export async function insertSettlements(db: Executor, atCloses: readonly SettledAtClose[]): Promise<void> {
  const closeIds: number[] = [];
  for (const { close } of atCloses) closeIds.push(await insertClose(db, close));
  const { values, orderids } = settlementValues(atCloses, closeIds);
  await insertSettlementRows.run(db, values);
  const closed = await deleteOpenRows.count(db, orderids);
  // The settling transaction read them as open; anything else is a second settler, and rolls back.
  if (closed !== orderids.length) {
    throw new Error(`cycle: ${orderids.length - closed} settled orders were not open`);
  }
}

async function insertClose(db: Executor, close: NewClose): Promise<number> {
  const { id } = await db.insertInto('cycle_closes').values(close).returning('id').executeTakeFirstOrThrow();
  return Number(id);
}

/**
 * The settlements' values in SETTLEMENT_COLUMNS' order (each with its
 * close's id, which the answered row does not carry), and their order ids.
 * Sized up front: a chunk lays out tens of thousands of values.
 */
function settlementValues(
  atCloses: readonly SettledAtClose[],
  closeIds: readonly number[],
): { values: unknown[]; orderids: number[] } {
  let count = 0;
  for (const { settlements } of atCloses) count += settlements.length;
  const values = new Array<unknown>(count * SETTLEMENT_COLUMNS.length);
  const orderids = new Array<number>(count);
  let row = 0;
  let value = 0;
  for (const [at, { settlements }] of atCloses.entries()) {
    for (const settlement of settlements) {
      // Laid out by SETTLEMENT_COLUMNS itself, so the values can never drift from the statement's columns.
      for (const column of SETTLEMENT_COLUMNS) {
        values[value++] = column === 'close_id' ? closeIds[at] : settlement[column];
      }
      orderids[row++] = settlement.orderid;
    }
  }
  return { values, orderids };
}

function toSettlement(row: SettlementRow): SettlementRow {
  return {
    ...row,
    orderid: Number(row.orderid),
    close_ts: Number(row.close_ts),
    settled_at: Number(row.settled_at),
    void_tolerance_ms: row.void_tolerance_ms === null ? null : Number(row.void_tolerance_ms),
  };
}

async function withSettlements(db: Executor, orders: OrderRow[]): Promise<OrderWithSettlement[]> {
  if (orders.length === 0) return [];
  const settlements = await db
    .selectFrom('cycle_settlements')
    .innerJoin('cycle_closes', 'cycle_closes.id', 'cycle_settlements.close_id')
    .select([
      'cycle_settlements.orderid',
      'cycle_settlements.result',
      'cycle_closes.close_price',
      'cycle_closes.close_ts',
      'cycle_closes.close_source',
      'cycle_settlements.last_profit',
      'cycle_settlements.fee',
      'cycle_closes.settled_at',
      'cycle_closes.void_tolerance_ms',
    ])
    .where(
      'cycle_settlements.orderid',
      'in',
      orders.map((order) => order.orderid),
    )
    .execute();
  const byId = new Map(settlements.map((row) => [Number(row.orderid), toSettlement(row)]));
  return orders.map((order) => ({ order, settlement: byId.get(order.orderid) ?? null }));
}

export async function selectUserOrder(
  db: Executor,
  userId: number,
  orderid: number,
): Promise<OrderWithSettlement | null> {
  const row = await db
    .selectFrom('cycle_orders')
    .selectAll()
    .where('orderid', '=', orderid)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const [found] = await withSettlements(db, [orderOf(row)]);
  return found ?? null;
}

/** The user's settled orders, of one pair or all, newest first, one page, and how many there are. */
export async function selectHistoryPage(
  db: Executor,
  userId: number,
  coins: { tradcoin: string; maincoin: string } | null,
  offset: number,
  limit: number,
): Promise<{ rows: OrderWithSettlement[]; count: number }> {
  // By the orders' (user, coins) index; the settlement's primary key tells which are settled.
  let base = db
    .selectFrom('cycle_orders')
    .innerJoin('cycle_settlements', 'cycle_settlements.orderid', 'cycle_orders.orderid')
    .where('cycle_orders.user_id', '=', userId);
  if (coins !== null) {
    base = base
      .where('cycle_orders.tradcoin', '=', coins.tradcoin)
      .where('cycle_orders.maincoin', '=', coins.maincoin);
  }
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirst();
  const rows = await base
    .selectAll('cycle_orders')
    .orderBy('cycle_orders.orderid', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  return { rows: await withSettlements(db, rows.map(orderOf)), count: Number(counted?.count ?? 0) };
}

/** The latest settled orders of a pair, newest first (the cycle screen's top orders). */
export async function selectLatestSettled(
  db: Executor,
  pairId: number,
  limit: number,
): Promise<OrderWithSettlement[]> {
  // Down the orders' (pair, id) index, past the few newest still open.
  const rows = await db
    .selectFrom('cycle_orders')
    .innerJoin('cycle_settlements', 'cycle_settlements.orderid', 'cycle_orders.orderid')
    .selectAll('cycle_orders')
    .where('cycle_orders.pair_id', '=', pairId)
    .orderBy('cycle_orders.orderid', 'desc')
    .limit(limit)
    .execute();
  return withSettlements(db, rows.map(orderOf));
}

/** Orders read per query by `selectSettledOrders` (a bound on the query's parameters). */
const SETTLED_READ_CHUNK = 1000;

/** The given orders with their settlements, in order id order; an order not settled is left out. */
export async function selectSettledOrders(
  db: Executor,
  orderids: readonly number[],
): Promise<SettledOrder[]> {
  const found: SettledOrder[] = [];
  const sorted = [...orderids].sort((a, b) => a - b);
  for (let from = 0; from < sorted.length; from += SETTLED_READ_CHUNK) {
    const rows = await db
      .selectFrom('cycle_orders')
      .selectAll()
      .where('orderid', 'in', sorted.slice(from, from + SETTLED_READ_CHUNK))
      .orderBy('orderid')
      .execute();
    for (const { order, settlement } of await withSettlements(db, rows.map(orderOf)))
      if (settlement) found.push({ order, settlement });
  }
  return found;
}

/** Every settled order with its settlement, in order id order (the replay proof reads them all). */
export async function selectSettledPage(
  db: Executor,
  afterOrderid: number,
  limit: number,
): Promise<OrderWithSettlement[]> {
  const rows = await db
    .selectFrom('cycle_settlements')
    .innerJoin('cycle_orders', 'cycle_orders.orderid', 'cycle_settlements.orderid')
    .selectAll('cycle_orders')
    .where('cycle_orders.orderid', '>', afterOrderid)
    .orderBy('cycle_orders.orderid')
    .limit(limit)
    .execute();
  return withSettlements(db, rows.map(orderOf));
}
