import path from 'node:path';
import { type App, type AppOptions, createApp } from './app.ts';
import { type Clock, systemClock } from './clock.ts';
import { runGateway } from './cluster/gateway-role.ts';
import { type Config, loadConfig } from './config.ts';
import { seedDemoHistory } from './demo-history.ts';
import { logStartupNotes } from './startup-notes.ts';
import { openStore } from './store/connect.ts';

/**
 * Starts Halyard's HTTP server as main.ts runs it: config from the
 * environment, the store, the app, demo history, listening, the schedulers,
 * and a clean stop on SIGINT/SIGTERM. A `gateway` (HALYARD_ROLE) composes the
 * app on the cluster instead (cluster/gateway-role.ts); main.ts runs a
 * `sequencer` without loading the app at all. Another clock is only for a
 * test-only entry (e2e/servers) whose time a browser test moves; the shipped
 * server runs on the system clock.
 */
export async function startServer(clock: Clock = systemClock, config: Config = loadConfig()): Promise<void> {
  if (config.role === 'gateway') return runGateway(config, clock);
  if (config.role !== 'all-in-one') throw new Error(`startServer runs no ${config.role}: main.ts does`);
  const store = await openStore(config);
  const app = await createApp({ config, store, clock, ...moneyCoreOf(config) });
  // Before the first request and the first index tick: charts open on months of history.
  if (config.demo) await seedDemoHistory(app, config);
  await app.http.listen({ port: config.port, host: config.host });
  app.start();
  const mode = [
    store.dialect,
    ...(config.moneyCore ? ['sequenced core'] : []),
    ...(config.demo ? ['demo'] : []),
  ];
  app.http.log.info(`Halyard on ${config.publicUrl} (${mode.join(', ')})`);
  await logStartupNotes(app, config);

  exitWhenCoreStops(app);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      await app.close();
      await store.close();
      process.exit(0);
    });
  }
}

/**
 * A sequenced core that stops for good (its journal failed, a command threw,
 * its projector's worker died) cannot be made whole in this process: the
 * state may be ahead of the disk. The process exits with 1, so that its
 * supervisor (systemd's `Restart=`, the cluster-local runner) starts it
 * again, and the start recovers from the journal. Staying up would answer
 * every money request with an error until someone noticed.
 */
export function exitWhenCoreStops(
  app: Pick<App, 'moneyCore'>,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  app.moneyCore?.onStopped(() => exit(1));
}

/**
 * The core's journal and snapshots under the data directory. Its projector
 * writes SQL from a worker thread on a connection of its own, except for an
 * in-memory SQLite database, which no other connection can open.
 */
export function moneyCoreOf(config: Config): Pick<AppOptions, 'moneyCore'> {
  if (!config.moneyCore) return {};
  const workerStore = config.databaseUrl
    ? { postgresUrl: config.databaseUrl }
    : config.sqliteFile === ':memory:'
      ? null
      : { sqliteFile: config.sqliteFile };
  return { moneyCore: { dataDir: path.join(config.dataDir, 'core'), workerStore } };
}
