import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { dropTestSchema } from '../connect.ts';
import type { DialectName } from '../dialect.ts';
import { migrations } from './index.ts';

/**
 * A bare database a migration test migrates step by step: PostgreSQL (a
 * schema of its own) when TEST_DATABASE_URL is set, else SQLite in memory.
 * `migrateBefore(name)` runs every migration before `name`; `close` drops it.
 */
export function bareMigrationStore() {
  const url = process.env.TEST_DATABASE_URL || null;
  const dialect: DialectName = url ? 'postgres' : 'sqlite';
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const db = new Kysely<unknown>({
    dialect: url
      ? new PostgresDialect({
          pool: new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` }),
        })
      : new SqliteDialect({ database: new SQLite(':memory:') }),
  });
  return {
    db,
    dialect,
    async migrateBefore(name: string): Promise<void> {
      if (url) await sql`create schema ${sql.id(schema)}`.execute(db);
      const names = Object.keys(migrations).sort();
      for (const earlier of names.slice(0, names.indexOf(name))) await migrations[earlier]?.up(db, dialect);
    },
    async close(): Promise<void> {
      await db.destroy();
      if (url) await dropTestSchema(url, schema);
    },
  };
}
