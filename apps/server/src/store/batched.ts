import { CompiledQuery, type QueryResult } from 'kysely';
import type { Executor } from './database.ts';

/**
 * Statement sizes, largest first: any number of rows runs as statements of
 * these sizes (1999 rows: 3 × 512, then 256, 128, 64, 8, 4, 2 and 1; two rows
 * in one statement), so ten SQL texts serve every count and SQLite prepares
 * each text once.
 */
const SIZES = [512, 256, 128, 64, 32, 16, 8, 4, 2, 1] as const;

/** How `count` rows split into statements of the fixed sizes, largest first. */
export function statementSizes(count: number): number[] {
  const sizes: number[] = [];
  let left = count;
  for (const size of SIZES) {
    for (; left >= size; left -= size) sizes.push(size);
  }
  return sizes;
}

/**
 * A lookup's values (an IN list) padded with nulls (which match nothing) up to the next
 * statement size: 25 ids are one statement of 32, not three (16 + 8 + 1).
 * Lists longer than the largest size are left as they are.
 */
export function paddedToOneStatement(values: readonly unknown[], width: number): readonly unknown[] {
  const rows = values.length / width;
  if (rows <= 1) return values;
  const size = 2 ** Math.ceil(Math.log2(rows));
  if (size === rows || statementSizes(size).length !== 1) return values;
  return [...values, ...new Array<null>((size - rows) * width).fill(null)];
}

/**
 * A statement over many rows (a multi-row insert, an IN list) built and
 * compiled by Kysely once per store and size, then run with fresh
 * parameters. Building and compiling a query of thousands of values costs
 * more than SQLite takes to run it; a fixed text is compiled once and, on
 * SQLite, prepared once.
 *
 * `build(db, size)` compiles the query for `size` rows whose parameters are,
 * in order, `width` values per row; `run` takes the rows' values flattened
 * in that order.
 */
export class SizedStatement<R> {
  /** Per store (its dialect adapter), per size: the compiled text. */
  private readonly compiled = new WeakMap<object, Map<number, string>>();

  constructor(
    private readonly width: number,
    private readonly build: (db: Executor, size: number) => CompiledQuery<R>,
  ) {}

  /** Runs the statement over every row of `values`; answers the rows returned, in statement order. */
  async run(db: Executor, values: readonly unknown[]): Promise<R[]> {
    const rows: R[] = [];
    for (const result of await this.runEach(db, values)) rows.push(...result.rows);
    return rows;
  }

  /** Like `run`, and answers how many rows the statements changed (an insert's rows, an upsert's). */
  async count(db: Executor, values: readonly unknown[]): Promise<number> {
    let changed = 0;
    for (const result of await this.runEach(db, values)) changed += Number(result.numAffectedRows ?? 0n);
    return changed;
  }

  private async runEach(db: Executor, values: readonly unknown[]): Promise<QueryResult<R>[]> {
    if (values.length % this.width !== 0) {
      throw new Error(`SizedStatement: ${values.length} values are not rows of ${this.width}`);
    }
    const results: QueryResult<R>[] = [];
    let start = 0;
    for (const size of statementSizes(values.length / this.width)) {
      const end = start + size * this.width;
      const query = CompiledQuery.raw(this.textFor(db, size), values.slice(start, end) as unknown[]);
      results.push((await db.executeQuery(query)) as QueryResult<R>);
      start = end;
    }
    return results;
  }

  private textFor(db: Executor, size: number): string {
    const adapter = db.getExecutor().adapter;
    let bySize = this.compiled.get(adapter);
    if (!bySize) {
      bySize = new Map();
      this.compiled.set(adapter, bySize);
    }
    let text = bySize.get(size);
    if (text === undefined) {
      const compiled = this.build(db, size);
      if (compiled.parameters.length !== size * this.width) {
        throw new Error(
          `SizedStatement: ${compiled.parameters.length} parameters for ${size} rows of ${this.width}`,
        );
      }
      text = compiled.sql;
      bySize.set(size, text);
    }
    return text;
  }
}

/** `size` copies of `row`: the placeholder rows a `SizedStatement` builds its query from. */
export function placeholderRows<T>(row: T, size: number): T[] {
  return Array.from({ length: size }, () => row);
}

/**
 * A row of nulls, one per column: Kysely binds each as a parameter, in the
 * columns' order, which is the order `valuesOf` lays the real values out in.
 */
export function placeholderRow<const C extends readonly string[]>(columns: C): Record<C[number], null> {
  return Object.fromEntries(columns.map((column) => [column, null])) as Record<C[number], null>;
}

/** The rows' values in the columns' order, one row after another: what `SizedStatement.run` takes. */
export function valuesOf<R>(rows: readonly R[], columns: readonly (keyof R)[]): unknown[] {
  // Sized up front: pushing a settlement tick's million values one by one grew and copied the array again and again.
  const values = new Array<unknown>(rows.length * columns.length);
  let at = 0;
  for (const row of rows) for (const column of columns) values[at++] = row[column];
  return values;
}
