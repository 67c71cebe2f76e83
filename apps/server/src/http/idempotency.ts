import { CLIENT_OID_MAX_LENGTH, CLIENT_OID_PATTERN } from '@halyard/rules';
import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Db } from '../store/database.ts';
import { Ok, ok } from './envelope.ts';
import { conflict } from './errors.ts';

/**
 * Idempotent money commands (issue 13). A money-moving POST may carry an
 * optional `clientOid` (packages/rules client-oid.ts); a retry with the same
 * one, from the same user, on the same route, answers the first attempt's
 * answer (the same envelope data) and moves nothing.
 *
 * One mechanism for every such route: a route opts in by declaring
 * `clientOid` in its body schema (`...CLIENT_OID_BODY`), and the `onRoute`
 * hook below wraps its handler. So no module's service changes.
 *
 * How a command runs once:
 * 1. Claim: insert (user, route, clientOid) as 'running'. The primary key
 *    lets one insert win, in this process or any other sharing the store.
 *    A duplicate in this process waits for the first attempt and answers as
 *    it did; a duplicate whose claim lives elsewhere (another process, or a
 *    process that died mid-command) is answered 409 `common.requestInProgress`.
 * 2. Run the handler.
 * 3. Success: record the answer ('done'). A refusal (any thrown error, above
 *    all 4xx) releases the claim: nothing was stored, so a corrected retry runs.
 *
 * The answer is recorded right after the command commits, not inside its
 * transaction: each module opens its transaction inside its service (most in
 * `ledger.transaction`, some several per command, convert and withdrawals with
 * steps before and after), so the same transaction would mean threading it
 * through every service. The claim, durable before the command starts, is
 * what keeps it at most once: if the process dies between the command's
 * commit and the answer's record, the claim stays 'running' and every retry
 * with that clientOid is answered 409, never executed again (the client
 * looks at its orders/records and carries on with a new clientOid). An error
 * writing the answer is logged and the command's answer still returned: an
 * error after a commit is not a failed command.
 *
 * Keys are remembered for REMEMBER_MS (pruned at most once per PRUNE_EVERY_MS).
 */

/** The field a route's body schema spreads in to become idempotent. */
export const CLIENT_OID_BODY = {
  clientOid: {
    type: 'string',
    pattern: CLIENT_OID_PATTERN,
    maxLength: CLIENT_OID_MAX_LENGTH,
    description:
      'Optional idempotency key (1–64 of A–Z a–z 0–9 _ -): a retry with the same one answers the first result and moves nothing',
  },
} as const;

/** How long a clientOid is remembered: a day covers any client's retries. */
export const REMEMBER_MS = 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

export interface IdempotencyTable {
  user_id: number;
  route: string;
  client_oid: string;
  state: 'running' | 'done';
  /** JSON of StoredAnswer; null while running. */
  answer: string | null;
  created_at: number;
}

declare module '../store/database.ts' {
  interface Database {
    http_idempotency: IdempotencyTable;
  }
}

interface StoredAnswer {
  data: unknown;
  key: string;
  params: Ok<unknown>['params'];
}

interface CommandKey {
  userId: number;
  route: string;
  clientOid: string;
}

export class IdempotencyStore {
  /** Attempts running in this process, by key: a duplicate waits for the first instead of refusing. */
  private readonly running = new Map<string, Promise<unknown>>();
  private lastPruneAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Runs `command` once per key: a repeat answers the stored answer (re-localised by its message key). */
  async once(key: CommandKey, command: () => Promise<unknown>, request: FastifyRequest): Promise<unknown> {
    const mapKey = `${key.userId}\n${key.route}\n${key.clientOid}`;
    // Bounded: each turn waits for another attempt to end; an attempt ends or throws.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const first = this.running.get(mapKey);
      if (!first) break;
      // The first attempt's outcome is read from the store below; its refusal is its own.
      await first.catch(() => undefined);
    }
    const run = this.claimAndRun(key, command, request);
    this.running.set(mapKey, run);
    try {
      return await run;
    } finally {
      if (this.running.get(mapKey) === run) this.running.delete(mapKey);
    }
  }

  private async claimAndRun(
    key: CommandKey,
    command: () => Promise<unknown>,
    request: FastifyRequest,
  ): Promise<unknown> {
    await this.prune();
    const claimed = await this.db
      .insertInto('http_idempotency')
      .values({
        user_id: key.userId,
        route: key.route,
        client_oid: key.clientOid,
        state: 'running',
        answer: null,
        created_at: this.clock.now(),
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0) === 0) return this.storedAnswer(key);

    let answer: unknown;
    try {
      answer = await command();
    } catch (error) {
      await this.release(key);
      throw error;
    }
    if (!(answer instanceof Ok)) {
      // Only the envelope's answers can be replayed; a route answering otherwise is not idempotent.
      await this.release(key);
      return answer;
    }
    const stored: StoredAnswer = { data: answer.data, key: answer.key, params: answer.params };
    try {
      await this.db
        .updateTable('http_idempotency')
        .set({ state: 'done', answer: JSON.stringify(stored) })
        .where('user_id', '=', key.userId)
        .where('route', '=', key.route)
        .where('client_oid', '=', key.clientOid)
        .execute();
    } catch (error) {
      // The command has committed: its answer stands. The claim stays 'running', so a retry is refused, not re-run.
      request.log.error({ err: error }, 'idempotency: answer not recorded after commit');
    }
    return answer;
  }

  private async storedAnswer(key: CommandKey): Promise<Ok<unknown>> {
    const row = await this.db
      .selectFrom('http_idempotency')
      .select(['state', 'answer'])
      .where('user_id', '=', key.userId)
      .where('route', '=', key.route)
      .where('client_oid', '=', key.clientOid)
      .executeTakeFirst();
    if (row?.state !== 'done' || row.answer === null) throw conflict('common.requestInProgress');
    const stored = JSON.parse(row.answer) as StoredAnswer;
    return ok(stored.data, stored.key, stored.params);
  }

  /** Forgets a claim whose command was refused or failed: nothing was stored, a corrected retry runs. */
  private async release(key: CommandKey): Promise<void> {
    await this.db
      .deleteFrom('http_idempotency')
      .where('user_id', '=', key.userId)
      .where('route', '=', key.route)
      .where('client_oid', '=', key.clientOid)
      .execute();
  }

  private async prune(): Promise<void> {
    const now = this.clock.now();
    if (now - this.lastPruneAt < PRUNE_EVERY_MS) return;
    this.lastPruneAt = now;
    await this.db
      .deleteFrom('http_idempotency')
      .where('state', '=', 'done')
      .where('created_at', '<', now - REMEMBER_MS)
      .execute();
  }
}

/** Whether a route's body schema declares `clientOid` (then the route is idempotent). */
function declaresClientOid(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const properties = (body as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null && Object.hasOwn(properties, 'clientOid');
}

/**
 * Wraps the handler of every POST route declaring `clientOid` (registered
 * after this) with `store.once`. Runs after the route's preHandlers, so the
 * user is known; a request without a clientOid or a user runs as it is.
 */
export function registerIdempotency(http: FastifyInstance, store: IdempotencyStore): void {
  http.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || !declaresClientOid(route.schema?.body)) return;
    const handler = route.handler as RouteHandlerMethod;
    const path = route.url;
    // Not async: a request without a clientOid gets the handler's own promise, no extra turn.
    route.handler = function idempotentHandler(request, reply) {
      const clientOid = (request.body as { clientOid?: unknown } | undefined)?.clientOid;
      const user = request.user;
      if (typeof clientOid !== 'string' || !user) return handler.call(this, request, reply);
      return store.once(
        { userId: user.id, route: path, clientOid },
        async () => handler.call(this, request, reply),
        request,
      );
    };
  });
}
