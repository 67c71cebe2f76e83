import type { FileJournal, Journal, JournalRecord, SnapshotStore } from '../journal/index.ts';
import { ProjectionAheadError, SnapshotAheadError } from './errors.ts';
import { type Machine, step } from './machine.ts';
import type { Published } from './sequencer.ts';

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
 * A projector's catch-up (docs/core.md, "The projector"): events are not
 * journaled, they come from applying commands, so recovery hands over the
 * events of every sequence above `after` as replay derives them.
 */
export interface CatchUp<Event> {
  /** The projector's watermark: the last sequence whose rows are written. */
  after: number;
  /**
   * Called with the events of the sequences above `after`, a journal read
   * (about a megabyte of records) at a time, in order, and awaited before
   * replay goes on; `through` is the last sequence replayed so far, events
   * or not. The last call's `through` is the journal's last sequence.
   */
  deliver(published: Published<Event>[], through: number): Promise<void>;
}

/**
 * The state at the journal's end: the latest good snapshot, then every record
 * after it applied in order. Refuses a snapshot past the journal, which
 * `read` alone would pass over in silence.
 *
 * Without `catchUp` the events are not built (`Machine.apply`'s `emit`):
 * they were published before the crash, or their commands were never
 * acknowledged; with it, only those above the watermark are. With it, replay starts
 * from the newest snapshot at or below `catchUp.after` (state zero without
 * one), so that every event above the watermark is derived again and
 * delivered: a newer snapshot would skip the events between. It refuses a
 * watermark past the journal: that database was projected from another
 * journal.
 */
export async function recover<State, Command, Result, Event>(
  machine: Machine<State, Command, Result, Event>,
  journal: Pick<Journal, 'read' | 'lastSequence'> & Partial<Pick<FileJournal, 'readBatches'>>,
  snapshots: Pick<SnapshotStore, 'latest'>,
  catchUp?: CatchUp<Event>,
): Promise<Recovered<State>> {
  const journalSeq = journal.lastSequence();
  if (catchUp && catchUp.after > journalSeq) throw new ProjectionAheadError(catchUp.after, journalSeq);
  const latest = await (catchUp ? snapshots.latest(catchUp.after) : snapshots.latest());
  if (latest !== null && latest.seq > journalSeq) throw new SnapshotAheadError(latest.seq, journalSeq);
  const state = latest === null ? machine.initialState() : machine.decodeState(latest.bytes);
  const snapshotSeq = latest?.seq ?? 0;
  let seq = snapshotSeq;
  for await (const records of recordsAfter(journal, snapshotSeq)) {
    const published: Published<Event>[] = [];
    for (const record of records) {
      // Below the watermark (or with no projector at all) nobody reads the events: the machine need not build them.
      const emit = catchUp !== undefined && record.seq > catchUp.after;
      const { events } = step(machine, state, machine.decodeCommand(record.payload), record.seq, emit);
      if (emit && events.length > 0) published.push({ seq: record.seq, events });
      seq = record.seq;
    }
    if (catchUp && seq > catchUp.after) await catchUp.deliver(published, seq);
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
