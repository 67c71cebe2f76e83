import { type Kysely, sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Spot exchange: the pairs (spec §3 "Market pair (spot)"), every order with
 * its fill totals and state (spec §4), and every trade. Balances live in the
 * ledger; an order row names its hold by the order's autoid.
 */
export const spotMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('spot_pairs')
      .addColumn('autoid', serialType(dialect), (c) => c.primaryKey())
      .addColumn('tradcoin', 'text', (c) => c.notNull())
      .addColumn('maincoin', 'text', (c) => c.notNull())
      .addColumn('price_accuracy', 'integer', (c) => c.notNull())
      .addColumn('amount_accuracy', 'integer', (c) => c.notNull())
      .addColumn('minnumber', money, (c) => c.notNull())
      .addColumn('maxnumber', money, (c) => c.notNull())
      // 1 open for trading, 0 listed but closed.
      .addColumn('state', 'integer', (c) => c.notNull())
      .addColumn('plate', 'integer', (c) => c.notNull())
      .addColumn('unit', 'text', (c) => c.notNull())
      .addColumn('maker_fee', money, (c) => c.notNull())
      .addColumn('taker_fee', money, (c) => c.notNull())
      // JSON object: locale → introduction text (GET /trad/currencyIntroduction).
      .addColumn('introduction', 'text', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull())
      .addUniqueConstraint('spot_pairs_coins', ['tradcoin', 'maincoin'])
      .execute();

    await db.schema
      .createTable('spot_orders')
      .addColumn('autoid', serialType(dialect), (c) => c.primaryKey())
      .addColumn('pair_id', 'bigint', (c) => c.notNull())
      // 0 for the house (market maker), else the user id.
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      // Who the order book sees: the user id as text, or a house role.
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('style', 'text', (c) => c.notNull())
      // The limit price; null for a market order.
      .addColumn('price', money)
      .addColumn('number', money, (c) => c.notNull())
      .addColumn('unfilled', money, (c) => c.notNull())
      // What the ledger hold reserved (quote for a buy, base for a sell) and what fills posted from it.
      .addColumn('held', money, (c) => c.notNull())
      .addColumn('hold_spent', money, (c) => c.notNull())
      .addColumn('deal_amount', money, (c) => c.notNull())
      .addColumn('deal_money', money, (c) => c.notNull())
      .addColumn('fee', money, (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('cancel_reason', 'text')
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // Open orders of a pair (restore) and of a user (entrustOrder, tradAccount).
    await db.schema
      .createIndex('spot_orders_pair_state')
      .on('spot_orders')
      .columns(['pair_id', 'state'])
      .execute();
    await db.schema
      .createIndex('spot_orders_user')
      .on('spot_orders')
      .columns(['user_id', 'state', 'autoid'])
      .execute();

    await db.schema
      .createTable('spot_trades')
      .addColumn('autoid', serialType(dialect), (c) => c.primaryKey())
      .addColumn('pair_id', 'bigint', (c) => c.notNull())
      .addColumn('maker_order_id', 'bigint', (c) => c.notNull())
      .addColumn('taker_order_id', 'bigint', (c) => c.notNull())
      .addColumn('taker_side', 'text', (c) => c.notNull())
      .addColumn('price', money, (c) => c.notNull())
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('quote_amount', money, (c) => c.notNull())
      .addColumn('buyer_fee', money, (c) => c.notNull())
      .addColumn('seller_fee', money, (c) => c.notNull())
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('spot_trades_pair')
      .on('spot_trades')
      .columns(['pair_id', 'autoid'])
      .execute();
  },
};
