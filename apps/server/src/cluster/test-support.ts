import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Store } from '../store/connect.ts';
import { ClusterCore } from './cluster-core.ts';
import { type ClusterNames, decodeJson, encodeJson, type NodeQuestion } from './protocol.ts';
import { SequencerNode } from './sequencer-node.ts';
import { openClusterStorage } from './storage.ts';

interface LineWaiter {
  test: (line: string) => boolean;
  resolve: (line: string) => void;
}

/**
 * A child process of a cluster test (`node SCRIPT ...args`, a bundle from childBundle):
 * its output lines as they come, waits for one that matches, input lines,
 * and kill -9. It rejects its waiters if it exits while they wait.
 */
export class TestChild {
  readonly lines: string[] = [];
  private waiters: LineWaiter[] = [];
  private pending = '';
  private errors = '';
  private exitedWith: string | null = null;
  private readonly process: ChildProcessWithoutNullStreams;
  readonly exited: Promise<string>;

  constructor(
    readonly name: string,
    script: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    private readonly onLine: (child: TestChild, line: string) => void = () => undefined,
  ) {
    this.process = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.process.stderr.on('data', (chunk: Buffer) => {
      this.errors = (this.errors + chunk.toString()).slice(-4_000);
    });
    this.process.stdout.on('data', (chunk: Buffer) => {
      const lines = (this.pending + chunk.toString()).split('\n');
      this.pending = lines.pop() ?? '';
      for (const line of lines) this.take(line);
    });
    this.exited = new Promise((resolve) => {
      this.process.on('exit', (code, signal) => {
        this.exitedWith = `${this.name} exited (${signal ?? code}): ${this.errors}`;
        resolve(this.exitedWith);
      });
    });
  }

  private take(line: string): void {
    this.lines.push(line);
    this.onLine(this, line);
    const still: LineWaiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.test(line)) waiter.resolve(line);
      else still.push(waiter);
    }
    this.waiters = still;
  }

  /** The first line from now on that `test` accepts; rejects if the child exits first. */
  nextLine(test: (line: string) => boolean): Promise<string> {
    if (this.exitedWith !== null) return Promise.reject(new Error(this.exitedWith));
    return new Promise((resolve, reject) => {
      this.waiters.push({ test, resolve });
      void this.exited.then((why) => reject(new Error(why)));
    });
  }

  send(line: string): void {
    this.process.stdin.write(`${line}\n`);
  }

  /** Whether the process is still running. */
  alive(): boolean {
    return this.exitedWith === null;
  }

  /** Freezes it (SIGSTOP) as a stalled machine would be, or lets it go on (SIGCONT). */
  freeze(frozen: boolean): void {
    this.process.kill(frozen ? 'SIGSTOP' : 'SIGCONT');
  }

  /** kill -9; resolves once it is gone. */
  async kill(): Promise<void> {
    this.process.kill('SIGKILL');
    await this.exited;
  }
}

/** A question to one node of the cluster (`NodeQuestion`), its JSON answer. */
export async function askNode<T>(
  nc: NatsConnection,
  subject: string,
  question: NodeQuestion,
  timeoutMs = 30_000,
): Promise<T> {
  const answer = await nc.request(subject, encodeJson(question), { timeout: timeoutMs });
  return decodeJson<T>(answer.data);
}

/**
 * Deletes everything a test's or a bench's cluster kept in JetStream: the
 * journal's stream and every bucket (leases, jobs, presence, snapshots).
 * One list, so a bucket added to the cluster's names is not left behind.
 */
export async function deleteClusterStreams(nc: NatsConnection, names: ClusterNames): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const streams = [
    names.stream,
    `KV_${names.leaseBucket}`,
    `KV_${names.jobsBucket}`,
    `KV_${names.presenceBucket}`,
    `OBJ_${names.snapshotBucket}`,
  ];
  for (const stream of streams) await jsm.streams.delete(stream).catch(() => false);
}

/**
 * A cluster inside the test's process, on one database: gateways
 * (ClusterCore) and sequencer nodes (SequencerNode), each with a storage of
 * its own, as separate processes would have. `close` closes them in the
 * reverse order and deletes the cluster's streams.
 */
export class InProcessCluster {
  private readonly closing: (() => Promise<unknown>)[] = [];

  constructor(
    readonly nc: NatsConnection,
    readonly names: ClusterNames,
    readonly store: Store,
  ) {}

  async gateway(): Promise<ClusterCore> {
    const storage = await this.storage();
    const gateway = await ClusterCore.start({
      names: this.names,
      nc: this.nc,
      tail: storage.tail,
      snapshots: storage.snapshots,
      db: this.store.db,
    });
    this.closing.push(() => gateway.close());
    return gateway;
  }

  /** A node projecting on this thread; `log` gets its lines. */
  async node(nodeId: string, log: (line: string) => void = () => undefined): Promise<SequencerNode> {
    const storage = await this.storage();
    const node = await SequencerNode.start({
      nodeId,
      names: this.names,
      nc: this.nc,
      tail: storage.tail,
      snapshots: storage.snapshots,
      db: this.store.db,
      dialect: this.store.dialect,
      workerStore: null,
      log,
    });
    this.closing.push(() => node.close());
    return node;
  }

  async close(): Promise<void> {
    for (const close of this.closing.reverse()) await close();
    await deleteClusterStreams(this.nc, this.names);
  }

  private async storage() {
    const storage = await openClusterStorage(this.nc, this.names);
    this.closing.push(() => storage.close());
    return storage;
  }
}
