import type { Kysely } from 'kysely';
import { serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The content module's tables: notices and their per-locale texts, banners,
 * tips, and small settings documents (about-us, versions) kept as JSON.
 */
export const contentMigration: HalyardMigration = {
  async up(db: Kysely<unknown>, dialect) {
    await db.schema
      .createTable('content_notices')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      // Seeded rows carry a slug so the seed can run on every start without duplicating them.
      .addColumn('slug', 'text', (c) => c.unique())
      .addColumn('wdate', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('content_notices_wdate')
      .on('content_notices')
      .columns(['wdate', 'id'])
      .execute();

    await db.schema
      .createTable('content_notice_texts')
      .addColumn('notice_id', 'bigint', (c) =>
        c.notNull().references('content_notices.id').onDelete('cascade'),
      )
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('content_notice_texts_pk', ['notice_id', 'locale'])
      .execute();

    await db.schema
      .createTable('content_banners')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      // Null: shown in every locale; otherwise only in that one (the invite banner differs per locale).
      .addColumn('locale', 'text')
      .addColumn('image', 'text', (c) => c.notNull())
      .addColumn('link', 'text', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('content_tips')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      // Null: the tip for everyone; otherwise the tip for that one user.
      .addColumn('user_id', 'bigint')
      .addColumn('locale', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('content_tips_user')
      .on('content_tips')
      .columns(['user_id', 'locale'])
      .execute();

    await db.schema
      .createTable('content_settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
