import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import {
  Base64UrlPaddedCodec,
  type ObjectInfo,
  type ObjectStore,
  Objm,
  StorageType,
  setSha256Backend,
} from '@nats-io/obj';
import type { CorruptSnapshot, Snapshot, SnapshotStore, SnapshotStoreOptions } from '../journal/index.ts';
import {
  checkSnapshotSeq,
  choosePruned,
  corruptReporter,
  type ListedSnapshot,
  type LoadSnapshot,
  newestGood,
  seqOfSnapshotName,
  snapshotHeader,
  snapshotName,
  snapshotOrProblem,
} from '../journal/snapshot-store-shared.ts';
import { type HeldConnection, holdConnection, type NatsSource } from './connection.ts';

// The object store checks a SHA-256 digest of every object it writes and reads: node:crypto's, not the
// pure-JavaScript default, for snapshots of hundreds of megabytes. Process-wide, so set before any use.
setSha256Backend('native');

export type JetStreamSnapshotStoreOptions = NatsSource &
  SnapshotStoreOptions & {
    /** The Object Store bucket shared by every node; created (file storage) when absent. */
    bucket: string;
    /** Servers that store the bucket (when creating it). */
    replicas?: number;
  };

export interface JetStreamSnapshotStore extends SnapshotStore {
  /** Releases the connection when it was opened here. */
  close(): Promise<void>;
}

/** The server's name for the digest mismatch the object store's get reports. */
const DIGEST_MISMATCH = /^received a corrupt object/;

/**
 * The snapshot store of cluster mode (docs/core.md, "Snapshots in cluster
 * mode"): each snapshot is an object of a JetStream Object Store bucket,
 * named as the file store names its files and holding the same bytes, header
 * and checksum included.
 */
export async function openJetStreamSnapshotStore(
  options: JetStreamSnapshotStoreOptions,
): Promise<JetStreamSnapshotStore> {
  const held = await holdConnection(options);
  try {
    const objects = await new Objm(held.nc).create(options.bucket, {
      storage: StorageType.File,
      replicas: options.replicas ?? 1,
    });
    const { streamInfo } = await objects.status();
    const jsm = await jetstreamManager(held.nc);
    return new ObjectSnapshotStore(held, objects, jsm, streamInfo.config.name, options);
  } catch (error) {
    await held.release();
    throw error;
  }
}

/** What the bucket holds: its snapshots newest first, with their objects' info, and how many messages each chunk subject has. */
interface Contents {
  finals: (ListedSnapshot & { info: ObjectInfo })[];
  chunksOf: Map<string, number>;
}

/**
 * An object is written as chunks on a subject of its own, then one metadata
 * message naming them: until that message is stored, the object does not
 * exist for a reader. So a write cut short leaves only chunks nobody lists,
 * and an object is read only once whole.
 */
class ObjectSnapshotStore implements JetStreamSnapshotStore {
  private readonly onCorrupt: (corrupt: CorruptSnapshot) => void;
  private readonly metaPrefix: string;
  private readonly chunkPrefix: string;
  /** Chunks as large as a message may be: fewer round trips for a large snapshot. */
  private readonly chunkBytes: number;

  constructor(
    private readonly held: HeldConnection,
    private readonly objects: ObjectStore,
    private readonly jsm: JetStreamManager,
    private readonly stream: string,
    private readonly options: JetStreamSnapshotStoreOptions,
  ) {
    this.onCorrupt = corruptReporter(options);
    this.metaPrefix = `$O.${options.bucket}.M.`;
    this.chunkPrefix = `$O.${options.bucket}.C.`;
    this.chunkBytes = held.nc.info?.max_payload ?? 1024 * 1024;
  }

  async write(seq: number, bytes: Uint8Array): Promise<void> {
    checkSnapshotSeq(seq);
    await this.objects.put(
      { name: snapshotName(seq), options: { max_chunk_size: this.chunkBytes } },
      inPieces([snapshotHeader(seq, bytes), bytes], this.chunkBytes),
    );
  }

  async latest(atMost = Number.POSITIVE_INFINITY): Promise<Snapshot | null> {
    const contents = await this.contents();
    return newestGood(contents.finals, atMost, this.loader(contents), this.onCorrupt);
  }

  async prune(keep: number, keepAtOrBelow = Number.POSITIVE_INFINITY): Promise<number[]> {
    const contents = await this.contents();
    const { kept, doomed } = await choosePruned(
      contents.finals,
      keep,
      keepAtOrBelow,
      this.loader(contents),
      this.onCorrupt,
    );
    const infos = new Map(contents.finals.map((listed) => [listed.name, listed.info]));
    for (const { name } of doomed) await this.remove(name, infos.get(name)!.nuid);
    for (const nuid of await this.deadChunks(contents)) await this.purge(this.chunkPrefix + nuid);
    return kept;
  }

  async close(): Promise<void> {
    await this.held.release();
  }

  /** One request for every subject of the bucket, then each snapshot's metadata. */
  private async contents(): Promise<Contents> {
    const info = await this.jsm.streams.info(this.stream, { subjects_filter: `$O.${this.options.bucket}.>` });
    const finals: Contents['finals'] = [];
    const chunksOf = new Map<string, number>();
    for (const [subject, count] of Object.entries(info.state.subjects ?? {})) {
      if (subject.startsWith(this.chunkPrefix)) chunksOf.set(subject.slice(this.chunkPrefix.length), count);
      if (!subject.startsWith(this.metaPrefix)) continue;
      // decode answers a string unless asked for bytes.
      const name = String(Base64UrlPaddedCodec.decode(subject.slice(this.metaPrefix.length)));
      const seq = seqOfSnapshotName(name);
      const object = seq === null ? null : await this.objects.info(name);
      if (seq !== null && object !== null && !object.deleted) finals.push({ name, seq, info: object });
    }
    finals.sort((a, b) => b.seq - a.seq);
    return { finals, chunksOf };
  }

  private loader({ finals, chunksOf }: Contents): LoadSnapshot {
    const infos = new Map(finals.map((listed) => [listed.name, listed.info]));
    return async ({ name, seq }) => {
      const { nuid, chunks } = infos.get(name)!;
      // The object store's get waits for ever for chunks that are not there: count them first.
      const held = chunksOf.get(nuid) ?? 0;
      if (held !== chunks) return { file: name, reason: `holds ${held} of its ${chunks} chunks` };
      const stored = await this.read(name);
      if (stored === null || 'reason' in stored) return stored;
      return snapshotOrProblem(name, seq, stored);
    };
  }

  /** The object's bytes; null when it is gone; a corrupt snapshot when its digest does not match. */
  private async read(name: string): Promise<Buffer | CorruptSnapshot | null> {
    const result = await this.objects.get(name);
    if (result === null) return null;
    const stored = Buffer.allocUnsafe(result.info.size);
    const reader = result.data.getReader();
    let at = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (at + value.length > stored.length) {
          await reader.cancel();
          return { file: name, reason: `holds more than its size of ${stored.length} bytes` };
        }
        stored.set(value, at);
        at += value.length;
      }
    } catch (error) {
      if (error instanceof Error && DIGEST_MISMATCH.test(error.message))
        return { file: name, reason: 'its SHA-256 digest does not match its chunks' };
      throw error;
    }
    return stored.subarray(0, at);
  }

  /** The metadata first, so that the object is gone at once for a reader; then its chunks. */
  private async remove(name: string, nuid: string): Promise<void> {
    await this.purge(this.metaPrefix + Base64UrlPaddedCodec.encode(name));
    await this.purge(this.chunkPrefix + nuid);
  }

  /**
   * Chunks that no object names, stored before the latest metadata: a write
   * cut short before a later one completed (snapshots are written in order).
   * Chunks stored after it may be a write in progress: they stay.
   */
  private async deadChunks({ finals, chunksOf }: Contents): Promise<string[]> {
    const named = new Set(finals.map((listed) => listed.info.nuid));
    const latestWrite = Math.max(0, ...finals.map((listed) => listed.info.revision));
    const dead: string[] = [];
    for (const nuid of chunksOf.keys()) {
      if (named.has(nuid)) continue;
      const last = await this.jsm.streams.getMessage(this.stream, { last_by_subj: this.chunkPrefix + nuid });
      if (last !== null && last.seq < latestWrite) dead.push(nuid);
    }
    return dead;
  }

  private async purge(subject: string): Promise<void> {
    await this.jsm.streams.purge(this.stream, { filter: subject });
  }
}

/** The parts as one stream of pieces of at most `size` bytes, views into the parts (nothing is copied here). */
function inPieces(parts: readonly Uint8Array[], size: number): ReadableStream<Uint8Array> {
  let part = 0;
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      while (part < parts.length && at >= parts[part]!.length) {
        part += 1;
        at = 0;
      }
      if (part === parts.length) {
        controller.close();
        return;
      }
      const piece = parts[part]!.subarray(at, at + size);
      at += piece.length;
      controller.enqueue(piece);
    },
  });
}
