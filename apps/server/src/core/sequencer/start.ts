import {
  type FileJournal,
  type FileJournalOptions,
  openFileJournal,
  openSnapshotStore,
  type SnapshotStore,
} from '../journal/index.ts';
import type { Machine } from './machine.ts';
import { type CatchUp, type Recovered, recover } from './recover.ts';
import { Sequencer } from './sequencer.ts';
import { inlineSnapshotSink, type SnapshotSink } from './snapshot-sink.ts';

export interface StartedSequencer<State, Command, Result, Event> {
  sequencer: Sequencer<State, Command, Result, Event>;
  journal: FileJournal;
  /** The snapshot store the sequencer writes through (to prune it). */
  snapshots: SnapshotStore;
  /** Where recovery began and how much it replayed. */
  recovered: Omit<Recovered<State>, 'state'>;
}

/**
 * A sequencer on the data directory `dir` (its journal in `dir/journal`, its
 * snapshots in `dir/snapshots`), started where recovery leaves the state;
 * snapshots are written through `sink` (inline when none is given: tests;
 * the server gives `workerSnapshotSink`). With `catchUp`, recovery first hands a
 * projector the events above its watermark (see `recover`): subscribe the
 * projector before submitting anything, and it misses no sequence.
 */
export async function startFromDisk<State, Command, Result, Event>(
  machine: Machine<State, Command, Result, Event>,
  dir: string,
  journalOptions: FileJournalOptions = {},
  catchUp?: CatchUp<Event>,
  sink?: SnapshotSink,
): Promise<StartedSequencer<State, Command, Result, Event>> {
  const journal = await openFileJournal(`${dir}/journal`, journalOptions);
  const snapshots = openSnapshotStore(`${dir}/snapshots`);
  const { state, ...recovered } = await recover(machine, journal, snapshots, catchUp);
  const sequencer = new Sequencer({
    machine,
    journal,
    snapshots: sink ?? inlineSnapshotSink(snapshots),
    start: { state, seq: recovered.seq },
  });
  return { sequencer, journal, snapshots, recovered };
}
