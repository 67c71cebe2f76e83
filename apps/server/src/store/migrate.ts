import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { DialectName } from './dialect.ts';
import { migrations } from './migrations/index.ts';

/** A migration that knows which engine it runs on, to pick lossless column types. */
export interface HalyardMigration {
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectName) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const bound: Record<string, Migration> = {};
    for (const [name, migration] of Object.entries(migrations)) {
      bound[name] = { up: (db) => migration.up(db, this.dialect) };
    }
    return bound;
  }
}

/**
 * `schema` (PostgreSQL) pins Kysely's bookkeeping tables to that schema: without
 * it Kysely looks for them in every schema and, when parallel tests each have
 * their own, finds another test's and skips creating its own.
 */
export async function migrateToLatest<T>(
  db: Kysely<T>,
  dialect: DialectName,
  schema?: string,
): Promise<void> {
  // Migrations run before the schema exists, so they see the database untyped.
  const untyped = db as unknown as Kysely<unknown>;
  const migrator = new Migrator({
    db: untyped,
    provider: new StaticProvider(dialect),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((result) => result.status === 'Error');
    if (!error && !failed) return;
    if (!failed && attempt < 5 && anotherSchemaDropped(error, schema)) continue;
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/**
 * Before it migrates, Kysely reads the catalog's tables of every schema; a
 * schema another session drops meanwhile fails that read ("schema … does not
 * exist"), with nothing of ours changed. Test runs drop schemas all the time,
 * and their child processes (a cluster's nodes) migrate outside the tests'
 * lock (store/connect.ts): the read is tried again.
 */
function anotherSchemaDropped(error: unknown, schema: string | undefined): boolean {
  const dropped = /schema "([^"]+)" does not exist/.exec(String(error))?.[1];
  return dropped !== undefined && dropped !== schema;
}
