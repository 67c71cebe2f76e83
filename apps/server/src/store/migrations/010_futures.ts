import { type Kysely, sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Perpetual futures: the contracts (spec §3 "Futures pair"), every order
 * (entrust) with its fill totals, every position with its margin and PnL,
 * the take-profit/stop-loss triggers, the trades and each funding round.
 * Balances live in the ledger; margin sits in the `futures_margin` system account.
 */
export const futuresMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    const money = sql.raw(moneyType(dialect));
    const serial = serialType(dialect);
    await db.schema
      .createTable('futures_contracts')
      .addColumn('autoid', serial, (c) => c.primaryKey())
      .addColumn('tradcoin', 'text', (c) => c.notNull())
      .addColumn('maincoin', 'text', (c) => c.notNull())
      .addColumn('chinaname', 'text', (c) => c.notNull())
      .addColumn('symbol', 'text', (c) => c.notNull())
      // Coins per lot.
      .addColumn('unit', money, (c) => c.notNull())
      .addColumn('minnumber', money, (c) => c.notNull())
      .addColumn('maxnumber', money, (c) => c.notNull())
      .addColumn('max_lever', 'integer', (c) => c.notNull())
      // JSON array of the leverage choices, e.g. [1,2,5,10,20,50,100].
      .addColumn('levers', 'text', (c) => c.notNull())
      .addColumn('gas', money, (c) => c.notNull())
      .addColumn('price_accuracy', 'integer', (c) => c.notNull())
      .addColumn('initial_margin_rate', money, (c) => c.notNull())
      .addColumn('maintenance_margin_rate', money, (c) => c.notNull())
      .addColumn('state', 'integer', (c) => c.notNull())
      .addColumn('plate', 'integer', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull())
      .addUniqueConstraint('futures_contracts_coins', ['tradcoin', 'maincoin'])
      .execute();

    await db.schema
      .createTable('futures_orders')
      .addColumn('autoid', serial, (c) => c.primaryKey())
      .addColumn('contract_id', 'bigint', (c) => c.notNull())
      // 0 for the house, else the user id; `owner` is who the book sees.
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      // 'open' adds to a position, 'close' reduces one (closePosition, TP/SL).
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('td_mode', 'text', (c) => c.notNull())
      .addColumn('lever', 'integer', (c) => c.notNull())
      .addColumn('style', 'text', (c) => c.notNull())
      .addColumn('price', money)
      .addColumn('number', money, (c) => c.notNull())
      .addColumn('unfilled', money, (c) => c.notNull())
      .addColumn('held', money, (c) => c.notNull())
      .addColumn('hold_spent', money, (c) => c.notNull())
      // Σ price × lots of the fills, the fees paid and the margin posted.
      .addColumn('deal_money', money, (c) => c.notNull())
      .addColumn('fee', money, (c) => c.notNull())
      .addColumn('margin', money, (c) => c.notNull())
      .addColumn('profit_price', money)
      .addColumn('loss_price', money)
      .addColumn('position_id', 'bigint')
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('cancel_reason', 'text')
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('futures_orders_user')
      .on('futures_orders')
      .columns(['user_id', 'autoid'])
      .execute();
    await db.schema
      .createIndex('futures_orders_open')
      .on('futures_orders')
      .columns(['state', 'contract_id'])
      .execute();

    await db.schema
      .createTable('futures_positions')
      .addColumn('autoid', serial, (c) => c.primaryKey())
      .addColumn('contract_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      // 'buy' long, 'sell' short.
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('td_mode', 'text', (c) => c.notNull())
      .addColumn('lever', 'integer', (c) => c.notNull())
      .addColumn('number', money, (c) => c.notNull())
      // Σ lots × unit × price of the open lots: the entry notional, exact.
      .addColumn('cost', money, (c) => c.notNull())
      .addColumn('margin', money, (c) => c.notNull())
      .addColumn('open_price', money, (c) => c.notNull())
      .addColumn('realised', money, (c) => c.notNull())
      .addColumn('fees', money, (c) => c.notNull())
      // Net funding: received positive, paid negative.
      .addColumn('funding', money, (c) => c.notNull())
      .addColumn('closed_number', money, (c) => c.notNull())
      .addColumn('close_money', money, (c) => c.notNull())
      .addColumn('close_price', money)
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .addColumn('closedate', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('futures_positions_user')
      .on('futures_positions')
      .columns(['user_id', 'state', 'autoid'])
      .execute();
    await db.schema
      .createIndex('futures_positions_state')
      .on('futures_positions')
      .columns(['state', 'contract_id'])
      .execute();

    await db.schema
      .createTable('futures_triggers')
      .addColumn('autoid', serial, (c) => c.primaryKey())
      .addColumn('position_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('profit_price', money)
      .addColumn('loss_price', money)
      // Lots to close when it fires; null closes the whole position.
      .addColumn('number', money)
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('fired_price', money)
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('futures_triggers_position')
      .on('futures_triggers')
      .columns(['position_id', 'state'])
      .execute();

    await db.schema
      .createTable('futures_trades')
      .addColumn('autoid', serial, (c) => c.primaryKey())
      .addColumn('contract_id', 'bigint', (c) => c.notNull())
      .addColumn('maker_order_id', 'bigint', (c) => c.notNull())
      .addColumn('taker_order_id', 'bigint', (c) => c.notNull())
      .addColumn('taker_side', 'text', (c) => c.notNull())
      .addColumn('price', money, (c) => c.notNull())
      .addColumn('number', money, (c) => c.notNull())
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('futures_trades_contract')
      .on('futures_trades')
      .columns(['contract_id', 'autoid'])
      .execute();

    await db.schema
      .createTable('futures_funding')
      .addColumn('autoid', serial, (c) => c.primaryKey())
      .addColumn('contract_id', 'bigint', (c) => c.notNull())
      // The start of the funding interval this round settles.
      .addColumn('slot', 'bigint', (c) => c.notNull())
      .addColumn('rate', money, (c) => c.notNull())
      .addColumn('mark', money, (c) => c.notNull())
      .addColumn('mid', money, (c) => c.notNull())
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('futures_funding_slot', ['contract_id', 'slot'])
      .execute();
  },
};
