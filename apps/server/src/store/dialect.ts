/** The two storage engines Halyard runs on; migrations pick column types by it. */
export type DialectName = 'sqlite' | 'postgres';

/**
 * A money column: lossless in both engines. SQLite gets TEXT (never REAL, and
 * never a column with NUMERIC affinity, which would round to a double);
 * PostgreSQL gets an exact NUMERIC wide enough for 18 fractional digits.
 */
export function moneyType(dialect: DialectName): 'text' | 'numeric(48,18)' {
  return dialect === 'sqlite' ? 'text' : 'numeric(48,18)';
}

/** Auto-increment primary key type per engine. */
export function serialType(dialect: DialectName): 'integer' | 'bigserial' {
  return dialect === 'sqlite' ? 'integer' : 'bigserial';
}

/**
 * A primary key that is another table's id (an order's outcome keyed by the
 * order id). On SQLite only `integer` makes it the row's own key: one b-tree
 * per row written instead of a table and a unique index.
 */
export function idKeyType(dialect: DialectName): 'integer' | 'bigint' {
  return dialect === 'sqlite' ? 'integer' : 'bigint';
}

/** True for the error SQLite or PostgreSQL throws when an insert breaks a unique index. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

/**
 * `text` in lower case as a LIKE pattern that matches it literally anywhere
 * (escape character `\`): compare it with `lower(column)`, since SQLite's LIKE
 * ignores ASCII case and PostgreSQL's does not.
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
