/**
 * The durable foundation of the sequenced core (docs/core.md): the journal of
 * commands, appended and synced before any reply, and the snapshots of the
 * state that replay starts from.
 */
export {
  JournalClosedError,
  JournalCorruptError,
  JournalFailedError,
  JournalTruncatedError,
} from './errors.ts';
export {
  DEFAULT_SEGMENT_BYTES,
  type FileJournal,
  type FileJournalOptions,
  type Journal,
  type JournalRecord,
  type JournalStats,
  openFileJournal,
  type RecoveryReport,
} from './file-journal.ts';
export type { TornTail } from './recover.ts';
export {
  type CorruptSnapshot,
  openSnapshotStore,
  type Snapshot,
  type SnapshotStore,
  type SnapshotStoreOptions,
} from './snapshot-store.ts';
