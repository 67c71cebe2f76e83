import { serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The chat of a fiat order (issue 16 item 5): its two parties, and an
 * operator during an appeal, write text or attach an image (an upload of
 * the writer's own). `user_id` is the writer's account, null for the house
 * merchant and operators; it is whose upload an image must be.
 */
export const fiatChatMigration: HalyardMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('fiat_messages')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('order_id', 'bigint', (c) => c.notNull())
      .addColumn('by_whom', 'text', (c) => c.notNull())
      .addColumn('user_id', 'bigint')
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('img', 'text')
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('fiat_messages_order')
      .on('fiat_messages')
      .columns(['order_id', 'id'])
      .execute();
  },
};
