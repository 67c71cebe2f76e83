import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { nuid } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import type { CorruptSnapshot } from '../journal/index.ts';
import {
  type SnapshotStoreHarness,
  snapshotStoreContract,
} from '../journal/snapshot-store-contract.test-support.ts';
import { snapshotName } from '../journal/snapshot-store-shared.ts';
import { asText, text } from '../journal/test-support.ts';
import { openJetStreamSnapshotStore } from './index.ts';
import { skipWithoutNats, useJetStream } from './test-support.ts';

const skip = await skipWithoutNats();

describe.skipIf(skip)('snapshot store in a JetStream Object Store bucket', () => {
  const nats = useJetStream();

  async function open(): Promise<
    SnapshotStoreHarness & { bucket: string; chunkSubjects(): Promise<string[]> }
  > {
    const bucket = nats.name('snapshots');
    const corrupt: CorruptSnapshot[] = [];
    const store = await openJetStreamSnapshotStore({
      connection: nats.nc(),
      bucket,
      onCorrupt: (found) => corrupt.push(found),
    });
    const objects = await new Objm(nats.nc()).open(bucket);
    const jsm = await jetstreamManager(nats.nc());
    const live = async () => (await objects.list()).filter((info) => !info.deleted);
    const chunkSubjects = async () => {
      const { state } = await jsm.streams.info(`OBJ_${bucket}`, { subjects_filter: `$O.${bucket}.C.>` });
      return Object.keys(state.subjects ?? {});
    };
    return {
      bucket,
      store,
      corrupt,
      chunkSubjects,
      names: async () => (await live()).map((info) => info.name).sort(),
      leaveHalfWritten: async () => {
        await jetstream(nats.nc()).publish(
          `$O.${bucket}.C.${nuid.next()}`,
          text('the first chunk of a snapshot'),
        );
      },
      halfWritten: async () => {
        const named = new Set((await live()).map((info) => `$O.${bucket}.C.${info.nuid}`));
        return (await chunkSubjects()).filter((subject) => !named.has(subject)).length;
      },
      readRaw: async (name) => Buffer.from((await objects.getBlob(name))!),
      writeRaw: async (name, bytes) => {
        await objects.putBlob({ name }, bytes);
      },
    };
  }

  snapshotStoreContract(open);

  /** Replaces an object's one chunk: `chunk` null leaves it with none. */
  async function replaceChunk(bucket: string, name: string, chunk: Uint8Array | null): Promise<void> {
    const info = (await (await new Objm(nats.nc()).open(bucket)).info(name))!;
    const subject = `$O.${bucket}.C.${info.nuid}`;
    await (await jetstreamManager(nats.nc())).streams.purge(`OBJ_${bucket}`, { filter: subject });
    if (chunk) await jetstream(nats.nc()).publish(subject, chunk);
  }

  it('passes over an object whose chunks are missing, and prune removes it', async () => {
    const { bucket, store, corrupt, names, chunkSubjects } = await open();
    await store.write(5, text('five'));
    await store.write(9, text('nine'));
    await replaceChunk(bucket, snapshotName(9), null);
    expect((await store.latest())?.seq).toBe(5);
    expect(corrupt).toEqual([{ file: snapshotName(9), reason: 'holds 0 of its 1 chunks' }]);
    expect(await store.prune(3)).toEqual([5]);
    expect(await names()).toEqual([snapshotName(5)]);
    expect(await chunkSubjects()).toHaveLength(1);
  });

  it('passes over an object whose chunks do not match its digest', async () => {
    const { bucket, store, corrupt, readRaw } = await open();
    await store.write(5, text('five'));
    await store.write(9, text('nine'));
    const nine = await readRaw(snapshotName(9));
    nine.writeUInt8(nine.readUInt8(nine.length - 1) ^ 1, nine.length - 1);
    await replaceChunk(bucket, snapshotName(9), nine);
    expect((await store.latest())?.seq).toBe(5);
    expect(corrupt).toEqual([
      { file: snapshotName(9), reason: 'its SHA-256 digest does not match its chunks' },
    ]);
  });

  it('stores a large snapshot in chunks of a message each, and never answers it half written', async () => {
    const { bucket, store } = await open();
    await store.write(1, text('one'));
    const large = Buffer.alloc(6 * 1024 * 1024, 7);
    let written = false;
    const writing = store.write(2, large).then(() => {
      written = true;
    });
    const seen = new Set<number>();
    while (!written) {
      const latest = await store.latest();
      seen.add(latest!.seq);
      if (latest!.seq === 1) expect(asText(latest!.bytes)).toBe('one');
      else expect(Buffer.from(latest!.bytes).equals(large)).toBe(true);
    }
    await writing;
    expect(seen.has(1)).toBe(true);
    const info = await (await new Objm(nats.nc()).open(bucket)).info(snapshotName(2));
    expect(info?.chunks).toBe(7);
    expect((await store.latest())?.seq).toBe(2);
  });

  it('creates its bucket, and closes the connection it opened', async () => {
    const bucket = nats.name('owned');
    const store = await openJetStreamSnapshotStore({ servers: nats.nc().getServer(), bucket });
    await store.write(3, text('three'));
    expect((await store.latest())?.seq).toBe(3);
    await store.close();
    await expect(store.latest()).rejects.toThrow();
    const other = await openJetStreamSnapshotStore({ connection: nats.nc(), bucket });
    expect(asText((await other.latest())!.bytes)).toBe('three');
  });
});
