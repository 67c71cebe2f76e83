import { createApp } from './app.ts';
import { type Clock, systemClock } from './clock.ts';
import { configWarnings, loadConfig } from './config.ts';
import { seedDemoHistory } from './demo-history.ts';
import { openStore } from './store/connect.ts';

/**
 * Starts Halyard as main.ts runs it: config from the environment, the store,
 * the app, demo history, listening, the schedulers, and a clean stop on
 * SIGINT/SIGTERM. Another clock is only for a test-only entry (e2e/servers)
 * whose time a browser test moves; the shipped server runs on the system clock.
 */
export async function startServer(clock: Clock = systemClock): Promise<void> {
  const config = loadConfig();
  const store = await openStore(config);
  const app = await createApp({ config, store, clock });
  // Before the first request and the first index tick: charts open on months of history.
  if (config.demo) await seedDemoHistory(app, config);
  await app.http.listen({ port: config.port, host: config.host });
  app.start();
  app.http.log.info(`Halyard on ${config.publicUrl} (${store.dialect}${config.demo ? ', demo' : ''})`);
  for (const warning of configWarnings(config)) app.http.log.warn(warning);
  if (config.demo && !process.env.ADMIN_TOKEN && !(await app.operators.service.administratorExists())) {
    // The generated token names the first administrator in the console, and only
    // until one exists; a real deployment sets ADMIN_TOKEN and it is never printed.
    app.http.log.info(
      `demo admin-token, to create the first administrator at ${config.publicUrl}/admin/: ${config.adminToken}`,
    );
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      await app.close();
      await store.close();
      process.exit(0);
    });
  }
}
