import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Db } from '../store/database.ts';

interface HttpRateLimitsTable {
  /** The route (method and URL) and the client's key (its IP), as the plugin names them. */
  key: string;
  count: number;
  /** When the window ends, in ms since the epoch. */
  reset_at: number;
}

declare module '../store/database.ts' {
  interface Database {
    http_rate_limits: HttpRateLimitsTable;
  }
}

/** How often a gateway deletes the rows of windows long over, at most. */
const PRUNE_EVERY_MS = 60_000;

/** What the plugin passes a route's store: its merged options, the route among them. */
interface RouteLimits {
  routeInfo?: { method?: string | string[]; url?: string };
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

/**
 * The rate limits' counters in SQL, for the gateways of a cluster, which
 * must count a client's requests together (docs/cluster.md, "What the
 * gateways share"): @fastify/rate-limit's store interface, with the same
 * fixed window as its in-memory store. Each request is one statement, an
 * upsert that counts, or starts a new window when the last one is over;
 * PostgreSQL runs it atomically per row, so concurrent requests through
 * several gateways are each counted once. One process keeps the plugin's
 * in-memory store (http/server.ts).
 *
 * The window is judged by the clock of the gateway that counts (`now`):
 * gateways' clocks agree to milliseconds, the windows are minutes.
 */
export function sqlRateLimitStore(db: Db, now: () => number = Date.now): FastifyRateLimitStoreCtor {
  let lastPrune = Number.NEGATIVE_INFINITY;

  const prune = (at: number) => {
    if (at - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = at;
    // A failure leaves the rows for the next prune: they are counted again from 1 when their key comes back.
    db.deleteFrom('http_rate_limits')
      .where('reset_at', '<=', at)
      .execute()
      .catch(() => {});
  };

  const count = async (key: string, timeWindow: number): Promise<{ current: number; ttl: number }> => {
    const at = now();
    const fresh = at + timeWindow;
    const over = sql<boolean>`http_rate_limits.reset_at <= ${at}`;
    const row = await db
      .insertInto('http_rate_limits')
      .values({ key, count: 1, reset_at: fresh })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          count: sql`case when ${over} then 1 else http_rate_limits.count + 1 end`,
          reset_at: sql`case when ${over} then ${fresh} else http_rate_limits.reset_at end`,
        }),
      )
      .returning(['count', 'reset_at'])
      .executeTakeFirstOrThrow();
    prune(at);
    return { current: Number(row.count), ttl: Math.max(0, Number(row.reset_at) - at) };
  };

  class SqlStore implements FastifyRateLimitStore {
    /** The plugin constructs the root store with its options, which this one does not need; a route's has its prefix. */
    constructor(
      _options?: unknown,
      private readonly prefix = '',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      count(this.prefix + key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes the route's merged limits with the route as `routeInfo` (its types name only the route).
      const limits = routeOptions as unknown as RouteLimits;
      // The in-memory store's variants of the window are not kept here: no route of ours uses them.
      if (limits.continueExceeding || limits.exponentialBackoff)
        throw new Error('rate limits in SQL: continueExceeding and exponentialBackoff are not supported');
      const { method, url } = limits.routeInfo ?? {};
      return new SqlStore(null, `${this.prefix}${String(method ?? '')}${url ?? ''}-`);
    }
  }
  return SqlStore;
}
