import type { FiatAppealKind, FiatOrderState, FiatPriceType } from '@halyard/protocol';
import type { Generated, Insertable, Selectable } from 'kysely';
import type { Executor } from '../../store/database.ts';

export interface FiatMerchantsTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  demo_key: string | null;
  completed: number;
  orders: number;
  release_ms_total: number;
  created_at: number;
  /** 'review' (an application), 'approved' (trades), 'rejected'. */
  state: Generated<'review' | 'approved' | 'rejected'>;
  /** The ledger hold of the security deposit, once approved (null for the house). */
  deposit_hold: string | null;
}

export interface FiatAdsTable {
  id: Generated<number>;
  merchant_id: number;
  side: 'buy' | 'sell';
  coin: string;
  fiat: string;
  price: string;
  min_amount: string;
  max_amount: string;
  available: string;
  methods: string;
  window_ms: number;
  online: number;
  demo_key: string | null;
  created_at: number;
  /** The ledger hold on `available` while a sell ad (side 'buy') is live; null otherwise. */
  hold_id: string | null;
  /** How many holds the ad has had: the next one is named after it (ids are unique forever). */
  hold_seq: Generated<number>;
  /** 'fixed', or 'floating': `price` is refreshed from the index × (1 + premium %). */
  price_type: Generated<FiatPriceType>;
  /** A floating ad's premium over the index, in percent; null for a fixed price. */
  premium: string | null;
  /** Free-text terms shown to users (plain text). */
  terms: Generated<string>;
}

export interface FiatOrdersTable {
  id: Generated<number>;
  side: 'buy' | 'sell';
  user_id: number;
  merchant_id: number;
  ad_id: number;
  coin: string;
  fiat: string;
  price: string;
  amount: string;
  number: string;
  pay_type: string;
  payee: string;
  pay_img: string | null;
  state: FiatOrderState;
  hold_id: string;
  expires_at: number;
  paid_at: number | null;
  appeal_by: string | null;
  appeal_reason: string | null;
  /** What the appeal is about (null before an appeal, and for appeals from before kinds existed: 'other'). */
  appeal_kind: FiatAppealKind | null;
  closed_at: number | null;
  created_at: number;
  /** The ad's terms when the order was made. */
  terms: Generated<string>;
}

export interface FiatOrderEventsTable {
  id: Generated<number>;
  order_id: number;
  state: FiatOrderState;
  by_whom: string;
  at: number;
  reason: string;
}

export interface FiatBansTable {
  id: Generated<number>;
  user_id: number;
  rule: 'unpaid' | 'cancels';
  order_id: number | null;
  reason_key: string;
  reason_params: string;
  starts_at: number;
  ends_at: number;
}

export interface FiatMessagesTable {
  id: Generated<number>;
  order_id: number;
  by_whom: string;
  user_id: number | null;
  text: string;
  img: string | null;
  at: number;
}

declare module '../../store/database.ts' {
  interface Database {
    fiat_messages: FiatMessagesTable;
    fiat_merchants: FiatMerchantsTable;
    fiat_ads: FiatAdsTable;
    fiat_orders: FiatOrdersTable;
    fiat_order_events: FiatOrderEventsTable;
    fiat_bans: FiatBansTable;
  }
}

export type MerchantRow = Selectable<FiatMerchantsTable>;
export type AdRow = Selectable<FiatAdsTable>;
export type OrderRow = Selectable<FiatOrdersTable>;
export type EventRow = Selectable<FiatOrderEventsTable>;
export type BanRow = Selectable<FiatBansTable>;
export type MessageRow = Selectable<FiatMessagesTable>;

/** States in which an order is still open (its escrow is held). */
export const OPEN_STATES: readonly FiatOrderState[] = ['to_pay', 'paid', 'appeal'];
const DAY_MS = 86_400_000;

export const fiatStore = {
  merchant(db: Executor, id: number): Promise<MerchantRow | undefined> {
    return db.selectFrom('fiat_merchants').selectAll().where('id', '=', id).executeTakeFirst();
  },

  merchantByDemoKey(db: Executor, key: string): Promise<MerchantRow | undefined> {
    return db.selectFrom('fiat_merchants').selectAll().where('demo_key', '=', key).executeTakeFirst();
  },

  merchantOfUser(db: Executor, userId: number): Promise<MerchantRow | undefined> {
    return db.selectFrom('fiat_merchants').selectAll().where('user_id', '=', userId).executeTakeFirst();
  },

  async insertMerchant(db: Executor, row: Insertable<FiatMerchantsTable>): Promise<MerchantRow> {
    return db.insertInto('fiat_merchants').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async countMerchantOrder(db: Executor, id: number): Promise<void> {
    const merchant = await fiatStore.merchant(db, id);
    if (!merchant) return;
    await db
      .updateTable('fiat_merchants')
      .set({ orders: Number(merchant.orders) + 1 })
      .where('id', '=', id)
      .execute();
  },

  async countMerchantRelease(db: Executor, id: number, releaseMs: number): Promise<void> {
    const merchant = await fiatStore.merchant(db, id);
    if (!merchant) return;
    await db
      .updateTable('fiat_merchants')
      .set({
        completed: Number(merchant.completed) + 1,
        release_ms_total: Number(merchant.release_ms_total) + releaseMs,
      })
      .where('id', '=', id)
      .execute();
  },

  ad(db: Executor, id: number): Promise<AdRow | undefined> {
    return db.selectFrom('fiat_ads').selectAll().where('id', '=', id).executeTakeFirst();
  },

  adByDemoKey(db: Executor, key: string): Promise<AdRow | undefined> {
    return db.selectFrom('fiat_ads').selectAll().where('demo_key', '=', key).executeTakeFirst();
  },

  async insertAd(db: Executor, row: Insertable<FiatAdsTable>): Promise<AdRow> {
    return db.insertInto('fiat_ads').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** An ad the money state refused to hold (on the core), taken back: it never went live. */
  async deleteAd(db: Executor, id: number): Promise<void> {
    await db.deleteFrom('fiat_ads').where('id', '=', id).where('online', '=', 0).execute();
  },

  adsOfMerchant(db: Executor, merchantId: number): Promise<AdRow[]> {
    return db
      .selectFrom('fiat_ads')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .orderBy('id')
      .execute();
  },

  /** Merchants and applications, newest first, in one state or all. */
  merchants(db: Executor, state: MerchantRow['state'] | undefined, limit: number): Promise<MerchantRow[]> {
    let query = db.selectFrom('fiat_merchants').selectAll();
    if (state) query = query.where('state', '=', state);
    return query.orderBy('id', 'desc').limit(limit).execute();
  },

  /** When each of these merchants was approved or rejected: the audit entry decideMerchant wrote. */
  async decidedAt(db: Executor, userIds: readonly number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('operator_audit_log')
      .select(['user_id', 'at'])
      .where('action', 'in', ['fiat.merchant.approve', 'fiat.merchant.reject'])
      .where('user_id', 'in', userIds)
      .execute();
    return new Map(rows.map((row) => [Number(row.user_id), Number(row.at)]));
  },

  /** Ads, newest first, of one merchant or all, online or offline or both. */
  ads(db: Executor, filter: { merchantId?: number; online?: boolean }, limit: number): Promise<AdRow[]> {
    let query = db.selectFrom('fiat_ads').selectAll();
    if (filter.merchantId !== undefined) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.online !== undefined) query = query.where('online', '=', filter.online ? 1 : 0);
    return query.orderBy('id', 'desc').limit(limit).execute();
  },

  async decideMerchant(
    db: Executor,
    id: number,
    state: 'approved' | 'rejected',
    depositHold: string | null,
  ): Promise<boolean> {
    const result = await db
      .updateTable('fiat_merchants')
      .set({ state, deposit_hold: depositHold })
      .where('id', '=', id)
      .where('state', '=', 'review')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /** Orders of a merchant, newest first. */
  merchantOrders(db: Executor, merchantId: number, limit: number): Promise<OrderRow[]> {
    return db
      .selectFrom('fiat_orders')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  async updateAd(
    db: Executor,
    id: number,
    values: Partial<
      Pick<
        AdRow,
        | 'price'
        | 'price_type'
        | 'premium'
        | 'min_amount'
        | 'max_amount'
        | 'available'
        | 'methods'
        | 'online'
        | 'hold_id'
        | 'hold_seq'
      >
    >,
  ): Promise<void> {
    await db.updateTable('fiat_ads').set(values).where('id', '=', id).execute();
  },

  floatingAds(db: Executor): Promise<AdRow[]> {
    return db.selectFrom('fiat_ads').selectAll().where('price_type', '=', 'floating').orderBy('id').execute();
  },

  onlineAds(db: Executor): Promise<AdRow[]> {
    return db.selectFrom('fiat_ads').selectAll().where('online', '=', 1).orderBy('id').execute();
  },

  adsFor(db: Executor, coin: string, fiat: string, side: 'buy' | 'sell'): Promise<AdRow[]> {
    return db
      .selectFrom('fiat_ads')
      .selectAll()
      .where('coin', '=', coin)
      .where('fiat', '=', fiat)
      .where('side', '=', side)
      .where('online', '=', 1)
      .execute();
  },

  async insertOrder(db: Executor, row: Insertable<FiatOrdersTable>): Promise<OrderRow> {
    return db.insertInto('fiat_orders').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async updateOrderHold(db: Executor, id: number, holdId: string): Promise<void> {
    await db.updateTable('fiat_orders').set({ hold_id: holdId }).where('id', '=', id).execute();
  },

  order(db: Executor, id: number): Promise<OrderRow | undefined> {
    return db.selectFrom('fiat_orders').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /**
   * Moves an order from one of `from` to `to`: false when it is in none of
   * them any more (someone else moved it first). The only writer of `state`.
   */
  async moveState(
    db: Executor,
    id: number,
    from: readonly FiatOrderState[],
    to: FiatOrderState,
    values: Partial<
      Pick<OrderRow, 'pay_img' | 'paid_at' | 'appeal_by' | 'appeal_reason' | 'appeal_kind' | 'closed_at'>
    > = {},
    notExpiredAt?: number,
  ): Promise<boolean> {
    let query = db
      .updateTable('fiat_orders')
      .set({ ...values, state: to })
      .where('id', '=', id)
      .where('state', 'in', from);
    if (notExpiredAt !== undefined) query = query.where('expires_at', '>', notExpiredAt);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  userOrders(db: Executor, userId: number, offset: number, limit: number): Promise<OrderRow[]> {
    return db
      .selectFrom('fiat_orders')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  },

  async openOrderOf(db: Executor, userId: number): Promise<OrderRow | undefined> {
    return db
      .selectFrom('fiat_orders')
      .selectAll()
      .where('user_id', '=', userId)
      .where('state', 'in', OPEN_STATES)
      .executeTakeFirst();
  },

  dueForExpiry(db: Executor, now: number, limit: number): Promise<OrderRow[]> {
    return db
      .selectFrom('fiat_orders')
      .selectAll()
      .where('state', '=', 'to_pay')
      .where('expires_at', '<=', now)
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  ordersOfMerchantIn(db: Executor, merchantId: number, state: FiatOrderState): Promise<OrderRow[]> {
    return db
      .selectFrom('fiat_orders')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('state', '=', state)
      .orderBy('id')
      .execute();
  },

  async appealCount(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('fiat_orders')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('state', '=', 'appeal')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  appeals(db: Executor, limit: number): Promise<OrderRow[]> {
    return db
      .selectFrom('fiat_orders')
      .selectAll()
      .where('state', '=', 'appeal')
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  async insertEvent(db: Executor, row: Insertable<FiatOrderEventsTable>): Promise<void> {
    await db.insertInto('fiat_order_events').values(row).execute();
  },

  events(db: Executor, orderIds: readonly number[]): Promise<EventRow[]> {
    if (orderIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('fiat_order_events')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .orderBy('id')
      .execute();
  },

  /** How many orders this user cancelled as the buyer within the day before `now`. */
  async cancelsWithinDay(db: Executor, userId: number, now: number): Promise<number> {
    const row = await db
      .selectFrom('fiat_order_events')
      .innerJoin('fiat_orders', 'fiat_orders.id', 'fiat_order_events.order_id')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('fiat_orders.user_id', '=', userId)
      .where('fiat_order_events.state', '=', 'cancelled')
      .where('fiat_order_events.by_whom', '=', 'buyer')
      .where('fiat_order_events.at', '>', now - DAY_MS)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  },

  async insertBan(db: Executor, row: Insertable<FiatBansTable>): Promise<void> {
    await db.insertInto('fiat_bans').values(row).execute();
  },

  /** Bans that started within the day before `now`, newest first. */
  bansWithinDay(db: Executor, userId: number, now: number): Promise<BanRow[]> {
    return db
      .selectFrom('fiat_bans')
      .selectAll()
      .where('user_id', '=', userId)
      .where('starts_at', '>', now - DAY_MS)
      .orderBy('starts_at', 'desc')
      .execute();
  },

  recentBans(db: Executor, userId: number, limit: number): Promise<BanRow[]> {
    return db
      .selectFrom('fiat_bans')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  async insertMessage(db: Executor, row: Insertable<FiatMessagesTable>): Promise<void> {
    await db.insertInto('fiat_messages').values(row).execute();
  },

  /** The last `limit` messages of orders, oldest first. */
  async messages(db: Executor, orderIds: readonly number[], limit: number): Promise<MessageRow[]> {
    if (orderIds.length === 0) return [];
    const rows = await db
      .selectFrom('fiat_messages')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse();
  },

  message(db: Executor, id: number): Promise<MessageRow | undefined> {
    return db.selectFrom('fiat_messages').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async appendAudit(
    db: Executor,
    entry: {
      at: number;
      operator: string;
      operator_id: number | null;
      action: string;
      /** Null when the subject is no user's (the house merchant). */
      user_id: number | null;
      details: string;
    },
  ): Promise<void> {
    await db.insertInto('operator_audit_log').values(entry).execute();
  },
};
