import type { Generated, Selectable } from 'kysely';
import type { Executor } from '../../store/database.ts';

export interface ConvertQuotesTable {
  id: string;
  user_id: number;
  from_coin: string;
  to_coin: string;
  rate: string;
  expires_at: number;
  used_at: number | null;
}

export interface ConvertOrdersTable {
  id: Generated<number>;
  user_id: number;
  quote_id: string;
  from_coin: string;
  to_coin: string;
  consumed: string;
  received: string;
  rate: string;
  created_at: number;
}

declare module '../../store/database.ts' {
  interface Database {
    convert_quotes: ConvertQuotesTable;
    convert_orders: ConvertOrdersTable;
  }
}

export type QuoteRow = Selectable<ConvertQuotesTable>;
export type ConvertOrderRow = Selectable<ConvertOrdersTable>;

export const convertStore = {
  async insertQuotes(db: Executor, rows: QuoteRow[]): Promise<void> {
    if (rows.length > 0) await db.insertInto('convert_quotes').values(rows).execute();
  },

  async quote(db: Executor, id: string): Promise<QuoteRow | undefined> {
    return db.selectFrom('convert_quotes').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Quotes stop mattering once expired; an unused expired one is deleted (a used one stays, its order names it). */
  async pruneQuotes(db: Executor, expiredBefore: number): Promise<void> {
    await db
      .deleteFrom('convert_quotes')
      .where('expires_at', '<', expiredBefore)
      .where('used_at', 'is', null)
      .execute();
  },

  /** Uses a quote once: false when it was already used. */
  async useQuote(db: Executor, id: string, now: number): Promise<boolean> {
    const result = await db
      .updateTable('convert_quotes')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async insertOrder(db: Executor, row: Omit<ConvertOrderRow, 'id'>): Promise<ConvertOrderRow> {
    return db.insertInto('convert_orders').values(row).returningAll().executeTakeFirstOrThrow();
  },

  /** Orders numbered elsewhere (the money state's projection), in one statement. */
  async insertNumberedOrders(db: Executor, rows: ConvertOrderRow[]): Promise<void> {
    if (rows.length > 0) await db.insertInto('convert_orders').values(rows).execute();
  },

  async userOrders(db: Executor, userId: number, offset: number, limit: number): Promise<ConvertOrderRow[]> {
    return db
      .selectFrom('convert_orders')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  },
};
