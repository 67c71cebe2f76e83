import type { OrderRow } from './store.ts';

/** Open orders kept in memory at most (TIGER_STYLE: every structure has a bound); beyond it new orders are refused. */
export const OPEN_ORDERS_MAX = 1_000_000;

/** One coin's open orders by expiry instant; `expiries` lists the instants in order. */
interface CoinOrders {
  expiries: number[];
  at: Map<number, Map<number, OrderRow>>;
}

/**
 * The open cycle orders in memory, by coin and expiry instant and by user:
 * what settlement takes when an instant comes due and what the positions
 * show, without a query. The store stays the record (`cycle_open`); this
 * mirrors it: loaded at start, an order added once its acceptance has
 * committed and removed once its settlement has.
 *
 * An instant whose orders are all settled keeps its (empty) bucket until it
 * reaches the front of `expiries`, where `due` drops it: instants come due in
 * order, so the list is trimmed from its front in one step instead of a
 * search and a shift per settled order.
 */
export class OpenOrders {
  private readonly byCoin = new Map<string, CoinOrders>();
  private readonly byUser = new Map<number, Map<number, OrderRow>>();
  private count = 0;

  constructor(private readonly max = OPEN_ORDERS_MAX) {}

  get size(): number {
    return this.count;
  }

  get full(): boolean {
    return this.count >= this.max;
  }

  clear(): void {
    this.byCoin.clear();
    this.byUser.clear();
    this.count = 0;
  }

  add(order: OrderRow): void {
    let coin = this.byCoin.get(order.tradcoin);
    if (!coin) {
      coin = { expiries: [], at: new Map() };
      this.byCoin.set(order.tradcoin, coin);
    }
    let bucket = coin.at.get(order.expires_at);
    if (!bucket) {
      bucket = new Map();
      coin.at.set(order.expires_at, bucket);
      insertSorted(coin.expiries, order.expires_at);
    }
    if (bucket.has(order.orderid)) return;
    bucket.set(order.orderid, order);
    let ofUser = this.byUser.get(order.user_id);
    if (!ofUser) {
      ofUser = new Map();
      this.byUser.set(order.user_id, ofUser);
    }
    ofUser.set(order.orderid, order);
    this.count += 1;
  }

  remove(order: OrderRow): void {
    const bucket = this.byCoin.get(order.tradcoin)?.at.get(order.expires_at);
    if (!bucket?.delete(order.orderid)) return;
    const ofUser = this.byUser.get(order.user_id);
    ofUser?.delete(order.orderid);
    if (ofUser?.size === 0) this.byUser.delete(order.user_id);
    this.count -= 1;
  }

  /**
   * Up to `limit` orders of `coin` (of every coin when null) whose expiry is
   * at or before `cut`, earliest instant first (an instant's orders in the
   * order they were accepted); they stay open until `remove`d.
   */
  due(cut: number, coin: string | null, limit: number): OrderRow[] {
    const found: OrderRow[] = [];
    const coins = coin === null ? [...this.byCoin.values()] : [this.byCoin.get(coin)];
    for (const orders of coins) {
      if (!orders) continue;
      dropSettledInstants(orders);
      for (const expiry of orders.expiries) {
        if (expiry > cut || found.length >= limit) break;
        for (const order of orders.at.get(expiry)!.values()) {
          if (found.length >= limit) break;
          found.push(order);
        }
      }
    }
    return found;
  }

  /** A user's open orders, of one pair or all, newest first. */
  ofUser(userId: number, pairId: number | null): OrderRow[] {
    const orders = [...(this.byUser.get(userId)?.values() ?? [])];
    return orders
      .filter((order) => pairId === null || order.pair_id === pairId)
      .sort((a, b) => b.orderid - a.orderid);
  }
}

/** Drops the instants at the front of `expiries` whose orders are all settled. */
function dropSettledInstants(orders: CoinOrders): void {
  let settled = 0;
  while (settled < orders.expiries.length && orders.at.get(orders.expiries[settled]!)!.size === 0) {
    orders.at.delete(orders.expiries[settled]!);
    settled += 1;
  }
  if (settled > 0) orders.expiries.splice(0, settled);
}

/** Inserts `value` into the ascending `list`; new expiries are mostly the latest, so the search starts at the end. */
function insertSorted(list: number[], value: number): void {
  if (list.length === 0 || list[list.length - 1]! <= value) {
    list.push(value);
    return;
  }
  let low = 0;
  let high = list.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  list.splice(low, 0, value);
}
