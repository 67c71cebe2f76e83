import { loadConfig } from '../config.ts';
import { openStore } from '../store/connect.ts';
import { auditLedger } from './audit.ts';

/**
 * `npm run audit -w @halyard/server`: checks the configured store's ledger
 * and exits non-zero when any invariant is broken.
 */
const config = loadConfig();
const store = await openStore(config);
try {
  const report = await auditLedger(store.db);
  console.log(
    `ledger audit (${store.dialect}): ${report.accounts} accounts, ${report.transfers} transfers, ` +
      `${report.holds} holds, assets: ${report.assets.join(', ') || 'none'}`,
  );
  for (const breach of report.breaches) console.log(`BREACH [${breach.rule}] ${breach.detail}`);
  console.log(
    report.breaches.length === 0 ? 'OK: every invariant holds' : `FAILED: ${report.breaches.length} breaches`,
  );
  process.exitCode = report.breaches.length === 0 ? 0 : 1;
} finally {
  await store.close();
}
