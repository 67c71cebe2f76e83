import type { CycleOrderRecord as OrderRow } from './cycle-rules.ts';

/** Open orders kept in memory at most (TIGER_STYLE: every structure has a bound); beyond it new orders are refused. */
export const OPEN_ORDERS_MAX = 1_000_000;

/** The orders of one coin expiring at one instant; those from `taken` on are still open. */
export interface DueInstant {
  coin: string;
  expiresAt: number;
  orders: OrderRow[];
}

interface Instant {
  orders: OrderRow[];
  taken: number;
}

/** One coin's open orders by expiry instant; `expiries` lists the instants in order. */
interface CoinOrders {
  expiries: number[];
  at: Map<number, Instant>;
}

/**
 * The open cycle orders in memory, by coin and expiry instant and by user:
 * what settlement takes when an instant comes due and what the positions
 * show, without a query. The store stays the record (`cycle_open`); this
 * mirrors it: loaded at start, an order added once its acceptance has
 * committed, and taken when settlement starts on it (a settlement that fails
 * reloads the memory from the store).
 *
 * Instants come due in order and their orders are taken in the order they
 * were added, so each instant is a list with a cursor and an instant taken
 * whole leaves the front of `expiries`, many in one step.
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
    let ofUser = this.byUser.get(order.user_id);
    if (ofUser?.has(order.orderid)) return;
    if (!ofUser) {
      ofUser = new Map();
      this.byUser.set(order.user_id, ofUser);
    }
    ofUser.set(order.orderid, order);
    let coin = this.byCoin.get(order.tradcoin);
    if (!coin) {
      coin = { expiries: [], at: new Map() };
      this.byCoin.set(order.tradcoin, coin);
    }
    let instant = coin.at.get(order.expires_at);
    if (!instant) {
      instant = { orders: [], taken: 0 };
      coin.at.set(order.expires_at, instant);
      insertSorted(coin.expiries, order.expires_at);
    }
    instant.orders.push(order);
    this.count += 1;
  }

  /**
   * Takes up to `limit` orders of `coin` (of every coin when null) whose
   * expiry is at or before `cut`, earliest instant first, grouped by instant.
   */
  take(cut: number, coin: string | null, limit: number): DueInstant[] {
    const taken: DueInstant[] = [];
    let left = limit;
    const coins = coin === null ? [...this.byCoin.entries()] : [[coin, this.byCoin.get(coin)] as const];
    for (const [name, orders] of coins) {
      if (!orders) continue;
      for (const expiresAt of orders.expiries) {
        if (expiresAt > cut || left === 0) break;
        const instant = orders.at.get(expiresAt)!;
        const end = Math.min(instant.orders.length, instant.taken + left);
        if (end === instant.taken) continue;
        const part = instant.orders.slice(instant.taken, end);
        instant.taken = end;
        left -= part.length;
        for (const order of part) this.forgetOfUser(order);
        taken.push({ coin: name, expiresAt, orders: part });
      }
      dropTakenInstants(orders);
    }
    this.count -= limit - left;
    return taken;
  }

  /**
   * Every open order in the order `take` would take them (by coin name, then
   * by instant, as added): what a snapshot keeps. By name, not by when a coin
   * was first seen, so a loaded state lists them as the state it came from.
   */
  orders(): OrderRow[] {
    const all: OrderRow[] = [];
    for (const name of [...this.byCoin.keys()].sort()) {
      const coin = this.byCoin.get(name)!;
      for (const expiresAt of coin.expiries) {
        const instant = coin.at.get(expiresAt)!;
        for (let at = instant.taken; at < instant.orders.length; at += 1) all.push(instant.orders[at]!);
      }
    }
    return all;
  }

  /** The earliest expiry of `coin`'s open orders, or null when none is open. */
  earliestExpiry(coin: string): number | null {
    return this.byCoin.get(coin)?.expiries[0] ?? null;
  }

  /** The coins with open orders. */
  coins(): string[] {
    return [...this.byCoin].filter(([, orders]) => orders.expiries.length > 0).map(([name]) => name);
  }

  /** A user's open orders, of one pair or all, newest first. */
  ofUser(userId: number, pairId: number | null): OrderRow[] {
    const orders = [...(this.byUser.get(userId)?.values() ?? [])];
    return orders
      .filter((order) => pairId === null || order.pair_id === pairId)
      .sort((a, b) => b.orderid - a.orderid);
  }

  private forgetOfUser(order: OrderRow): void {
    const ofUser = this.byUser.get(order.user_id)!;
    ofUser.delete(order.orderid);
    if (ofUser.size === 0) this.byUser.delete(order.user_id);
  }
}

/** Drops the instants at the front of `expiries` whose orders are all taken. */
function dropTakenInstants(orders: CoinOrders): void {
  let done = 0;
  for (; done < orders.expiries.length; done += 1) {
    const expiresAt = orders.expiries[done]!;
    const instant = orders.at.get(expiresAt)!;
    if (instant.taken < instant.orders.length) break;
    orders.at.delete(expiresAt);
  }
  if (done > 0) orders.expiries.splice(0, done);
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
