import type { App } from './app.ts';
import { type Config, configWarnings } from './config.ts';

/**
 * What a process serving HTTP logs once it listens, in every role that
 * serves it (all-in-one, gateway): the settings a live deployment should not
 * run without and, in demo mode while no administrator exists, the token
 * that names the first one. That token is this process's own (generated per
 * start): on a cluster, each gateway prints its own. A real deployment sets
 * ADMIN_TOKEN and it is never printed.
 */
export async function logStartupNotes(app: App, config: Config): Promise<void> {
  for (const warning of configWarnings(config)) app.http.log.warn(warning);
  if (config.demo && !process.env.ADMIN_TOKEN && !(await app.operators.service.administratorExists())) {
    app.http.log.info(
      `demo admin-token, to create the first administrator at ${config.publicUrl}/admin/: ${config.adminToken}`,
    );
  }
}
