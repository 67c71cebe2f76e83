import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, type Driver, Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database, Db } from './database.ts';
import type { DialectName } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';

// int8 columns hold millisecond timestamps and ids, well inside 2^53: read
// them as numbers. NUMERIC (money) stays a string and is parsed into a Dec.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export interface Store {
  db: Db;
  dialect: DialectName;
  close(): Promise<void>;
}

export interface StoreOptions {
  databaseUrl: string | null;
  sqliteFile: string;
  /** PostgreSQL only: run inside this schema (tests use a fresh one each). */
  schema?: string;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const store = options.databaseUrl
    ? openPostgres(options.databaseUrl, options.schema)
    : openSqlite(options.sqliteFile);
  if (options.schema && store.dialect === 'postgres') {
    await sql`create schema if not exists ${sql.id(options.schema)}`.execute(store.db);
  }
  await migrateToLatest(store.db, store.dialect, store.dialect === 'postgres' ? options.schema : undefined);
  return store;
}

/**
 * WAL pages between checkpoints (SQLite's default is 1000, ~4 MB). A
 * checkpoint runs inside the COMMIT that crosses it, on the main thread: it
 * copies every page changed since the last one into the database and syncs
 * both files. A group of orders changes ~150 pages (account rows, index
 * leaves of many accounts), mostly the same ones each group, so the default
 * checkpointed every few groups and took a twentieth of the main thread;
 * at 10,000 pages (a WAL of ~40 MB at most) a checkpoint comes ten times
 * less often and copies little more. A crash replays at most that much WAL.
 */
const WAL_CHECKPOINT_PAGES = 10_000;

function openSqlite(file: string): Store {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  return sqliteStore(new SQLite(file));
}

function sqliteStore(connection: SQLite.Database): Store {
  connection.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before it is acknowledged (DESIGN §5).
  connection.pragma('synchronous = FULL');
  connection.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  cachePreparedStatements(connection);
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: connection }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * A migrated, empty in-memory database, serialized once per process. Running
 * the forty-odd migrations took a tenth of a second for every test's store;
 * a store on a copy of their result opens in about 3 ms.
 */
let migratedSqliteImage: Buffer | null = null;

async function openSqliteTestStore(): Promise<Store> {
  if (!migratedSqliteImage) {
    const connection = new SQLite(':memory:');
    const store = sqliteStore(connection);
    await migrateToLatest(store.db, 'sqlite');
    migratedSqliteImage = connection.serialize();
    await store.close();
  }
  return sqliteStore(new SQLite(migratedSqliteImage));
}

/**
 * Transactions that take the write lock when they begin (`BEGIN IMMEDIATE`).
 * On the sequenced core a second connection writes the same file (the
 * projector's worker). A deferred transaction that has read and then writes
 * after the other connection committed fails at once with
 * SQLITE_BUSY_SNAPSHOT, which no busy timeout retries; one that asks for the
 * lock first waits for it (busy_timeout) and then sees the latest data.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/** Statements kept per connection; past this the cache starts again (a bound on every cache). */
const STATEMENT_CACHE_MAX = 2_000;

/**
 * Kysely prepares every query anew, and on better-sqlite3 preparing costs more
 * than running a small statement. The SQL text of a query builder is stable
 * (values are bound parameters), so one prepared statement per text serves
 * every later call: the ledger's batches ran 2–3× faster with it.
 */
function cachePreparedStatements(connection: SQLite.Database): void {
  const prepare = connection.prepare.bind(connection);
  const cache = new Map<string, SQLite.Statement>();
  connection.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      if (cache.size >= STATEMENT_CACHE_MAX) cache.clear();
      statement = prepare(source);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof connection.prepare;
}

/**
 * A PostgreSQL store inside `schema` as it is: no migration (tests open a
 * schema createTestSchema made). `settings` are the sessions' own (a cluster
 * leader's `idle_in_transaction_session_timeout`).
 */
export function openPostgres(
  url: string,
  schema: string | undefined,
  settings: Record<string, string> = {},
): Store {
  const options = Object.entries({ ...(schema ? { search_path: schema } : {}), ...settings })
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const pool = new pg.Pool({ connectionString: url, max: 10, ...(options ? { options } : {}) });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/** Any constant: the advisory lock that keeps test-schema drops apart from migrations. */
const TEST_SCHEMA_LOCK_KEY = 4_861_302;

/**
 * Runs `work` holding the test-schema advisory lock. Migrations hold it shared
 * (they run in parallel); a drop holds it exclusively. Kysely's migrator
 * introspects every schema by name, and a schema dropped by a parallel test
 * in the middle of that query fails it ("schema … does not exist").
 */
async function withTestSchemaLock<T>(url: string, mode: 'shared' | 'exclusive', work: () => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const lock = mode === 'shared' ? 'pg_advisory_lock_shared' : 'pg_advisory_lock';
    await client.query(`select ${lock}($1)`, [TEST_SCHEMA_LOCK_KEY]);
    return await work();
  } finally {
    // Ending the session releases its advisory locks.
    await client.end();
  }
}

/** Migrated test schemas of this process, emptied by their last test, ready for the next. */
const idleTestSchemas: string[] = [];
/** Test schemas older than this were left by a run that ended without closing them. */
const STALE_TEST_SCHEMA_MS = 6 * 3_600_000;
let staleTestSchemasSwept = false;

/**
 * A fresh, migrated store for one test: an in-memory SQLite database, or, when
 * `TEST_DATABASE_URL` is set (CI sets it), a PostgreSQL schema of its own.
 * Creating and migrating a schema costs about a second, so a closed test's
 * schema is emptied (emptySchema) and handed to the next test
 * of the same process instead of being dropped.
 */
export async function openTestStore(): Promise<Store> {
  const url = process.env.TEST_DATABASE_URL || null;
  if (!url) return openSqliteTestStore();
  const schema = idleTestSchemas.pop() ?? (await createTestSchema(url));
  const store = openPostgres(url, schema);
  let closed = false;
  return {
    ...store,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await emptySchema(store.db);
        idleTestSchemas.push(schema);
      } finally {
        await store.close();
      }
    },
  };
}

/**
 * A migrated schema of its own for a test that cannot use openTestStore (it
 * hands the schema to a child process). Named `t_<base-36 creation time>_<random>`,
 * so a later run can tell a leftover by its age.
 */
export async function createTestSchema(url: string): Promise<string> {
  if (!staleTestSchemasSwept) {
    staleTestSchemasSwept = true;
    await withTestSchemaLock(url, 'exclusive', () => dropStaleTestSchemas(url));
  }
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const store = await withTestSchemaLock(url, 'shared', () =>
    openStore({ databaseUrl: url, sqliteFile: '', schema }),
  );
  await store.close();
  return schema;
}

/**
 * Empties a test schema for its next test: every row deleted and every
 * sequence back at its start, as `TRUNCATE … RESTART IDENTITY` would leave
 * it. DELETE, because TRUNCATE gives each of the ~70 tables and their indexes
 * new files: 0.6 to 1.3 s a test, against 0.1 s for deleting the few rows a
 * test writes. One statement (a DO block on the session's schema, which
 * openPostgres sets); foreign keys are not checked while it runs, since the
 * tables are emptied in no particular order.
 */
async function emptySchema(db: Db): Promise<void> {
  await sql`
    do $$
    declare r record;
    begin
      set local session_replication_role = replica;
      for r in select tablename from pg_tables
               where schemaname = current_schema() and tablename not like 'kysely\_%' loop
        execute format('delete from %I', r.tablename);
      end loop;
      for r in select sequencename, start_value from pg_sequences where schemaname = current_schema() loop
        perform setval(format('%I', r.sequencename)::regclass, r.start_value, false);
      end loop;
    end $$`.execute(db);
}

async function dropStaleTestSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      String.raw`select nspname as name from pg_namespace where nspname like 't\_%'`,
    );
    for (const { name } of rows) {
      const created = Number.parseInt(/^t_([0-9a-z]+)_[0-9a-f]+$/.exec(name)?.[1] ?? '', 36);
      if (Number.isFinite(created) && Date.now() - created < STALE_TEST_SCHEMA_MS) continue;
      await client.query(`drop schema if exists "${name}" cascade`);
    }
  } finally {
    await client.end();
  }
}

/** Drops a schema createTestSchema made, apart from every migration's introspection (see withTestSchemaLock). */
export async function dropTestSchema(url: string, schema: string): Promise<void> {
  await withTestSchemaLock(url, 'exclusive', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`drop schema if exists "${schema}" cascade`);
    } finally {
      await client.end();
    }
  });
}
