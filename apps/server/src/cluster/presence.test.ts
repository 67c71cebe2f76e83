import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection, nuid } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLeadership } from '../core/journal-jetstream/index.ts';
import { eventually, NATS_SERVERS, skipWithoutNats } from '../core/journal-jetstream/test-support.ts';
import { clusterOverview } from './overview.ts';
import { announceGateway, announcePresence, clusterMembers, type MemberReading } from './presence.ts';
import { type ClusterNames, clusterNames } from './protocol.ts';

/**
 * Presence against this machine's NATS (skipped without it): every process
 * announces itself in the cluster's bucket, the reader lists the live ones
 * with readings taken now, and an entry not renewed expires.
 */
const skip = await skipWithoutNats();

describe.skipIf(skip)('cluster presence', () => {
  let nc: NatsConnection;
  const made: ClusterNames[] = [];
  const newCluster = () => {
    const name = `test_presence_${nuid.next()}`;
    made.push(clusterNames(name));
    return { name, names: clusterNames(name) };
  };
  beforeAll(async () => {
    nc = await connect({ servers: NATS_SERVERS });
  });
  afterAll(async () => {
    const jsm = await jetstreamManager(nc);
    for (const names of made)
      for (const bucket of [names.presenceBucket, names.leaseBucket])
        await jsm.streams.delete(`KV_${bucket}`).catch(() => false);
    await nc.close();
  });

  it('lists each live process with its reading now, and drops one that closes at once', async () => {
    const { names } = newCluster();
    expect(await clusterMembers(nc, names)).toEqual([]);
    let standbySeq = 10;
    let runsJobs = false;
    const standby = await announcePresence({
      nc,
      names,
      kind: 'node',
      id: 'b',
      read: (): MemberReading => ({ role: 'standby', seq: standbySeq, projected: null, leadingSince: null }),
    });
    const gateway = await announceGateway({
      nc,
      names,
      id: 'b',
      core: { sequencer: { lastSequence: () => 7, subscribe: () => () => true, queued: () => 0 } },
      runsJobs: () => runsJobs,
    });
    // Read after the last announcement: the reader asks, it does not only read the bucket.
    standbySeq = 12;
    runsJobs = true;
    const members = await clusterMembers(nc, names);
    expect(
      members
        .map(({ id, role, seq, runsJobs }) => ({ id, role, seq, runsJobs }))
        .sort((a, b) => a.seq - b.seq),
    ).toEqual([
      { id: 'b', role: 'gateway', seq: 7, runsJobs: true },
      { id: 'b', role: 'standby', seq: 12, runsJobs: false },
    ]);
    expect(members[0]!.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(members[0]!.host).not.toBe('');

    await standby.close();
    expect((await clusterMembers(nc, names)).map((member) => member.role)).toEqual(['gateway']);
    await gateway.close();
    expect(await clusterMembers(nc, names)).toEqual([]);
  });

  it('lists a process that stopped answering as it last announced itself, until its entry expires', async () => {
    const { names } = newCluster();
    const ttlMs = 1_000;
    const own = await connect({ servers: NATS_SERVERS });
    await announcePresence({
      nc: own,
      names,
      kind: 'node',
      id: 'a',
      ttlMs,
      read: () => ({ role: 'standby', seq: 3, projected: null, leadingSince: null }),
      onError: () => undefined,
    });
    // The process dies: its connection goes, nothing removes its entry.
    await own.close();
    const [last] = await clusterMembers(nc, names, { askTimeoutMs: 100 });
    expect(last).toMatchObject({ id: 'a', role: 'standby', seq: 3 });
    await eventually(async () => (await clusterMembers(nc, names, { askTimeoutMs: 100 })).length === 0);
  });

  it("tells who holds the lease, since when, and each member's lag behind the leader", async () => {
    const { name, names } = newCluster();
    expect((await clusterOverview(nc, name)).leader).toBeNull();
    const lease = await acquireLeadership({
      connection: nc,
      bucket: names.leaseBucket,
      key: names.leaseKey,
      ttlMs: 2_000,
      holder: 'a',
    });
    const since = Date.now();
    const members = [
      await announcePresence({
        nc,
        names,
        kind: 'node',
        id: 'a',
        read: () => ({ role: 'leader', seq: 100, projected: 96, leadingSince: since }),
      }),
      await announcePresence({
        nc,
        names,
        kind: 'node',
        id: 'b',
        read: () => ({ role: 'standby', seq: 98, projected: null, leadingSince: null }),
      }),
      await announcePresence({
        nc,
        names,
        kind: 'gateway',
        id: 'g1',
        read: () => ({ role: 'gateway', seq: 90, projected: null, leadingSince: null }),
      }),
    ];
    try {
      const overview = await clusterOverview(nc, name);
      expect(overview.leader).toEqual({
        id: 'a',
        leaseRevision: lease.revision(),
        since,
        seq: 100,
        projected: 96,
        projectionLag: 4,
      });
      expect(overview.members.map(({ id, role, lag }) => ({ id, role, lag }))).toEqual([
        { id: 'a', role: 'leader', lag: 0 },
        { id: 'b', role: 'standby', lag: 2 },
        { id: 'g1', role: 'gateway', lag: 10 },
      ]);
    } finally {
      for (const member of members) await member.close();
      await lease.release();
    }
    expect((await clusterOverview(nc, name)).leader).toBeNull();
  });
});
