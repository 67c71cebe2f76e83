/**
 * Test-only Halyard server (never shipped) for console.spec.ts: the real app
 * on the system clock, demo data, with the demo KYC reviewer switched off
 * after start, so the compliance operator of the test decides every
 * identity submission (the reviewer would approve it after 5 s otherwise).
 * Its own port and data directory: bootstrapping the first administrator
 * retires the admin token, which the other specs' shared server still uses.
 */
import { createApp } from '../../apps/server/src/app.ts';
import { systemClock } from '../../apps/server/src/clock.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { moneyCoreOf } from '../../apps/server/src/start.ts';
import { openStore } from '../../apps/server/src/store/connect.ts';

const config = loadConfig();
const store = await openStore(config);
const app = await createApp({ config, store, clock: systemClock, ...moneyCoreOf(config) });
await app.http.listen({ port: config.port, host: config.host });
app.start();
// The identity module's only timer is the demo reviewer: stopping it leaves KYC to the operators.
await app.identity.close();

process.once('SIGTERM', async () => {
  await app.close();
  await store.close();
  process.exit(0);
});
