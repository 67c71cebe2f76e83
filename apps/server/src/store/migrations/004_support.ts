import type { Kysely } from 'kysely';
import { serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/** Help tickets (spec §3 Ticket): a user's question and the operator's reply. */
export const supportMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('support_tickets')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('reply', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('support_tickets_user')
      .on('support_tickets')
      .columns(['user_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createIndex('support_tickets_status')
      .on('support_tickets')
      .columns(['status', 'id'])
      .execute();
  },
};
