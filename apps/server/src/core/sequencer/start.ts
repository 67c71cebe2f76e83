import {
  type FileJournal,
  type FileJournalOptions,
  openFileJournal,
  openSnapshotStore,
} from '../journal/index.ts';
import type { Machine } from './machine.ts';
import { recover } from './recover.ts';
import { Sequencer } from './sequencer.ts';
import { inlineSnapshotSink } from './snapshot-sink.ts';

export interface StartedSequencer<State, Command, Result, Event> {
  sequencer: Sequencer<State, Command, Result, Event>;
  journal: FileJournal;
}

/**
 * A sequencer on the data directory `dir` (its journal in `dir/journal`, its
 * snapshots in `dir/snapshots`), started where recovery leaves the state;
 * snapshots are written inline.
 */
export async function startFromDisk<State, Command, Result, Event>(
  machine: Machine<State, Command, Result, Event>,
  dir: string,
  journalOptions: FileJournalOptions = {},
): Promise<StartedSequencer<State, Command, Result, Event>> {
  const journal = await openFileJournal(`${dir}/journal`, journalOptions);
  const snapshots = openSnapshotStore(`${dir}/snapshots`);
  const sequencer = new Sequencer({
    machine,
    journal,
    snapshots: inlineSnapshotSink(snapshots),
    start: await recover(machine, journal, snapshots),
  });
  return { sequencer, journal };
}
