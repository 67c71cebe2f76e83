import type { FileJournal, SnapshotStore } from '../core/journal/index.ts';
import { type Machine, ProjectionAheadError, step } from '../core/sequencer/index.ts';
import { type AccountTotals, type AuditReport, auditAgainstState, inSnapshot } from '../ledger/audit.ts';
import type { Db } from '../store/database.ts';
import type { Projector } from './projector.ts';
import { watermarkStore } from './store.ts';

/** What the ledger's projection follows: the money state's accounts, and how far they are applied. */
export interface LedgerStateSource {
  state: LedgerState;
  lastSequence(): number;
}

type LedgerState = { ledger: { accounts: ReadonlyMap<string, AccountTotals> } };

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
    auditAt(db, projector.name, seq, expected),
  );
  return { seq, report };
}

/**
 * The same comparison with the server stopped (`npm run audit:projection`):
 * the state is derived again from the data directory's snapshots and journal
 * up to the projection's watermark exactly (from the newest snapshot at or
 * below it), and compared with SQL. A watermark that moves meanwhile (a
 * server still running) shows as a `projection` breach.
 */
export async function auditLedgerProjectionOnDisk<State extends LedgerState>(options: {
  db: Db;
  machine: Machine<State, unknown, unknown, unknown>;
  journal: Pick<FileJournal, 'readBatches' | 'lastSequence'>;
  snapshots: Pick<SnapshotStore, 'latest'>;
  /** The projector whose watermark to audit at: no default, since the server's (`money`) is not the ledger writer's alone. */
  name: string;
}): Promise<ProjectionAudit & { snapshotSeq: number }> {
  const { db, machine, name } = options;
  const seq = await watermarkStore.read(db, name);
  const journalSeq = options.journal.lastSequence();
  if (seq > journalSeq) throw new ProjectionAheadError(seq, journalSeq);
  const snapshot = await options.snapshots.latest(seq);
  const state = snapshot === null ? machine.initialState() : machine.decodeState(snapshot.bytes);
  const snapshotSeq = snapshot?.seq ?? 0;
  replay: for await (const records of options.journal.readBatches(snapshotSeq)) {
    for (const record of records) {
      if (record.seq > seq) break replay;
      step(machine, state, machine.decodeCommand(record.payload), record.seq);
    }
  }
  const report = await auditAt(db, name, seq, state.ledger.accounts);
  return { seq, report, snapshotSeq };
}

/** In one snapshot of SQL: the watermark of `name` must be `seq`, the ledger audit hold, the totals equal `expected`. */
async function auditAt(
  db: Db,
  name: string,
  seq: number,
  expected: ReadonlyMap<string, AccountTotals>,
): Promise<AuditReport> {
  return inSnapshot(db, async (snapshot) => {
    const report = await auditAgainstState(snapshot, expected);
    const watermark = await watermarkStore.read(snapshot, name);
    if (watermark !== seq)
      report.breaches.push({
        rule: 'projection',
        detail: `the watermark of ${name} is ${watermark} in SQL, not ${seq}`,
      });
    return report;
  });
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
