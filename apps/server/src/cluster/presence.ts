import os from 'node:os';
import { type ClusterMember, HALYARD_VERSION } from '@halyard/protocol';
import { JetStreamApiCodes, JetStreamApiError, jetstreamManager } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { ClusterCore } from './cluster-core.ts';
import { type ClusterNames, decodeJson, encodeJson } from './protocol.ts';

/**
 * Presence (docs/cluster.md, "Watching the cluster"): every process of a
 * cluster, sequencer node or gateway, keeps an entry of its own in the
 * cluster's presence bucket, renewed every second, and answers its reading
 * on a subject of its own. The bucket's entries expire when not renewed (the
 * bucket's TTL: per-key TTLs need NATS 2.11, and this machine runs 2.9), so
 * the bucket lists the processes alive a few seconds ago; asking each one
 * gives readings taken at the same moment, whose lags can be compared.
 */

/** How long an entry outlives its last renewal: the bucket's, the same for every process of a cluster. */
export const PRESENCE_TTL_MS = 5_000;
const ANNOUNCE_EVERY_MS = 1_000;

/** What a process says of itself at each announcement: the rest of its entry does not change. */
export type MemberReading = Pick<ClusterMember, 'role' | 'seq' | 'projected' | 'leadingSince'> &
  Partial<Pick<ClusterMember, 'runsJobs'>>;

export interface PresenceOptions {
  nc: NatsConnection;
  names: ClusterNames;
  /** Sequencer nodes and gateways name themselves apart: a gateway may share a host name with a node. */
  kind: 'node' | 'gateway';
  /** Unique among the processes of its kind (letters, digits, `-`, `_`). */
  id: string;
  read: () => MemberReading;
  /** The bucket's TTL (default PRESENCE_TTL_MS): every process of a cluster must use the same. */
  ttlMs?: number;
  /** Told of an announcement that failed (the next one tries again; default console.error). */
  onError?: (error: unknown) => void;
}

export interface Presence {
  /** Stops announcing and removes the entry, so the panel drops this process at once. */
  close(): Promise<void>;
}

/** Announces this process now and every second after, and answers its reading when asked. */
export async function announcePresence(options: PresenceOptions): Promise<Presence> {
  if (!/^[A-Za-z0-9_-]+$/.test(options.id)) throw new RangeError(`presence id ${options.id}`);
  const { nc, names } = options;
  const kv = await openPresenceBucket(nc, names, options.ttlMs);
  const key = `${options.kind}.${options.id}`;
  const fixed = { id: options.id, startedAt: Date.now(), version: HALYARD_VERSION, host: os.hostname() };
  const entry = (): ClusterMember => {
    // Only the reading's own fields: a node's status carries more.
    const { role, seq, projected, leadingSince, runsJobs = false } = options.read();
    return { ...fixed, role, seq, projected, leadingSince, runsJobs, seenAt: Date.now() };
  };
  const answers: Subscription = nc.subscribe(names.subjects.member(key), {
    callback: (_error, message) => {
      message.respond(encodeJson(entry()));
    },
  });
  const onError = options.onError ?? ((error: unknown) => console.error('cluster presence', error));
  let putting: Promise<unknown> = kv.put(key, encodeJson(entry()));
  await putting;
  const timer = setInterval(() => {
    putting = putting.then(() => kv.put(key, encodeJson(entry()))).catch(onError);
  }, ANNOUNCE_EVERY_MS);
  // A connection closed for good announces nothing more: the entry expires.
  void nc.closed().then(() => clearInterval(timer));
  return {
    async close() {
      clearInterval(timer);
      answers.unsubscribe();
      await putting;
      await kv.delete(key);
    },
  };
}

/** A gateway's one call: it announces its replica's sequence (docs/cluster.md, "Watching the cluster"). */
export function announceGateway(options: {
  nc: NatsConnection;
  names: ClusterNames;
  id: string;
  core: Pick<ClusterCore, 'sequencer'>;
  /** Whether it holds the jobs lease now. */
  runsJobs: () => boolean;
  onError?: (error: unknown) => void;
}): Promise<Presence> {
  const { core, runsJobs, ...rest } = options;
  return announcePresence({
    ...rest,
    kind: 'gateway',
    read: () => ({
      role: 'gateway',
      seq: core.sequencer.lastSequence(),
      projected: null,
      leadingSince: null,
      runsJobs: runsJobs(),
    }),
  });
}

/**
 * The processes of the cluster whose entries have not expired, each asked
 * for its reading now (within `askTimeoutMs`); one that does not answer is
 * listed as it last announced itself (its `seenAt` says when). The bucket is
 * opened, not created: a reader must not touch its configuration (an update
 * of the stream's, every few milliseconds, held off its expiry here).
 */
export async function clusterMembers(
  nc: NatsConnection,
  names: ClusterNames,
  options: { askTimeoutMs?: number } = {},
): Promise<ClusterMember[]> {
  const keys = await presenceKeys(nc, names);
  if (keys === null) return [];
  const kv = await new Kvm(nc).open(names.presenceBucket);
  const members = await Promise.all(
    keys.map(async (key) => {
      try {
        const answer = await nc.request(names.subjects.member(key), undefined, {
          timeout: options.askTimeoutMs ?? 500,
        });
        return decodeJson<ClusterMember>(answer.data);
      } catch {
        const announced = await kv.get(key);
        return announced?.operation === 'PUT' ? decodeJson<ClusterMember>(announced.value) : null;
      }
    }),
  );
  return members.filter((member) => member !== null);
}

/**
 * The keys in the bucket now, or null when no process has made it yet. Read
 * from the stream's own count per subject in one request, not with
 * `kv.keys()`, which reads them through a consumer: once, in a test run where
 * entries were expiring, such a listing never ended (the test timed out after
 * 30 s). A count per subject is one answer and cannot wait on an entry.
 */
async function presenceKeys(nc: NatsConnection, names: ClusterNames): Promise<string[] | null> {
  const prefix = `$KV.${names.presenceBucket}.`;
  try {
    const info = await (await jetstreamManager(nc)).streams.info(`KV_${names.presenceBucket}`, {
      subjects_filter: `${prefix}>`,
    });
    return Object.keys(info.state.subjects ?? {}).map((subject) => subject.slice(prefix.length));
  } catch (error) {
    if (isMissingBucket(error)) return null;
    throw error;
  }
}

/** No process has made this bucket yet. */
export function isMissingBucket(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;
}

function openPresenceBucket(nc: NatsConnection, names: ClusterNames, ttlMs = PRESENCE_TTL_MS): Promise<KV> {
  return new Kvm(nc).create(names.presenceBucket, { ttl: ttlMs, history: 1 });
}
