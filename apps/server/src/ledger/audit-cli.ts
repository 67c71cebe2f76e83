import { loadConfig } from '../config.ts';
import { reconcileConfiguredChains } from '../modules/wallet/reconcile.ts';
import { openStore } from '../store/connect.ts';
import { auditLedger } from './audit.ts';

/**
 * `npm run audit -w @halyard/server`: checks the configured store's ledger,
 * and the wallet's completed withdrawals against the chain, and exits
 * non-zero when any invariant is broken.
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
  const wallet = await reconcileConfiguredChains(store.db, config.wallet);
  for (const line of wallet.lines) console.log(line);
  for (const breach of wallet.breaches) console.log(`BREACH [wallet-reconciliation] ${breach}`);
  const breaches = report.breaches.length + wallet.breaches.length;
  console.log(breaches === 0 ? 'OK: every invariant holds' : `FAILED: ${breaches} breaches`);
  process.exitCode = breaches === 0 ? 0 : 1;
} finally {
  await store.close();
}
