import { connect } from '@nats-io/transport-node';
import { type App, createApp } from '../app.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { acquireLeadership, type Leadership } from '../core/journal-jetstream/index.ts';
import { seedDemoHistory } from '../demo-history.ts';
import { databaseReachable, type Readiness } from '../http/health.ts';
import { logStartupNotes } from '../startup-notes.ts';
import { openStore } from '../store/connect.ts';
import { ClusterCore } from './cluster-core.ts';
import { ClusterNotices } from './notices.ts';
import { clusterOverview } from './overview.ts';
import { announceGateway } from './presence.ts';
import { clusterNames } from './protocol.ts';
import { openClusterStorage } from './storage.ts';

/** The key of the gateways' lease (in the cluster's jobs bucket): its holder runs the jobs. */
export const JOBS_LEASE_KEY = 'jobs';

/**
 * How far behind the stream a gateway's replica may be and still be ready:
 * a few hundred milliseconds of commands at the cluster's rate.
 */
const READY_WITHIN_RECORDS = 1_000;

/**
 * The `gateway` role (HALYARD_ROLE=gateway, docs/deployment.md): the HTTP
 * API and WebSocket, the modules on a ClusterCore (a replica of the state;
 * commands to the leading sequencer). Every gateway campaigns for the
 * `jobs` lease; the holder runs what must run once in the cluster (the
 * demo seeds, then `app.start()`'s timers: index prices, market makers,
 * chain polling, schedulers). A holder that loses the lease ends the
 * process (exit 1) for its supervisor to start again: the modules' timers
 * stop only with the whole app, and a process that keeps serving while
 * unsure whether it still runs the jobs could run them twice.
 */
export async function runGateway(config: Config, clock: Clock): Promise<void> {
  const { cluster } = config;
  const names = clusterNames(cluster.name);
  const nc = await connect({ servers: cluster.natsUrl, name: `halyard-gateway-${cluster.nodeId}` });
  const storage = await openClusterStorage(nc, names);
  const store = await openStore(config);
  let app: App | null = null;
  /** Errors go to the app's log once it exists, to stderr before. */
  const logError = (context: string) => (error: unknown) =>
    app ? app.http.log.error({ err: error }, context) : console.error(context, error);
  const core = await ClusterCore.start({
    names,
    nc,
    tail: storage.tail,
    snapshots: storage.snapshots,
    db: store.db,
    onError: logError('cluster core'),
    // Its state would never move again: a start from the latest snapshot is the way out.
    onReplicaStopped: (error) => {
      logError('cluster core')(error);
      console.error(`gateway ${cluster.nodeId}: the replica stopped following the journal; exiting`);
      process.exit(1);
    },
  });
  let jobs: Leadership | null = null;
  const readiness = async (): Promise<Readiness> => {
    const nats = !nc.isClosed();
    const behind = await core.behind();
    const database = await databaseReachable(store.db);
    return {
      ready: nats && database && behind.failure === null && behind.records <= READY_WITHIN_RECORDS,
      role: 'gateway',
      checks: {
        nats,
        database,
        seq: core.sequencer.lastSequence(),
        behind: behind.records,
        replicaStopped: behind.failure,
        jobs: jobs?.isHeld() ?? false,
      },
    };
  };
  const started = await createApp({
    config,
    store,
    clock,
    core,
    readiness,
    deferDemoSeeds: true,
    gatewayNotices: new ClusterNotices(nc, names.subjects.views, logError('gateway notices')),
    clusterOverview: () => clusterOverview(nc, cluster.name),
  });
  app = started;
  // On the console's cluster panel while it runs; its entry expires a few seconds after it dies.
  const presence = await announceGateway({
    nc,
    names,
    id: cluster.nodeId,
    core,
    runsJobs: () => jobs?.isHeld() ?? false,
    onError: logError('gateway presence'),
  });
  await started.http.listen({ port: config.port, host: config.host });
  // Per process: the WebSocket's idle sweep and the pushes to this gateway's clients. The rest of app.start() is the jobs'.
  started.startPushes();
  started.http.log.info(`Halyard gateway ${cluster.nodeId} on ${config.publicUrl} (cluster ${cluster.name})`);
  await logStartupNotes(started, config);

  const stopCampaign = new AbortController();
  let closing = false;
  const campaign = (async () => {
    jobs = await acquireLeadership(
      {
        connection: nc,
        bucket: names.jobsBucket,
        key: JOBS_LEASE_KEY,
        ttlMs: cluster.jobsLeaseTtlMs,
        holder: cluster.nodeId,
      },
      stopCampaign.signal,
    );
    void jobs.lost.then((reason) => {
      if (closing) return;
      started.http.log.error(`gateway ${cluster.nodeId}: lost the jobs lease (${reason}); exiting`);
      process.exit(1);
    });
    started.http.log.info(`gateway ${cluster.nodeId}: runs the jobs`);
    // The price source is this gateway's now: it goes on from the last tick SQL holds.
    await started.market.leadIndex();
    if (config.demo) {
      await started.seedDemo();
      await seedDemoHistory(started, config);
    }
    started.start();
  })().catch((error: unknown) => {
    if (stopCampaign.signal.aborted) return;
    started.http.log.error({ err: error }, 'jobs lease');
    process.exit(1);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      closing = true;
      stopCampaign.abort();
      await campaign;
      await presence.close();
      await started.close();
      await jobs?.release();
      await core.close();
      await storage.close();
      await store.close();
      await nc.close();
      process.exit(0);
    });
  }
}
