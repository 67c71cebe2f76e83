import type { FileJournal, Journal, JournalRecord, SnapshotStore } from '../journal/index.ts';
import { SnapshotAheadError } from './errors.ts';
import { type Machine, step } from './machine.ts';

export interface Recovered<State> {
  state: State;
  /** The last sequence applied: the journal's last record. */
  seq: number;
  /** Where replay began: the snapshot's sequence, 0 without one. */
  snapshotSeq: number;
  /** Commands replayed after the snapshot. */
  replayed: number;
}

/**
 * The state at the journal's end: the latest good snapshot, then every record
 * after it applied in order (events are dropped: they were published before
 * the crash, or their commands were never acknowledged). Refuses a snapshot
 * past the journal, which `read` alone would pass over in silence.
 */
export async function recover<State, Command, Result, Event>(
  machine: Machine<State, Command, Result, Event>,
  journal: Pick<Journal, 'read' | 'lastSequence'> & Partial<Pick<FileJournal, 'readBatches'>>,
  snapshots: Pick<SnapshotStore, 'latest'>,
): Promise<Recovered<State>> {
  const latest = await snapshots.latest();
  const journalSeq = journal.lastSequence();
  if (latest !== null && latest.seq > journalSeq) throw new SnapshotAheadError(latest.seq, journalSeq);
  const state = latest === null ? machine.initialState() : machine.decodeState(latest.bytes);
  const snapshotSeq = latest?.seq ?? 0;
  let seq = snapshotSeq;
  for await (const records of recordsAfter(journal, snapshotSeq)) {
    for (const record of records) {
      step(machine, state, machine.decodeCommand(record.payload), record.seq);
      seq = record.seq;
    }
  }
  return { state, seq, snapshotSeq, replayed: seq - snapshotSeq };
}

/** A file journal's records a megabyte at a time (the fast path); any other journal's one by one. */
async function* recordsAfter(
  journal: Pick<Journal, 'read'> & Partial<Pick<FileJournal, 'readBatches'>>,
  after: number,
): AsyncIterable<JournalRecord[]> {
  if (journal.readBatches) {
    yield* journal.readBatches(after);
    return;
  }
  for await (const record of journal.read(after)) yield [record];
}
