import { connect } from '@nats-io/transport-node';
import type { Config } from '../config.ts';
import { type Readiness, serveHealth } from '../http/health.ts';
import { openPostgres, openStore } from '../store/connect.ts';
import { announcePresence } from './presence.ts';
import { clusterNames } from './protocol.ts';
import { SequencerNode } from './sequencer-node.ts';
import { openClusterStorage } from './storage.ts';

/**
 * How far behind the stream a standby may be and still be ready: it takes
 * over within a failover's time only when warm (docs/cluster.md, "Failover time").
 */
const STANDBY_READY_WITHIN = 1_000;

/**
 * The `sequencer` role (HALYARD_ROLE=sequencer, docs/cluster.md "Running a
 * node"): a standby until it takes the lease, then the leader. The process
 * exits when the node stops leading (1) or on SIGTERM once it has handed
 * over (0); its supervisor starts it again, as a standby. It serves
 * /healthz and /readyz on HALYARD_HEALTH_PORT (0: none).
 */
export async function runSequencer(config: Config): Promise<void> {
  const databaseUrl = config.databaseUrl!;
  const { cluster, schema } = config;
  const names = clusterNames(cluster.name);
  const nc = await connect({ servers: cluster.natsUrl, name: `halyard-sequencer-${cluster.nodeId}` });
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
    nodeId: cluster.nodeId,
    names,
    nc,
    tail: storage.tail,
    snapshots: storage.snapshots,
    db: store.db,
    dialect: store.dialect,
    workerStore: cluster.projector === 'worker' ? { postgresUrl: databaseUrl, schema } : null,
    leaseTtlMs: cluster.leaseTtlMs,
    snapshotEveryMs: cluster.snapshotEveryMs,
    keepSnapshots: cluster.keepSnapshots,
  });
  // On the console's cluster panel while it runs; its entry expires a few seconds after it dies.
  const presence = await announcePresence({
    nc,
    names,
    kind: 'node',
    id: cluster.nodeId,
    read: () => node.status(),
  });
  const readiness = async (): Promise<Readiness> => {
    const status = node.status();
    const behind = Math.max(0, (await storage.tail.lastSequence()) - status.seq);
    const nats = !nc.isClosed();
    return {
      ready: nats && (status.role === 'leader' || behind <= STANDBY_READY_WITHIN),
      role: 'sequencer',
      checks: {
        nats,
        leading: status.role === 'leader',
        seq: status.seq,
        behind,
        projected: status.projected,
      },
    };
  };
  const health =
    cluster.healthPort > 0 ? await serveHealth(cluster.healthPort, config.host, readiness) : null;

  /** SIGTERM: the commands taken are answered and projected, and the lease released, so the standby leads at once. */
  async function shutDown(): Promise<void> {
    await presence.close();
    await node.close();
    await health?.close();
    await storage.close();
    await store.close();
    await nc.close();
    process.exit(0);
  }
  process.once('SIGTERM', () => void shutDown());
  process.once('SIGINT', () => void shutDown());
  // Stopped leading (or never could): exit now, answering nothing more; the supervisor starts a standby.
  if ((await node.ended) !== 'closed') process.exit(1);
}
