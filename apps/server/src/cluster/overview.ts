import type { ClusterLeader, ClusterMember, ClusterStatus } from '@halyard/protocol';
import { type KvEntry, Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { clusterMembers, isMissingBucket } from './presence.ts';
import { type ClusterNames, clusterNames } from './protocol.ts';

/**
 * The console's cluster panel (GET /admin/cluster, docs/cluster.md,
 * "Watching the cluster"): who holds the lease, since when, and every live
 * process with how far it is behind the leader; SQL's watermark and its lag.
 */
export async function clusterOverview(nc: NatsConnection, cluster: string): Promise<ClusterStatus> {
  const names = clusterNames(cluster);
  const [lease, members] = await Promise.all([readLease(nc, names), clusterMembers(nc, names)]);
  const leading = lease
    ? members.find((member) => member.id === lease.id && member.role === 'leader')
    : undefined;
  const leader: ClusterLeader | null = lease && {
    id: lease.id,
    leaseRevision: lease.revision,
    since: leading?.leadingSince ?? null,
    seq: leading?.seq ?? null,
    projected: leading?.projected ?? null,
    projectionLag: leading?.projected == null ? null : leading.seq - leading.projected,
  };
  const rows = members
    .map((member) => ({ ...member, lag: leading ? leading.seq - member.seq : null }))
    .sort((a, b) => order(a) - order(b) || a.id.localeCompare(b.id));
  return { mode: 'cluster', name: cluster, at: Date.now(), leader, members: rows };
}

/** The leader first, then the standbys, then the gateways. */
function order(member: ClusterMember): number {
  return ['leader', 'standby', 'gateway'].indexOf(member.role);
}

/** The lease's holder and revision, or null when no one holds it (or no node ever made the bucket). */
async function readLease(
  nc: NatsConnection,
  names: ClusterNames,
): Promise<{ id: string; revision: number } | null> {
  let entry: KvEntry | null;
  try {
    entry = await (await new Kvm(nc).open(names.leaseBucket)).get(names.leaseKey);
  } catch (error) {
    if (isMissingBucket(error)) return null;
    throw error;
  }
  return entry?.operation === 'PUT' ? { id: entry.string(), revision: entry.revision } : null;
}
