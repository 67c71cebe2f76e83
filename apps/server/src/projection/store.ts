import type { Executor } from '../store/database.ts';

/** Per writer, the last sequence whose rows are in SQL (migration 038). */
export interface ProjectionWatermarksTable {
  name: string;
  seq: number;
}

declare module '../store/database.ts' {
  interface Database {
    projection_watermarks: ProjectionWatermarksTable;
  }
}

/** The watermark rows' SQL. Only the projector writes them. */
export const watermarkStore = {
  /** The writer's watermark; 0 for a writer that never wrote (its row is created then). */
  async open(db: Executor, name: string): Promise<number> {
    await db
      .insertInto('projection_watermarks')
      .values({ name, seq: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return watermarkStore.read(db, name);
  },

  async read(db: Executor, name: string): Promise<number> {
    const row = await db
      .selectFrom('projection_watermarks')
      .select('seq')
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? Number(row.seq) : 0;
  },

  /**
   * Moves the watermark from `from` to `to`, only if it still stands at
   * `from` (compare-and-set); answers whether it did. On PostgreSQL the row
   * stays locked until the transaction ends, so two projectors of one name
   * never write the same sequences at once.
   */
  async advance(db: Executor, name: string, from: number, to: number): Promise<boolean> {
    const result = await db
      .updateTable('projection_watermarks')
      .set({ seq: to })
      .where('name', '=', name)
      .where('seq', '=', from)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },
};
