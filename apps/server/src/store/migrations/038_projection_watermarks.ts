import type { HalyardMigration } from '../migrate.ts';

/**
 * The projector's watermarks (docs/core.md, "The projector"): per writer, the
 * last sequence whose rows are in SQL. A writer's rows and its watermark are
 * written in one transaction, so the watermark never claims rows that are
 * not there, and rows are never there without it.
 */
export const projectionWatermarksMigration: HalyardMigration = {
  async up(db) {
    await db.schema
      .createTable('projection_watermarks')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .execute();
  },
};
