/**
 * What counting the HTTP rate limits in PostgreSQL costs a request
 * (docs/cluster.md, "What the gateways share"), against the in-memory store
 * one process keeps (the anchor):
 *
 *   node --import tsx bench/rate-limits.bench.ts [--requests 4000] [--waiting 16]
 *
 * One Fastify server each (createHttpServer), one limited route (a limit
 * never reached: every request is counted, none refused), requests injected
 * with `waiting` in flight, from 256 client addresses. Prints requests a
 * second and the ratio to the anchor, with `uptime` before and after: the
 * machine is shared. PostgreSQL: BENCH_DATABASE_URL (default the local test
 * database), a fresh schema dropped at the end.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { ok } from '../apps/server/src/http/envelope.ts';
import { createHttpServer } from '../apps/server/src/http/server.ts';
import { createTestSchema, dropTestSchema, openPostgres } from '../apps/server/src/store/connect.ts';
import type { Db } from '../apps/server/src/store/database.ts';

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { values } = parseArgs({
  options: { requests: { type: 'string', default: '4000' }, waiting: { type: 'string', default: '16' } },
});
const REQUESTS = Number(values.requests);
const WAITING = Number(values.waiting);

async function server(shared: Db | null): Promise<FastifyInstance> {
  const http = await createHttpServer({
    logLevel: 'silent',
    ...(shared ? { sharedRateLimits: shared } : {}),
  });
  http.get('/limited', { config: { rateLimit: { max: 1_000_000, timeWindow: '1 minute' } } }, async () =>
    ok(1),
  );
  await http.ready();
  return http;
}

/** Requests a second through `http`, `WAITING` in flight. */
async function run(http: FastifyInstance): Promise<number> {
  let sent = 0;
  const started = performance.now();
  const worker = async () => {
    while (sent < REQUESTS) {
      const ip = `10.0.${(sent % 256).toString()}.1`;
      sent += 1;
      const answer = await http.inject({ method: 'GET', url: '/limited', remoteAddress: ip });
      if (answer.statusCode !== 200) throw new Error(`answered ${answer.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: WAITING }, worker));
  return REQUESTS / ((performance.now() - started) / 1000);
}

const uptime = () => execFileSync('uptime').toString().trim();
console.log(`before: ${uptime()}`);
const schema = await createTestSchema(DATABASE_URL);
const store = openPostgres(DATABASE_URL, schema);
try {
  const memory = await server(null);
  const sql = await server(store.db);
  // A warm-up of each, then the measures.
  await run(memory);
  await run(sql);
  const anchor = await run(memory);
  const shared = await run(sql);
  console.log(`in memory (anchor): ${anchor.toFixed(0)} requests/s`);
  console.log(
    `in PostgreSQL:      ${shared.toFixed(0)} requests/s (${(shared / anchor).toFixed(2)}× the anchor)`,
  );
  await memory.close();
  await sql.close();
} finally {
  await store.close();
  await dropTestSchema(DATABASE_URL, schema);
}
console.log(`after: ${uptime()}`);
