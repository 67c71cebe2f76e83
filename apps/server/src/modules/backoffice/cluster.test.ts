import type { ClusterOverview } from '@halyard/protocol';
import { connect, type NatsConnection, nuid } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterCore } from '../../cluster/cluster-core.ts';
import { clusterOverview } from '../../cluster/overview.ts';
import { announceGateway, announcePresence, type Presence } from '../../cluster/presence.ts';
import { clusterNames } from '../../cluster/protocol.ts';
import { SequencerNode } from '../../cluster/sequencer-node.ts';
import { type ClusterStorage, openClusterStorage } from '../../cluster/storage.ts';
import { deleteClusterStreams } from '../../cluster/test-support.ts';
import { eventually, NATS_SERVERS, skipWithoutNats } from '../../core/journal-jetstream/test-support.ts';
import { expectOk, get, type Harness, registerByEmail, startHarness } from '../identity/test-support.ts';
import { operatorSession } from '../operators/test-support.ts';

/**
 * The console's cluster panel (GET /admin/cluster, docs/cluster.md,
 * "Watching the cluster"): operators with dashboard.read only; one process
 * says so plainly; a gateway of a cluster tells the lease's holder, since
 * when, each member's lag and SQL's, read from a sequencer node and a
 * gateway running in this process against the machine's NATS.
 */
const readPanel = async (h: Harness, headers: Record<string, string>) =>
  (await expectOk(get(h, '/admin/cluster', undefined, headers))).data as ClusterOverview;

describe('the cluster panel in one process', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('says one process runs, to operators who read the dashboard only', async () => {
    const support = (await operatorSession(h.app, 'support', h.clock)).headers;
    expect(await readPanel(h, support)).toEqual({ mode: 'single' });
    const content = (await operatorSession(h.app, 'content', h.clock)).headers;
    expect((await get(h, '/admin/cluster', undefined, content)).code).toBe(403);
    const { token } = await registerByEmail(h, 'cluster-panel@example.com');
    expect((await get(h, '/admin/cluster', undefined, { authorization: `Bearer ${token}` })).code).not.toBe(
      0,
    );
    expect((await get(h, '/admin/cluster')).code).not.toBe(0);
  });
});

describe.skipIf(await skipWithoutNats())('the cluster panel on a gateway of a cluster', () => {
  const cluster = `test_panel_${nuid.next()}`;
  const names = clusterNames(cluster);
  let nc: NatsConnection;
  let h: Harness;
  let storage: ClusterStorage;
  let node: SequencerNode;
  let gateway: ClusterCore;
  const presences: Presence[] = [];
  beforeAll(async () => {
    nc = await connect({ servers: NATS_SERVERS });
    h = await startHarness({ clusterOverview: () => clusterOverview(nc, cluster) });
    storage = await openClusterStorage(nc, names);
    node = await SequencerNode.start({
      nodeId: 'a',
      names,
      nc,
      tail: storage.tail,
      snapshots: storage.snapshots,
      db: h.store.db,
      dialect: h.store.dialect,
      workerStore: null,
      log: () => undefined,
    });
    presences.push(await announcePresence({ nc, names, kind: 'node', id: 'a', read: () => node.status() }));
    gateway = await ClusterCore.start({
      names,
      nc,
      tail: storage.tail,
      snapshots: storage.snapshots,
      db: h.store.db,
    });
    presences.push(await announceGateway({ nc, names, id: 'g1', core: gateway, runsJobs: () => false }));
  });
  afterAll(async () => {
    for (const presence of presences) await presence.close();
    await gateway?.close();
    await node?.close();
    await storage?.close();
    await deleteClusterStreams(nc, names);
    await nc.close();
    await h.close();
  });

  it("tells the lease's holder and since when, each member's lag, and SQL's", async () => {
    const finance = (await operatorSession(h.app, 'finance', h.clock)).headers;
    await eventually(() => node.status().projected !== null);
    const panel = await readPanel(h, finance);
    if (panel.mode !== 'cluster') throw new Error(`a gateway answered ${panel.mode}`);
    expect(panel.name).toBe(cluster);
    expect(panel.leader).toMatchObject({ id: 'a', seq: 0, projected: 0, projectionLag: 0 });
    expect(panel.leader!.leaseRevision).toBeGreaterThan(0);
    expect(panel.leader!.since).toBe(node.status().leadingSince);
    expect(panel.members.map(({ id, role, seq, lag }) => ({ id, role, seq, lag }))).toEqual([
      { id: 'a', role: 'leader', seq: 0, lag: 0 },
      { id: 'g1', role: 'gateway', seq: 0, lag: 0 },
    ]);

    // The leader stops (its lease released): the panel says no one leads, and lags are unknown.
    await presences.shift()!.close();
    await node.close();
    const leaderless = await readPanel(h, finance);
    if (leaderless.mode !== 'cluster') throw new Error(`a gateway answered ${leaderless.mode}`);
    expect(leaderless.leader).toBeNull();
    expect(leaderless.members.map(({ id, lag }) => ({ id, lag }))).toEqual([{ id: 'g1', lag: null }]);
  });
});
