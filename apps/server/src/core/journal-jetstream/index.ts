/**
 * The journal of cluster mode (docs/core.md, "The journal on NATS JetStream"):
 * the same Journal interface over a JetStream stream, fenced so that only the
 * writer whose view is the stream's end may append, and the leadership lease
 * that decides which sequencer is that writer.
 */
export type { NatsConnection, NatsSource } from './connection.ts';
export { JournalFencedError } from './errors.ts';
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
