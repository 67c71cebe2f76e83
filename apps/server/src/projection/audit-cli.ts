import { loadConfig } from '../config.ts';
import { auditStoppedCore } from '../money-core/audit-on-disk.ts';
import { openStore } from '../store/connect.ts';

/**
 * `npm run audit:projection -- DIR [EPOCH_SEQS EPOCHS_KEPT]`: with the
 * server stopped, derives the money state from the sequenced core's data
 * directory DIR (its journal/ and snapshots/, `data/core` by default) up to
 * the projection's watermark in the configured store, and checks the ledger's
 * SQL against it (the ledger audit, every account's four totals, the
 * watermark). The retention policy must be the one the state ran with
 * (default: the state's). Exits non-zero when any invariant is broken.
 */
const [dir, epochSeqs, epochsKept] = process.argv.slice(2);
if (!dir) throw new Error('usage: audit-cli.ts DATA_DIR [EPOCH_SEQS EPOCHS_KEPT]');
const retention =
  epochSeqs && epochsKept ? { epochSeqs: Number(epochSeqs), epochsKept: Number(epochsKept) } : undefined;
const store = await openStore(loadConfig());
try {
  const { seq, snapshotSeq, journalSeq, report } = await auditStoppedCore(store.db, dir, retention);
  console.log(
    `ledger projection audit (${store.dialect}) at sequence ${seq} (replayed from snapshot ${snapshotSeq}, ` +
      `journal ends at ${journalSeq}): ${report.accounts} accounts, ${report.transfers} transfers, ${report.holds} holds`,
  );
  for (const breach of report.breaches) console.log(`BREACH [${breach.rule}] ${breach.detail}`);
  console.log(
    report.breaches.length === 0 ? 'OK: SQL equals the state' : `FAILED: ${report.breaches.length} breaches`,
  );
  process.exitCode = report.breaches.length === 0 ? 0 : 1;
} finally {
  await store.close();
}
