import { connect, nuid } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalTruncatedError } from '../core/journal/index.ts';
import { NATS_SERVERS, skipWithoutNats } from '../core/journal-jetstream/test-support.ts';
import { takeCommands } from '../core/state/command-stream.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { ClusterCore } from './cluster-core.ts';
import { clusterNames } from './protocol.ts';

const skip = await skipWithoutNats();

describe.skipIf(skip)('a gateway whose replica stops following the journal', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it('is told once, refuses commands, and reports it as stopped', async () => {
    const nc = await connect({ servers: NATS_SERVERS });
    const stopped: unknown[] = [];
    const truncated = new JournalTruncatedError(0, 500);
    const core = await ClusterCore.start({
      names: clusterNames(`test_core_${nuid.next()}`),
      nc,
      // The stream was purged past this replica's place: the tail's first answer is the truncation.
      tail: {
        // biome-ignore lint/correctness/useYield: the stream ends at once, in an error
        async *follow() {
          throw truncated;
        },
        lastSequence: async () => 900,
      },
      snapshots: { latest: async () => null },
      db: store.db,
      onError: () => undefined,
      onReplicaStopped: (error) => stopped.push(error),
    });
    try {
      await expect.poll(() => stopped).toEqual([truncated]);
      const [command] = takeCommands({ seed: 1, users: 2, traders: 1 }, 1);
      await expect(core.submit(command!)).rejects.toThrow(/replica stopped/);
      expect((await core.behind()).failure).toMatch(/JournalTruncatedError|truncat/i);
    } finally {
      await core.close();
      await nc.close();
    }
  });
});
