import type { NatsConnection } from '@nats-io/transport-node';
import {
  type JetStreamSnapshotStore,
  type JetStreamTail,
  openJetStreamJournal,
  openJetStreamSnapshotStore,
  openJetStreamTail,
} from '../core/journal-jetstream/index.ts';
import type { ClusterNames } from './protocol.ts';

/** What every process of a cluster reads: the journal's stream, followed, and the shared snapshots. */
export interface ClusterStorage {
  tail: JetStreamTail;
  snapshots: JetStreamSnapshotStore;
  close(): Promise<void>;
}

/**
 * The cluster's journal tail and snapshot store, on the process's
 * connection. The tail reads an existing stream only; whichever process
 * comes first creates it, as the journal does (opening a journal appends
 * nothing).
 */
export async function openClusterStorage(nc: NatsConnection, names: ClusterNames): Promise<ClusterStorage> {
  const journal = { connection: nc, stream: names.stream, subject: names.journalSubject };
  await (await openJetStreamJournal(journal)).close();
  const tail = await openJetStreamTail(journal);
  const snapshots = await openJetStreamSnapshotStore({ connection: nc, bucket: names.snapshotBucket });
  return {
    tail,
    snapshots,
    close: async () => {
      await tail.close();
      await snapshots.close();
    },
  };
}
