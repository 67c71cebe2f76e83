/**
 * The journal of cluster mode (docs/core.md, "The journal on NATS JetStream"):
 * the same Journal interface over a JetStream stream, fenced so that only the
 * writer whose view is the stream's end may append, the leadership lease
 * that decides which sequencer is that writer, the tail that readers
 * keeping a replica follow, and the snapshot store every node shares.
 */
export type { NatsConnection, NatsSource } from './connection.ts';
export { JournalFencedError, JournalReadInterruptedError } from './errors.ts';
export {
  type JetStreamJournal,
  type JetStreamJournalOptions,
  openJetStreamJournal,
} from './jetstream-journal.ts';
export {
  acquireLeadership,
  type Leadership,
  type LeadershipOptions,
  tryAcquireLeadership,
} from './leadership.ts';
export {
  type JetStreamSnapshotStore,
  type JetStreamSnapshotStoreOptions,
  openJetStreamSnapshotStore,
} from './object-snapshot-store.ts';
export { type JetStreamTail, type JetStreamTailOptions, openJetStreamTail } from './tail.ts';
