import { type AccountTotals, type AuditReport, auditAgainstState, inSnapshot } from '../ledger/audit.ts';
import type { Db } from '../store/database.ts';
import type { Projector } from './projector.ts';
import { watermarkStore } from './store.ts';

/** What the ledger's projection follows: the money state's accounts, and how far they are applied. */
export interface LedgerStateSource {
  state: { ledger: { accounts: ReadonlyMap<string, AccountTotals> } };
  lastSequence(): number;
}

export interface ProjectionAudit {
  /** The sequence the state and SQL were compared at: the projection's watermark. */
  seq: number;
  /** The ledger audit of SQL, with the `projection` breaches of its comparison with the state. */
  report: AuditReport;
}

/**
 * The ledger's projection against the money state (docs/core.md, "The
 * projector"): the state's account totals are copied at the sequence the
 * sequencer has applied, the projector is held there (`holdAt`) until it
 * has written exactly that far, and then, in one snapshot of SQL, the
 * watermark row must say that sequence, the ledger audit must hold, and
 * every account's four totals must equal the copy. A projector that does
 * not reach the sequence within `timeoutMs` rejects with
 * ProjectionTimeoutError.
 */
export async function auditLedgerProjection(options: {
  db: Db;
  projector: Projector<unknown>;
  source: LedgerStateSource;
  timeoutMs: number;
}): Promise<ProjectionAudit> {
  const { db, projector, source } = options;
  // Synchronously, between two turns of the sequencer: the totals as of `seq`.
  const seq = source.lastSequence();
  const expected = copyTotals(source.state.ledger.accounts);
  const report = await projector.holdAt(seq, options.timeoutMs, () =>
    inSnapshot(db, async (snapshot) => {
      const report = await auditAgainstState(snapshot, expected);
      const watermark = await watermarkStore.read(snapshot, projector.name);
      if (watermark !== seq)
        report.breaches.push({
          rule: 'projection',
          detail: `the watermark of ${projector.name} is ${watermark} in SQL, not ${seq}`,
        });
      return report;
    }),
  );
  return { seq, report };
}

/** The four totals of every account (the state changes them in place: copy the values, not the objects). */
function copyTotals(accounts: ReadonlyMap<string, AccountTotals>): Map<string, AccountTotals> {
  const copy = new Map<string, AccountTotals>();
  for (const [key, account] of accounts)
    copy.set(key, {
      debitsPosted: account.debitsPosted,
      creditsPosted: account.creditsPosted,
      debitsPending: account.debitsPending,
      creditsPending: account.creditsPending,
    });
  return copy;
}
