import type { HalyardMigration } from '../migrate.ts';

/**
 * Every migration, by name; Kysely runs them in name order. Names start with
 * a number so the order is the order of this list.
 */
export const migrations: Record<string, HalyardMigration> = {};
