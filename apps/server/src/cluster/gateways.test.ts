import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Dec } from '@halyard/money';
import type { DepthLevel, ServerPush } from '@halyard/protocol';
import { connect, nuid } from '@nats-io/transport-node';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { childBundle } from '../child-bundles.ts';
import { freePort, NATS_SERVERS, skipWithoutNats } from '../core/journal-jetstream/test-support.ts';
import { prng } from '../core/state/command-stream.ts';
import { call } from '../http/test-support.ts';
import { MONEY_PROJECTION } from '../money-core/projection-name.ts';
import { watermarkStore } from '../projection/store.ts';
import { createTestSchema, dropTestSchema, openPostgres } from '../store/connect.ts';
import { ClusterCore } from './cluster-core.ts';
import { clusterNames } from './protocol.ts';
import { openClusterStorage } from './storage.ts';
import { askNode, deleteClusterStreams, TestChild } from './test-support.ts';

/**
 * Cluster mode over HTTP (issue #20): the real server, `main.ts`, as two
 * sequencers and two gateways (HALYARD_ROLE), each a process with ports of
 * its own, against this machine's NATS and PostgreSQL. Users register and
 * get play money through HTTP; spot orders and transfers go through both
 * gateways at a steady rate; a WebSocket client on each gateway follows the
 * BTC/USDT book. The leader is killed with SIGKILL five times at seeded
 * random points and the gateway that runs the jobs once, each started
 * again. Then every order acknowledged over HTTP is in SQL once (and SQL
 * holds no more orders than were sent), the leader's ledger audit is clean,
 * both gateways' WebSocket books equal the book SQL's open orders make, and
 * both gateways push the pair lists to their own clients.
 *
 * The command-level proof (resent commands, a frozen leader, state hashes of
 * every copy) is failover.test.ts's; this one is about the roles and their
 * composition, over HTTP and WebSocket.
 */
const url = process.env.TEST_DATABASE_URL;
const skip = (await skipWithoutNats()) || !url;
/** Acknowledged orders between two kills. */
const BETWEEN_KILLS = 40;
/** The bar: the leader killed at least five times; the gateway that runs the jobs after the second. */
const LEADER_KILLS = 5;
const GATEWAY_KILL_AFTER = 2;
const SEED = 20_261_127;
/** Each client sends its next request this long after the last answer: a steady rate. */
const PACE_MS = 150;

/**
 * Waits for `check` as `eventually` does, but past `ms` fails saying what did
 * not happen (and `detail`), so that a hang in this long test names itself.
 */
async function until(what: string, check: () => boolean | Promise<boolean>, detail = () => '', ms = 60_000) {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms ${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Order {
  autoid: number;
  type: 'buy' | 'sell';
  price: string;
  number: string;
}

async function readiness(port: number): Promise<{ ready: boolean; checks: Record<string, unknown> } | null> {
  try {
    return (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as {
      ready: boolean;
      checks: Record<string, unknown>;
    };
  } catch {
    return null;
  }
}

/** A WebSocket client of one gateway, following the BTC/USDT book; it connects again when its gateway comes back. */
class BookWatcher {
  buy: DepthLevel[] = [];
  sell: DepthLevel[] = [];
  /** The pair lists (`overview`) pushed since the last connection: every gateway pushes them to its own clients. */
  overviews = 0;
  private socket: WebSocket | null = null;
  private stopped = false;

  constructor(private readonly port: () => number) {
    this.open();
  }

  private open(): void {
    if (this.stopped) return;
    const socket = new WebSocket(`ws://127.0.0.1:${this.port()}/ws/${nuid.next()}`);
    this.socket = socket;
    this.overviews = 0;
    socket.on('open', () => socket.send('USDT_BTC_trad'));
    socket.on('message', (data) => {
      const text = String(data);
      if (text === 'pong') return;
      const push = JSON.parse(text) as ServerPush;
      if (push.type === 'buy' && push.key === 'USDT_BTC_trad') this.buy = push.data;
      if (push.type === 'sell' && push.key === 'USDT_BTC_trad') this.sell = push.data;
      if (push.type === 'overview') this.overviews += 1;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => setTimeout(() => this.open(), 200));
  }

  close(): void {
    this.stopped = true;
    this.socket?.terminate();
  }
}

describe.skipIf(skip)('cluster mode over HTTP: two gateways, two sequencers, kill -9', () => {
  /**
   * What the test set up, undone in reverse after it. Not in a `finally`: a
   * test that times out stops running its own code, and no process or stream
   * may outlive the file.
   */
  const undo: (() => unknown)[] = [];
  afterAll(async () => {
    for (const step of undo.reverse()) await step();
  });
  it('keeps every acknowledged order once, a clean ledger, and the same book on both gateways', async () => {
    // The server as a deployment runs it: bundled (child-bundles.ts).
    const main = await childBundle('src/main.ts');
    const cluster = `test_gateways_${nuid.next()}`;
    const names = clusterNames(cluster);
    const schema = await createTestSchema(url!);
    undo.push(() => dropTestSchema(url!, schema));
    const store = openPostgres(url!, schema);
    undo.push(() => store.close());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-gateways-'));
    undo.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const nc = await connect({ servers: NATS_SERVERS });
    undo.push(() => nc.close());
    undo.push(() => deleteClusterStreams(nc, names));
    const children: TestChild[] = [];
    undo.push(() => Promise.all(children.map((child) => child.kill())));
    const watchers: BookWatcher[] = [];
    undo.push(() => {
      for (const watcher of watchers) watcher.close();
    });
    const common = {
      HALYARD_CLUSTER: cluster,
      HALYARD_NATS_URL: NATS_SERVERS,
      DATABASE_URL: url,
      HALYARD_DATABASE_SCHEMA: schema,
      HALYARD_DATA_DIR: dataDir,
      HALYARD_DEMO: 'true',
      // The index ticks once an hour: the market maker stays quiet, and only the test's users trade.
      PRICE_TICK_MS: '3600000',
      LOG_LEVEL: 'warn',
    };
    const sequencers = new Map<string, { child: TestChild; port: number }>();
    const startSequencer = async (id: string, port?: number) => {
      const healthPort = port ?? (await freePort());
      const child = new TestChild(`sequencer ${id}`, main, [], {
        ...common,
        HALYARD_ROLE: 'sequencer',
        HALYARD_NODE_ID: id,
        HALYARD_HEALTH_PORT: String(healthPort),
      });
      children.push(child);
      sequencers.set(id, { child, port: healthPort });
      await until(
        `sequencer ${id} ready`,
        async () => (await readiness(healthPort))?.ready === true,
        () => child.lines.slice(-5).join('\n'),
      );
    };
    const leader = async () => {
      let found: string | null = null;
      await until('one sequencer leading', async () => {
        for (const [id, { child, port }] of sequencers)
          if (child.alive() && (await readiness(port))?.checks.leading === true) found = id;
        return found !== null;
      });
      return found!;
    };
    const gateways: { child: TestChild; port: number }[] = [];
    const startGateway = async (index: number, port?: number) => {
      const httpPort = port ?? (await freePort());
      const child = new TestChild(`gateway ${index}`, main, [], {
        ...common,
        HALYARD_ROLE: 'gateway',
        HALYARD_NODE_ID: `g${index}`,
        PORT: String(httpPort),
      });
      children.push(child);
      gateways[index] = { child, port: httpPort };
      await until(
        `gateway ${index} ready`,
        async () => (await readiness(httpPort))?.ready === true,
        () => child.lines.slice(-5).join('\n'),
      );
    };
    const base = (index: number) => `http://127.0.0.1:${gateways[index]!.port}`;

    await startSequencer('a');
    await startSequencer('b');
    await startGateway(0);
    // The first gateway runs the jobs, the demo seeds among them: the pair exists once it answers.
    await until(
      'BTC/USDT seeded',
      async () => (await call(base(0), 'GET', '/trad/trad?tradcoin=BTC&maincoin=USDT')).code === 200,
    );
    await startGateway(1);
    expect((await readiness(gateways[0]!.port))?.checks.jobs, gateways[0]!.child.lines.join('\n')).toBe(true);
    expect((await readiness(gateways[1]!.port))?.checks.jobs).toBe(false);

    // Registered through one gateway, funded through the other: sessions live in SQL.
    const tokens: string[] = [];
    const userIds: number[] = [];
    for (const [index, email] of ['buyer@example.com', 'seller@example.com'].entries()) {
      const sent = await call<{ demoCode?: string }>(
        base(index),
        'GET',
        `/user/getCode?account=${encodeURIComponent(email)}&purpose=register`,
      );
      const registered = await call<{ token: string; member: { id: number } }>(
        base(index),
        'POST',
        '/member/register',
        undefined,
        {
          account: email,
          code: sent.data.demoCode,
          password: 'secret123',
          confirmPassword: 'secret123',
          agreed: true,
        },
      );
      expect(registered.code, registered.msg).toBe(200);
      tokens.push(registered.data.token);
      for (let grant = 0; grant < 2; grant++) {
        const granted = await call(base(1 - index), 'POST', '/account/demoFaucet', registered.data.token, {});
        expect(granted.code, granted.msg).toBe(200);
      }
    }
    const { rows: members } = await sql<{ id: number }>`
        select id from users where email in ('buyer@example.com', 'seller@example.com')`.execute(store.db);
    userIds.push(...members.map((member) => Number(member.id)));

    watchers.push(new BookWatcher(() => gateways[0]!.port), new BookWatcher(() => gateways[1]!.port));

    // Four clients, two per gateway, each sending its next request once the last is answered.
    const acknowledged = new Map<number, Order>();
    let ordersSent = 0;
    let transfers = 0;
    /** The ledger transfer id each acknowledged move answered with. */
    const transferIds: string[] = [];
    let stopping = false;
    const client = async (gateway: number, user: number) => {
      for (let n = 0; !stopping; n++) {
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
        try {
          if (n % 5 === 4) {
            // A transfer there and back: money moving through the other path of the core.
            const answer = await call<{ id: string }>(
              base(gateway),
              'POST',
              '/account/c2cTransfer',
              tokens[user],
              {
                coin: 'USDT',
                number: '1',
                from: n % 10 === 4 ? 'spot' : 'fiat',
                to: n % 10 === 4 ? 'fiat' : 'spot',
              },
            );
            if (answer.code === 200) {
              transfers += 1;
              transferIds.push(answer.data.id);
            }
            continue;
          }
          const buy = user === 0;
          const price = String(buy ? 95 + (n % 5) : 99 + (n % 5));
          const body = { tradcoin: 'BTC', maincoin: 'USDT', price, number: '0.01' };
          ordersSent += 1;
          const answer = await call<Order>(
            base(gateway),
            'POST',
            buy ? '/trad/buyLimit' : '/trad/sellLimit',
            tokens[user],
            body,
          );
          if (answer.code === 200) acknowledged.set(answer.data.autoid, answer.data);
          else refusals.set(answer.msg, (refusals.get(answer.msg) ?? 0) + 1);
        } catch {
          // The gateway's process died with the request: not acknowledged.
        }
      }
    };
    const clients = [client(0, 0), client(0, 1), client(1, 0), client(1, 1)];
    const refusals = new Map<string, number>();
    const acks = (count: number) =>
      until(
        `${count} acknowledged orders`,
        () => acknowledged.size >= count,
        () => JSON.stringify({ acknowledged: acknowledged.size, refusals: [...refusals] }),
      );

    /** From each kill -9 of the leader to the standby's /readyz saying it leads, in ms. */
    const failovers: number[] = [];
    const killLeader = async () => {
      const id = await leader();
      const { child, port } = sequencers.get(id)!;
      const killedAt = performance.now();
      await child.kill();
      await leader();
      failovers.push(Math.round(performance.now() - killedAt));
      await startSequencer(id, port);
    };
    // The leader killed at random points (a seeded count of orders after the last kill), the jobs gateway once.
    const random = prng(SEED);
    for (let kill = 1; kill <= LEADER_KILLS; kill++) {
      await acks(acknowledged.size + BETWEEN_KILLS / 2 + random(BETWEEN_KILLS));
      await killLeader();
      if (kill !== GATEWAY_KILL_AFTER) continue;
      // The gateway that runs the jobs: the other takes them over.
      await acks(acknowledged.size + BETWEEN_KILLS / 2);
      await gateways[0]!.child.kill();
      await until(
        'the jobs moving to gateway 1',
        async () => (await readiness(gateways[1]!.port))?.checks.jobs === true,
      );
      await startGateway(0, gateways[0]!.port);
    }
    await acks(acknowledged.size + BETWEEN_KILLS);
    stopping = true;
    await Promise.all(clients);
    // The bar for a failover, as failover.test.ts checks it at the command level.
    expect(
      failovers.every((ms) => ms < 5_000),
      failovers.join(', '),
    ).toBe(true);
    console.log(
      `${LEADER_KILLS} failovers, ms from kill -9 to the standby's /readyz leading: ${failovers.join(', ')}\n` +
        `${ordersSent} orders sent, ${acknowledged.size} acknowledged, ${transfers} transfers acknowledged; ` +
        `refused: ${JSON.stringify([...refusals])}\n` +
        children
          .flatMap((child) => child.lines.filter((line) => line.includes('"level":50')))
          .slice(0, 10)
          .join('\n'),
    );

    // SQL holds every acknowledged order, as it was acknowledged, and no order that was not sent.
    const leading = await leader();
    const status = await askNode<{ seq: number }>(nc, names.subjects.node(leading), 'status');
    await until(
      'SQL holding the last sequence',
      async () => (await watermarkStore.read(store.db, MONEY_PROJECTION)) >= status.seq,
    );
    const { rows: orders } = await sql<{
      autoid: string;
      type: 'buy' | 'sell';
      price: string;
      unfilled: string;
      state: string;
    }>`select autoid, type, price, unfilled, state from spot_orders
         where user_id in (${sql.join(userIds)})`.execute(store.db);
    const stored = new Map(orders.map((order) => [Number(order.autoid), order]));
    for (const [autoid, acked] of acknowledged) {
      const found = stored.get(autoid);
      expect(found, `order ${autoid}`).toBeDefined();
      expect(found!.type).toBe(acked.type);
      expect(Dec.parse(found!.price).eq(Dec.parse(acked.price))).toBe(true);
    }
    expect(orders.length).toBeLessThanOrEqual(ordersSent);
    // And every acknowledged transfer, once: its id is the ledger transfer's.
    const { rows: moves } = await sql<{ id: string }>`
        select id from ledger_transfers where id in (${sql.join(transferIds)})`.execute(store.db);
    expect(moves.map((move) => move.id).sort()).toEqual([...transferIds].sort());
    expect(transferIds.length).toBeGreaterThan(0);

    // The ledger audit as the console's dashboard runs it on a gateway: a ClusterCore asks the leader.
    const storage = await openClusterStorage(nc, names);
    const observer = await ClusterCore.start({
      names,
      nc,
      tail: storage.tail,
      snapshots: storage.snapshots,
      db: store.db,
    });
    try {
      let audit: Awaited<ReturnType<ClusterCore['audit']>> | null = null;
      await until("an audit through a gateway's core", async () => {
        audit = await observer.audit().catch(() => null);
        return audit !== null;
      });
      expect(audit!.seq).toBeGreaterThanOrEqual(status.seq);
      expect(audit!.report.accounts).toBeGreaterThan(0);
      expect(audit!.report.breaches).toEqual([]);
      expect(observer.status()).toMatchObject({ snapshot: null, projected: expect.any(Number) });
      expect(observer.status().sequence).toBeGreaterThanOrEqual(status.seq);
    } finally {
      await observer.close();
      await storage.close();
    }

    // Both gateways' WebSocket books converge to the book of SQL's open orders (the state's, projected).
    const { rows: open } = await sql<{ type: 'buy' | 'sell'; price: string; unfilled: string }>`
        select o.type, o.price, o.unfilled from spot_orders o join spot_pairs p on p.autoid = o.pair_id
        where p.tradcoin = 'BTC' and p.maincoin = 'USDT' and o.state in ('unfilled', 'partial')`.execute(
      store.db,
    );
    const expected = { buy: new Map<string, Dec>(), sell: new Map<string, Dec>() };
    for (const order of open) {
      const side = expected[order.type];
      const price = Dec.parse(order.price).toString();
      side.set(price, (side.get(price) ?? Dec.ZERO).add(Dec.parse(order.unfilled)));
    }
    const levels = (side: Map<string, Dec>) =>
      [...side].map(([price, amount]) => `${price}:${amount.toString()}`).sort();
    const shown = (book: DepthLevel[]) =>
      book
        .map((level) => `${Dec.parse(level.price).toString()}:${Dec.parse(level.amount).toString()}`)
        .sort();
    await until(
      'both WebSocket books equal to SQL',
      () =>
        watchers.every(
          (watcher) =>
            JSON.stringify(shown(watcher.buy)) === JSON.stringify(levels(expected.buy)) &&
            JSON.stringify(shown(watcher.sell)) === JSON.stringify(levels(expected.sell)),
        ),
      () =>
        JSON.stringify({
          expected: [levels(expected.buy), levels(expected.sell)],
          shown: watchers.map((watcher) => [shown(watcher.buy), shown(watcher.sell)]),
        }),
    );
    expect(expected.buy.size + expected.sell.size).toBeGreaterThan(0);
    // The timed pushes reach the clients of the gateway without the jobs too (not only its replica's books).
    await until(
      'the pair lists pushed again and again by both gateways',
      () => watchers.every((watcher) => watcher.overviews >= 2),
      () => JSON.stringify(watchers.map((watcher) => watcher.overviews)),
    );
  }, 180_000);
});
