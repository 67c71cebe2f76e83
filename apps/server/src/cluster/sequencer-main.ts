import os from 'node:os';
import { connect } from '@nats-io/transport-node';
import { openPostgres, openStore } from '../store/connect.ts';
import { announcePresence } from './presence.ts';
import { clusterNames } from './protocol.ts';
import { SequencerNode } from './sequencer-node.ts';
import { openClusterStorage } from './storage.ts';

/**
 * A sequencer node of the cluster as a process (docs/cluster.md, "Running
 * it"): a standby until it takes the lease, then the leader. It exits when
 * it stops leading (1) or on SIGTERM once it has handed over (0); its
 * supervisor starts it again, as a standby.
 *
 *   HALYARD_CLUSTER            the cluster's name (default halyard): its stream, buckets and subjects
 *   HALYARD_NODE_ID            this node's name (default the host's)
 *   HALYARD_NATS_URL           NATS with JetStream (default 127.0.0.1:4222)
 *   DATABASE_URL               PostgreSQL, where the leader projects; HALYARD_DATABASE_SCHEMA a schema in it
 *   HALYARD_PROJECTOR          thread (default: on the node's thread) or worker (a thread of its own, which
 *                              takes a second or more to start at a takeover: docs/cluster.md, "Failover time")
 *   HALYARD_LEASE_TTL_MS       how long a silent leader keeps the lease (default 2000)
 *   HALYARD_SNAPSHOT_EVERY_MS  how often the leader writes a snapshot (default 300000); HALYARD_KEEP_SNAPSHOTS (3)
 */
const env = process.env;
const databaseUrl = env.DATABASE_URL;
if (!databaseUrl?.startsWith('postgres')) throw new Error('a sequencer node needs DATABASE_URL (PostgreSQL)');
const names = clusterNames(env.HALYARD_CLUSTER ?? 'halyard');
const nodeId = env.HALYARD_NODE_ID ?? os.hostname().replace(/[^A-Za-z0-9_-]/g, '-');
const schema = env.HALYARD_DATABASE_SCHEMA || undefined;
const number = (value: string | undefined, otherwise: number) => (value ? Number(value) : otherwise);

const nc = await connect({
  servers: env.HALYARD_NATS_URL ?? '127.0.0.1:4222',
  name: `halyard-sequencer-${nodeId}`,
});
const storage = await openClusterStorage(nc, names);
// Migrated once by whichever process comes first (the migrator takes a lock), then the node's own sessions.
await (await openStore({ databaseUrl, sqliteFile: '', schema })).close();
/**
 * A leader that stalls inside a projector transaction (a paused machine)
 * holds the watermark's row, and the next leader's projector would wait on
 * it for as long: PostgreSQL ends such a session after five idle seconds.
 */
const store = openPostgres(databaseUrl, schema, { idle_in_transaction_session_timeout: '5000' });
const node = await SequencerNode.start({
  nodeId,
  names,
  nc,
  tail: storage.tail,
  snapshots: storage.snapshots,
  db: store.db,
  dialect: store.dialect,
  workerStore: env.HALYARD_PROJECTOR === 'worker' ? { postgresUrl: databaseUrl, schema } : null,
  leaseTtlMs: number(env.HALYARD_LEASE_TTL_MS, 2_000),
  snapshotEveryMs: number(env.HALYARD_SNAPSHOT_EVERY_MS, 5 * 60_000),
  keepSnapshots: number(env.HALYARD_KEEP_SNAPSHOTS, 3),
});
// On the console's cluster panel while it runs; its entry expires a few seconds after it dies.
const presence = await announcePresence({ nc, names, kind: 'node', id: nodeId, read: () => node.status() });

/** SIGTERM: the commands taken are answered and projected, and the lease released, so the standby leads at once. */
async function shutDown(): Promise<void> {
  await presence.close();
  await node.close();
  await storage.close();
  await store.close();
  await nc.close();
  process.exit(0);
}
process.once('SIGTERM', () => void shutDown());
// Stopped leading (or never could): exit now, answering nothing more; the supervisor starts a standby.
if ((await node.ended) !== 'closed') process.exit(1);
