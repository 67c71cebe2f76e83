/**
 * The real server for the HTTP benchmark: main.ts's composition (config from
 * the environment, the store, createApp, listen) with two differences a load
 * test needs. Rate limits are off (they key on the client IP, and every
 * benchmark connection comes from 127.0.0.1), and the background jobs
 * (app.start: market maker, index ticks) are not started, so only the measured
 * requests use the machine. Group commit, durability before the reply, stays as is.
 *
 * It also sums the time its thread spends inside SQLite statements (the
 * commits' WAL writes and syncs included) and answers the sum, in ms, to a
 * 'sqlite-ms' message: the benchmark prints it per order.
 *
 * BENCH_MONEY_CORE=1 runs the money on the sequenced core (AppOptions.moneyCore:
 * the journal under the data directory, the projector in a worker thread on
 * the same SQLite file), as far as the cut-over has come: spot orders and the
 * demo faucet, which is all the benchmark uses.
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { tuneGarbageCollector } from '../../apps/server/src/garbage-collector.ts';
import { openStore } from '../../apps/server/src/store/connect.ts';

/**
 * Times every better-sqlite3 statement of the process: they all share one
 * prototype, whose run/all/get do the work (Kysely's driver calls them).
 * Answers the time spent in them so far, in ms.
 */
function timeSqliteStatements(): () => number {
  const probe = new SQLite(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  probe.close();
  let totalMs = 0;
  for (const method of ['run', 'all', 'get']) {
    const original = statement[method]!;
    statement[method] = function timed(this: unknown, ...args: unknown[]) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        totalMs += performance.now() - started;
      }
    };
  }
  return () => totalMs;
}

// The collector setting main.ts gives the server.
tuneGarbageCollector();
const sqliteMs = timeSqliteStatements();
const profiler = new inspector.Session();
profiler.connect();
process.on('message', (message) => {
  if (message === 'sqlite-ms') process.send?.({ sqliteMs: sqliteMs() });
  // BENCH_PROFILE_DIR (bench/http-orders.ts): this thread's CPU profile of the measured window only.
  else if (message === 'profile-start')
    profiler.post('Profiler.enable', () =>
      profiler.post('Profiler.start', () => process.send?.('profiling')),
    );
  else if (typeof message === 'object' && message !== null && 'profileTo' in message)
    profiler.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(String(message.profileTo), JSON.stringify(result.profile));
      process.send?.('profiled');
    });
});

const config = loadConfig();
const store = await openStore(config);
const onCore = process.env.BENCH_MONEY_CORE === '1';
const app = await createApp({
  config,
  store,
  rateLimits: false,
  ...(onCore
    ? {
        moneyCore: {
          dataDir: path.join(config.dataDir, 'core'),
          workerStore: { sqliteFile: config.sqliteFile },
        },
      }
    : {}),
});
await app.http.listen({ port: config.port, host: '127.0.0.1' });
process.send?.('listening');

process.once('SIGTERM', async () => {
  await app.close();
  await store.close();
  process.exit(0);
});
