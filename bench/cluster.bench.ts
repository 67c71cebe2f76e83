/**
 * Cluster mode against one process (docs/cluster.md): what the extra hop
 * costs an order, and how long a failover takes.
 *
 *   node --import tsx bench/cluster.bench.ts [--orders 4000] [--alone 300] [--failovers 8]
 *
 * The same spot limit orders (traders funded first, buys and sells around
 * one price, so about half of them trade), each with an id, go to:
 *
 * - the anchor: an all-in-one MoneyCore, the journal in files on this disk
 *   (fsynced before each reply), the projector in a worker thread;
 * - the cluster: a ClusterCore in this process (a gateway) sending them over
 *   NATS to a sequencer node's process (main.ts as a sequencer: the journal on the
 *   local JetStream, R1, the projector on its thread), a standby node
 *   following; the gateway answers once its own replica has applied the
 *   order, as the handle promises.
 *
 * Both project into a fresh schema each of the same PostgreSQL
 * (BENCH_DATABASE_URL, default the local test database). For each: `alone`
 * orders one at a time (latency p50 and p99), then `orders` with 64 waiting
 * (orders a second). Then the leader is killed with SIGKILL `failovers`
 * times while the gateway keeps 64 orders waiting, and started again as the
 * standby, which has caught up with the leader before the next kill: the
 * time from the kill to the standby leading, and the longest the gateway
 * went without an answer around it. `uptime` is printed before
 * and after: the machine is shared.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Dec } from '@halyard/money';
import { connect, nuid } from '@nats-io/transport-node';
import { ClusterCore } from '../apps/server/src/cluster/cluster-core.ts';
import { clusterNames } from '../apps/server/src/cluster/protocol.ts';
import type { NodeStatus } from '../apps/server/src/cluster/sequencer-node.ts';
import { openClusterStorage } from '../apps/server/src/cluster/storage.ts';
import { askNode, deleteClusterStreams, TestChild } from '../apps/server/src/cluster/test-support.ts';
import { TEST_PAIRS } from '../apps/server/src/core/state/command-stream.ts';
import type { MoneyCommand } from '../apps/server/src/core/state/index.ts';
import { custodyWallet, systemAccount, userAccount } from '../apps/server/src/ledger/accounts.ts';
import type { MoneyCoreHandle } from '../apps/server/src/money-core/handle.ts';
import { MoneyCore } from '../apps/server/src/money-core/start.ts';
import { insertStreamMarkets } from '../apps/server/src/projection/test-support.ts';
import { createTestSchema, dropTestSchema, openPostgres } from '../apps/server/src/store/connect.ts';

const { values } = parseArgs({
  options: { orders: { type: 'string' }, alone: { type: 'string' }, failovers: { type: 'string' } },
});
const ORDERS = Number(values.orders ?? 4_000);
const ALONE = Number(values.alone ?? 300);
const FAILOVERS = Number(values.failovers ?? 8);
const IN_FLIGHT = 64;
const TRADERS = 40;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const NATS = process.env.BENCH_NATS_URL ?? '127.0.0.1:4222';
/** The server's one entry, run as HALYARD_ROLE=sequencer. */
const NODE = path.join(import.meta.dirname, '../apps/server/src/main.ts');
const AT = Date.UTC(2026, 10, 26);

const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const fmt = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** The pair and the traders' money, before any order. */
function setup(prefix: string): MoneyCommand[] {
  const pair = TEST_PAIRS[0]!;
  const deposit = (trader: number, asset: string, amount: string, n: number): MoneyCommand => ({
    kind: 'transfer',
    at: AT,
    id: `${prefix}:setup:${trader}:${n}`,
    batch: [
      {
        id: `${prefix}:deposit:${trader}:${asset}`,
        debit: systemAccount(custodyWallet('bsc')),
        credit: userAccount(trader, 'spot'),
        asset,
        amount: Dec.parse(amount),
        code: 'deposit',
      },
    ],
  });
  return [
    { kind: 'openPair', at: AT, id: `${prefix}:pair`, pair },
    ...Array.from({ length: TRADERS }, (_, t) => [
      deposit(t + 1, 'USDT', '100000000', 0),
      deposit(t + 1, pair.tradcoin, '1000000', 1),
    ]).flat(),
  ];
}

/** Order `n`: a limit buy or sell around 100, small, by one of the traders. */
function order(prefix: string, n: number): MoneyCommand {
  const trader = 1 + (n % TRADERS);
  const side = n % 2 === 0 ? 'buy' : 'sell';
  return {
    kind: 'place',
    at: AT + n,
    id: `${prefix}:o${n}`,
    pair: TEST_PAIRS[0]!.symbol,
    owner: String(trader),
    account: userAccount(trader, 'spot'),
    email: `u${trader}@example.com`,
    side,
    style: 'limit',
    price: `${99 + (n % 3)}.00`,
    amount: `0.${String(1 + (n % 97)).padStart(3, '0')}`,
  };
}

interface Figures {
  p50: number;
  p99: number;
  perSecond: number;
}

async function measure(core: MoneyCoreHandle, prefix: string): Promise<Figures> {
  for (const command of setup(prefix)) await core.submit(command);
  let n = 0;
  const latencies: number[] = [];
  for (; n < ALONE; n++) {
    const started = performance.now();
    await core.submit(order(prefix, n));
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  const started = performance.now();
  const end = n + ORDERS;
  const submitter = async () => {
    while (n < end) await core.submit(order(prefix, n++));
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, submitter));
  const perSecond = ORDERS / ((performance.now() - started) / 1000);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), perSecond };
}

async function allInOne(): Promise<Figures> {
  const schema = await createTestSchema(DATABASE_URL);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'halyard-cluster-bench-'));
  const store = openPostgres(DATABASE_URL, schema);
  await insertStreamMarkets(store.db);
  const core = await MoneyCore.start({
    dataDir,
    db: store.db,
    dialect: store.dialect,
    workerStore: { postgresUrl: DATABASE_URL, schema },
    now: () => AT,
    onError: () => undefined,
  });
  try {
    return await measure(core, 'one');
  } finally {
    await core.close();
    await store.close();
    await dropTestSchema(DATABASE_URL, schema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function cluster(): Promise<{ figures: Figures; failovers: number[]; gaps: number[] }> {
  const name = `bench_cluster_${nuid.next()}`;
  const names = clusterNames(name);
  const schema = await createTestSchema(DATABASE_URL);
  const nc = await connect({ servers: NATS });
  const store = openPostgres(DATABASE_URL, schema);
  await insertStreamMarkets(store.db);
  const children: TestChild[] = [];
  const startNode = async (id: string, ready: RegExp) => {
    const child = new TestChild(`node ${id}`, NODE, [], {
      HALYARD_ROLE: 'sequencer',
      HALYARD_HEALTH_PORT: '0',
      HALYARD_CLUSTER: name,
      HALYARD_NODE_ID: id,
      HALYARD_NATS_URL: NATS,
      DATABASE_URL,
      HALYARD_DATABASE_SCHEMA: schema,
    });
    children.push(child);
    await child.nextLine((line) => ready.test(line));
    return child;
  };
  try {
    const nodes = new Map([
      ['a', await startNode('a', /leading at/)],
      ['b', await startNode('b', /standby from/)],
    ]);
    const storage = await openClusterStorage(nc, names);
    const core = await ClusterCore.start({
      names,
      nc,
      tail: storage.tail,
      snapshots: storage.snapshots,
      db: store.db,
      onError: () => undefined,
    });
    const figures = await measure(core, 'cluster');

    // Failovers under a steady flow: 64 orders always waiting.
    let n = ALONE + ORDERS;
    let flowing = true;
    let lastAnswer = performance.now();
    let longestGap = 0;
    const submitter = async () => {
      while (flowing) {
        await core.submit(order('cluster', n++));
        const now = performance.now();
        longestGap = Math.max(longestGap, now - lastAnswer);
        lastAnswer = now;
      }
    };
    const flow = Promise.all(Array.from({ length: IN_FLIGHT }, submitter));
    const failovers: number[] = [];
    const gaps: number[] = [];
    let leader = 'a';
    for (let round = 0; round < FAILOVERS; round++) {
      const standby = leader === 'a' ? 'b' : 'a';
      const leads = nodes.get(standby)!.nextLine((line) => line.includes('leading at'));
      longestGap = 0;
      const killedAt = performance.now();
      await nodes.get(leader)!.kill();
      await leads;
      failovers.push(performance.now() - killedAt);
      nodes.set(leader, await startNode(leader, /standby from/));
      gaps.push(longestGap);
      // Warm before the next kill: a standby started again replays from the latest snapshot first.
      const leading = await askNode<NodeStatus>(nc, names.subjects.node(standby), 'status');
      while ((await askNode<NodeStatus>(nc, names.subjects.node(leader), 'status')).seq < leading.seq)
        await new Promise((resolve) => setTimeout(resolve, 50));
      leader = standby;
    }
    flowing = false;
    await flow;
    await core.close();
    await storage.close();
    return { figures, failovers, gaps };
  } finally {
    await Promise.all(children.map((child) => child.kill()));
    await deleteClusterStreams(nc, names);
    await nc.close();
    await store.close();
    await dropTestSchema(DATABASE_URL, schema);
  }
}

console.log(`before: ${uptime()}`);
const one = await allInOne();
const { figures, failovers, gaps } = await cluster();
console.log(`after:  ${uptime()}`);
const row = (label: string, f: Figures, anchor: Figures) =>
  `${label.padEnd(34)} ${fmt(f.p50).padStart(8)} ms ${fmt(f.p99).padStart(8)} ms ${fmt(Math.round(f.perSecond)).padStart(8)}/s` +
  `   ${fmt(f.p50 / anchor.p50)}× p50, ${fmt(f.perSecond / anchor.perSecond)}× rate`;
console.log(
  `\n${'orders'.padEnd(34)} ${'alone p50'.padStart(11)} ${'alone p99'.padStart(11)} ${`${IN_FLIGHT} waiting`.padStart(10)}`,
);
console.log(row('all-in-one, file journal (anchor)', one, one));
console.log(row('cluster: gateway → leader', figures, one));
console.log(`the hop's cost per order alone (p50): ${fmt(figures.p50 - one.p50)} ms`);
const sortedFailovers = [...failovers].sort((a, b) => a - b);
const sortedGaps = [...gaps].sort((a, b) => a - b);
console.log(
  `\n${FAILOVERS} failovers, kill -9 → standby leading: min ${fmt(sortedFailovers[0]!)} ms, ` +
    `median ${fmt(percentile(sortedFailovers, 0.5))} ms, max ${fmt(sortedFailovers.at(-1)!)} ms ` +
    `(${sortedFailovers.map((ms) => Math.round(ms)).join(', ')})`,
);
console.log(
  `longest the gateway went without an answer around each: min ${fmt(sortedGaps[0]!)} ms, ` +
    `median ${fmt(percentile(sortedGaps, 0.5))} ms, max ${fmt(sortedGaps.at(-1)!)} ms`,
);
process.exit(0);
