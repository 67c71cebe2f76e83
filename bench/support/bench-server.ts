/**
 * The real server for the HTTP benchmark: main.ts's composition (config from
 * the environment, the store, createApp, listen) with two differences a load
 * test needs. Rate limits are off (they key on the client IP, and every
 * benchmark connection comes from 127.0.0.1), and the background jobs
 * (app.start: market maker, index ticks) are not started, so only the measured
 * requests use the machine. Group commit, durability before the reply, stays as is.
 */
import { createApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openStore } from '../../apps/server/src/store/connect.ts';

const config = loadConfig();
const store = await openStore(config);
const app = await createApp({ config, store, rateLimits: false });
await app.http.listen({ port: config.port, host: '127.0.0.1' });
process.send?.('listening');

process.once('SIGTERM', async () => {
  await app.close();
  await store.close();
  process.exit(0);
});
