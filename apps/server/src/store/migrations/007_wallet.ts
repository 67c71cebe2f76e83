import { sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The wallet (spec §3 Wallet coin entry, Withdrawal address, Deposit/withdrawal
 * record): coins per chain with their limits, deposit addresses, deposits seen
 * on chain, the withdrawal address book, withdrawals, the watcher's cursor and
 * the wallet operators' append-only audit log. Balances live in the ledger.
 */
export const walletMigration: HalyardMigration = {
  async up(db, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('wallet_coins')
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('contract', 'text', (c) => c.notNull())
      .addColumn('decimals', 'integer', (c) => c.notNull())
      .addColumn('isin', 'integer', (c) => c.notNull())
      .addColumn('isout', 'integer', (c) => c.notNull())
      .addColumn('deposit_min', money, (c) => c.notNull())
      .addColumn('withdraw_min', money, (c) => c.notNull())
      .addColumn('withdraw_max', money, (c) => c.notNull())
      .addColumn('withdraw_daily_max', money, (c) => c.notNull())
      .addColumn('withdraw_fee', money, (c) => c.notNull())
      .addColumn('approval_threshold', money, (c) => c.notNull())
      .addColumn('confirmations', 'integer', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('wallet_coins_pk', ['coin', 'chain_id'])
      .addUniqueConstraint('wallet_coins_contract', ['chain_id', 'contract'])
      .execute();

    await db.schema
      .createTable('wallet_deposit_addresses')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('hd_index', 'bigint', (c) => c.notNull().unique())
      .addColumn('address', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('wallet_deposit_addresses_user_chain', ['user_id', 'chain_id'])
      .execute();

    await db.schema
      .createTable('wallet_deposits')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('tx_hash', 'text', (c) => c.notNull())
      .addColumn('log_index', 'integer', (c) => c.notNull())
      .addColumn('block_number', 'bigint', (c) => c.notNull())
      .addColumn('block_hash', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('credit_round', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('wallet_deposits_chain_state')
      .on('wallet_deposits')
      .columns(['chain_id', 'state', 'block_number'])
      .execute();
    await db.schema
      .createIndex('wallet_deposits_user')
      .on('wallet_deposits')
      .columns(['user_id', 'coin', 'created_at'])
      .execute();

    await db.schema
      .createTable('wallet_chain_cursors')
      .addColumn('chain_id', 'integer', (c) => c.primaryKey())
      .addColumn('next_block', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('wallet_withdraw_addresses')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('remark', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('wallet_withdraw_addresses_unique', ['user_id', 'coin', 'chain_id', 'address'])
      .execute();

    await db.schema
      .createTable('wallet_withdrawals')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('coin', 'text', (c) => c.notNull())
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('fee', money, (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('tx_hash', 'text')
      .addColumn('raw_tx', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('wallet_withdrawals_state')
      .on('wallet_withdrawals')
      .columns(['state', 'id'])
      .execute();
    await db.schema
      .createIndex('wallet_withdrawals_user')
      .on('wallet_withdrawals')
      .columns(['user_id', 'coin', 'created_at'])
      .execute();

    await db.schema
      .createTable('wallet_operator_actions')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('operator', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('withdrawal_id', 'bigint', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .execute();
  },
};
