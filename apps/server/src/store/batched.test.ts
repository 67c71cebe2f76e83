import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paddedToOneStatement, placeholderRows, SizedStatement, statementSizes } from './batched.ts';
import { openTestStore, type Store } from './connect.ts';
import type { Executor } from './database.ts';

describe('statementSizes', () => {
  it('splits any count into a few statements of fixed sizes that add up to it', () => {
    for (const count of [0, 1, 7, 8, 63, 64, 513, 1999, 10_000]) {
      const sizes = statementSizes(count);
      expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(count);
      expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    }
    expect(statementSizes(1999)).toEqual([512, 512, 512, 256, 128, 64, 8, 4, 2, 1]);
    expect(statementSizes(2)).toEqual([2]);
  });
});

describe('SizedStatement', () => {
  let store: Store;
  // A scratch table outside the schema's types: the statements are built with raw SQL.
  const insert = new SizedStatement<never>(2, (db: Executor, size) => {
    const rows = sql.join(placeholderRows(sql`(${null}, ${null})`, size));
    return sql<never>`insert into batched_rows (id, label) values ${rows}`.compile(db);
  });
  const byId = new SizedStatement<{ id: number; label: string }>(1, (db: Executor, size) => {
    const ids = sql.join(placeholderRows(sql`${null}`, size));
    return sql<{
      id: number;
      label: string;
    }>`select id, label from batched_rows where id in (${ids}) order by id`.compile(db);
  });

  beforeAll(async () => {
    store = await openTestStore();
    await sql`create table batched_rows (id integer primary key, label text not null)`.execute(store.db);
  });
  afterAll(async () => {
    // PostgreSQL test schemas are reused by later tests: leave it as it was.
    await sql`drop table batched_rows`.execute(store.db);
    await store.close();
  });

  it('writes and reads any number of rows, each value in its place', async () => {
    let next = 1;
    for (const count of [0, 1, 9, 600]) {
      const ids = Array.from({ length: count }, () => next++);
      const written = await insert.count(
        store.db,
        ids.flatMap((id) => [id, `row ${id}`]),
      );
      expect(written).toBe(count);
      const read = await byId.run(store.db, ids);
      expect(read.map((row) => [Number(row.id), row.label])).toEqual(ids.map((id) => [id, `row ${id}`]));
    }
  });

  it('refuses values that are not whole rows', async () => {
    await expect(insert.run(store.db, [1, 'one', 2])).rejects.toThrow(/not rows of 2/);
  });
});

describe('paddedToOneStatement', () => {
  it('pads a lookup with nulls up to the next statement size, and leaves what fits or is too long', () => {
    expect(paddedToOneStatement([1, 2, 3], 1)).toEqual([1, 2, 3, null]);
    expect(paddedToOneStatement(['a', 'b', 'c', 'd', 'e', 'f'], 3)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(paddedToOneStatement([1, 2, 3, 4, 5, 6, 7, 8, 9], 3)).toHaveLength(12);
    const long = Array.from({ length: 600 }, (_, index) => index);
    expect(paddedToOneStatement(long, 1)).toBe(long);
  });
});
