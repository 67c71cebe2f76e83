import type { FileJournal, FileJournalOptions, SnapshotStore } from '../core/journal/index.ts';
import {
  type CatchUp,
  type Machine,
  type SnapshotSink,
  type StartedSequencer,
  startFromDisk,
} from '../core/sequencer/index.ts';
import type { Projector } from './projector.ts';

/**
 * Recovery's catch-up for several projectors at once: replay starts at or
 * below the lowest watermark, and each projector skips what it has written.
 */
export function catchUpAll<Event>(projectors: readonly Projector<Event>[]): CatchUp<Event> {
  const each = projectors.map((projector) => projector.catchUp());
  return {
    after: Math.min(...each.map((catchUp) => catchUp.after)),
    async deliver(published, through) {
      for (const catchUp of each) await catchUp.deliver(published, through);
    },
  };
}

/**
 * `startFromDisk` with projectors: recovery hands them the events above
 * their watermarks, then they follow the sequencer, before anything can be
 * submitted, so no sequence is skipped and none is written twice.
 */
export async function startProjected<State, Command, Result, Event>(
  machine: Machine<State, Command, Result, Event>,
  dir: string,
  projectors: readonly Projector<Event>[],
  journalOptions: FileJournalOptions = {},
  sink?: SnapshotSink,
): Promise<StartedSequencer<State, Command, Result, Event>> {
  const catchUp = projectors.length > 0 ? catchUpAll(projectors) : undefined;
  const started = await startFromDisk(machine, dir, journalOptions, catchUp, sink);
  for (const projector of projectors) projector.follow(started.sequencer);
  return started;
}

/**
 * The sequence the journal may be truncated up to (`truncateBefore`): records
 * no recovery will read again. A catch-up replays from the newest snapshot at
 * or below the lowest watermark, and a snapshot that turns out corrupt makes
 * recovery fall back to an older one; so the bound is the oldest snapshot
 * kept, provided it is at or below the watermark. Without such a snapshot,
 * catch-up must replay from sequence 0, and nothing may go (0).
 */
export function journalTruncationBound(keptSnapshots: readonly number[], watermark: number): number {
  if (keptSnapshots.length === 0) return 0;
  const oldest = Math.min(...keptSnapshots);
  return oldest <= watermark ? oldest : 0;
}

/**
 * Keeps the newest `keep` snapshots and the newest one at or below the
 * projectors' lowest watermark, then drops the journal's segments below what
 * recovery can still need. Answers the bound it truncated before.
 */
export async function pruneAndTruncate(options: {
  snapshots: Pick<SnapshotStore, 'prune'>;
  journal: Pick<FileJournal, 'truncateBefore'>;
  keep: number;
  projectors: readonly Pick<Projector<unknown>, 'watermark'>[];
}): Promise<number> {
  const watermark = Math.min(...options.projectors.map((projector) => projector.watermark()));
  const kept = await options.snapshots.prune(options.keep, watermark);
  const bound = journalTruncationBound(kept, watermark);
  await options.journal.truncateBefore(bound);
  return bound;
}
