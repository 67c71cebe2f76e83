import { serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The login history an operator reads on a user's page (issue 18, users
 * screen): every sign-in attempt by password, wallet or registration, with
 * its time, client address, user agent and result. A failure for an account
 * nobody has keeps the account it named and no user. Sessions also keep the
 * client address and user agent they were opened from, so the sessions list
 * says where each one is.
 */
export const loginHistoryMigration: HalyardMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('login_history')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('user_id', 'bigint')
      .addColumn('account', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('result', 'text', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('device', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('login_history_user')
      .on('login_history')
      .columns(['user_id', 'id'])
      .execute();
    await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  },
};
