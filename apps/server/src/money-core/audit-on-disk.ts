import { openFileJournal, openSnapshotStore } from '../core/journal/index.ts';
import { moneyMachine } from '../core/state/index.ts';
import type { RetentionPolicy } from '../core/state/retention.ts';
import { auditLedgerProjectionOnDisk, type ProjectionAudit } from '../projection/audit.ts';
import type { Db } from '../store/database.ts';
import { MONEY_PROJECTION } from './projection-name.ts';

/**
 * The projection audit of a stopped server's core (`npm run audit:projection`):
 * the state derived again from `dataDir`'s journal and snapshots up to the
 * watermark the server's projector wrote (MONEY_PROJECTION, every table in one), and
 * the ledger's SQL compared with it. The retention policy must be the one the
 * state ran with (default: the state's). Opening the journal cuts a torn
 * tail, as a start would: one process at a time.
 */
export async function auditStoppedCore(
  db: Db,
  dataDir: string,
  retention?: RetentionPolicy,
): Promise<ProjectionAudit & { snapshotSeq: number; journalSeq: number }> {
  const journal = await openFileJournal(`${dataDir}/journal`);
  try {
    const audit = await auditLedgerProjectionOnDisk({
      db,
      machine: moneyMachine(retention),
      journal,
      snapshots: openSnapshotStore(`${dataDir}/snapshots`),
      name: MONEY_PROJECTION,
    });
    return { ...audit, journalSeq: journal.lastSequence() };
  } finally {
    await journal.close();
  }
}
