import { sql } from 'kysely';
import { moneyType, serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The ledger (DESIGN §4): accounts with four running totals, insert-only
 * transfers, and what each hold still reserves. Money columns are lossless
 * (decimal text on SQLite, NUMERIC on PostgreSQL); times are milliseconds.
 */
export const ledgerMigration: HalyardMigration = {
  async up(db, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema
      .createTable('ledger_accounts')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('asset', 'text', (c) => c.notNull())
      .addColumn('wallet', 'text', (c) => c.notNull())
      .addColumn('may_go_negative', 'integer', (c) => c.notNull())
      .addColumn('debits_posted', money, (c) => c.notNull())
      .addColumn('credits_posted', money, (c) => c.notNull())
      .addColumn('debits_pending', money, (c) => c.notNull())
      .addColumn('credits_pending', money, (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('ledger_accounts_key', ['owner', 'asset', 'wallet'])
      .execute();

    await db.schema
      .createTable('ledger_transfers')
      .addColumn('seq', serialType(dialect), (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('debit_account_id', 'bigint', (c) => c.notNull().references('ledger_accounts.id'))
      .addColumn('credit_account_id', 'bigint', (c) => c.notNull().references('ledger_accounts.id'))
      .addColumn('asset', 'text', (c) => c.notNull())
      .addColumn('amount', money, (c) => c.notNull())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('reference', 'text')
      .addColumn('pending_id', 'text', (c) => c.references('ledger_transfers.id'))
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .execute();
    // An account's history, newest first, is read from both sides.
    await db.schema
      .createIndex('ledger_transfers_debit')
      .on('ledger_transfers')
      .columns(['debit_account_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('ledger_transfers_credit')
      .on('ledger_transfers')
      .columns(['credit_account_id', 'seq'])
      .execute();
    await db.schema
      .createIndex('ledger_transfers_pending')
      .on('ledger_transfers')
      .column('pending_id')
      .execute();
    await db.schema
      .createIndex('ledger_transfers_reference')
      .on('ledger_transfers')
      .column('reference')
      .execute();

    await db.schema
      .createTable('ledger_holds')
      .addColumn('transfer_id', 'text', (c) => c.primaryKey().references('ledger_transfers.id'))
      .addColumn('remaining', money, (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .execute();
  },
};
