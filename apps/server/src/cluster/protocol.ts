import { type NatsConnection, nuid, RequestError, TimeoutError } from '@nats-io/transport-node';
import { SequencerBusyError } from '../core/sequencer/index.ts';
import type { MoneyResult } from '../core/state/index.ts';
import type { AuditReport } from '../ledger/index.ts';

/**
 * What the cluster's processes say to each other over NATS (docs/cluster.md,
 * "Intake"): gateways send commands to whichever sequencer leads, the leader
 * tells everyone how far SQL holds the commands, and every sequencer node
 * answers operators about itself.
 */
export interface ClusterSubjects {
  /** Requests: one command each, the machine's own encoding (`encodeCommand`). Only the leader listens. */
  submit: string;
  /** The leader's `ProjectionNotice`s: after each projector batch, and every second. */
  watermark: string;
  /** Requests to one node (`NodeQuestion`), answered by that node whatever its role. */
  node(nodeId: string): string;
  /** Requests to one member of the cluster (presence.ts): it answers its reading now. */
  member(key: string): string;
  /** A view's notices between the gateways (cluster/notices.ts): what one changed that the others keep in memory. */
  views(view: string): string;
}

/** Where one cluster keeps everything in NATS, all named after the cluster. */
export interface ClusterNames {
  /** The journal's stream, and the one subject it captures. */
  stream: string;
  journalSubject: string;
  /** The Object Store bucket of the snapshots every node shares. */
  snapshotBucket: string;
  /** The KV bucket of the sequencer's lease, and its key. */
  leaseBucket: string;
  leaseKey: string;
  /** The KV bucket where every process announces itself (presence.ts). */
  presenceBucket: string;
  /**
   * The KV bucket of the gateways' `jobs` lease (its holder runs what must
   * run once). A bucket of its own: a bucket has one TTL, and a gateway's
   * busy thread needs a longer one than a sequencer's failover time allows.
   */
  jobsBucket: string;
  subjects: ClusterSubjects;
}

/**
 * The names of cluster `name` (letters, digits, `-` and `_`): several
 * clusters (a test run's, say) share one NATS without meeting.
 */
export function clusterNames(name: string): ClusterNames {
  if (!/^[A-Za-z0-9_-]+$/.test(name))
    throw new RangeError(`cluster name ${JSON.stringify(name)}: use letters, digits, - and _`);
  return {
    stream: `${name}_journal`,
    journalSubject: `${name}.journal`,
    snapshotBucket: `${name}_snapshots`,
    leaseBucket: `${name}_leases`,
    leaseKey: 'sequencer',
    presenceBucket: `${name}_presence`,
    jobsBucket: `${name}_jobs`,
    subjects: {
      submit: `${name}.submit`,
      watermark: `${name}.watermark`,
      node: (nodeId) => `${name}.nodes.${nodeId}`,
      member: (key) => `${name}.presence.${key}`,
      views: (view) => `${name}.views.${view}`,
    },
  };
}

/**
 * The leader's answer to a command: its result and the sequence it was
 * journaled under, or a refusal. `busy`: the intake is full (`queueMax`
 * commands wait) and nothing was taken; `stopping`: this node is stepping down, and the command may or may
 * not be journaled (its id makes a resend safe); `invalid`: the command can
 * never be taken (it does not decode, or carries no id).
 */
export type SubmitReply =
  | { seq: number; result: MoneyResult }
  | { refused: 'busy'; queueMax: number }
  | { refused: 'stopping' | 'invalid'; message: string };

/** How far SQL holds the journal, as the leader says it; `leader` is the node that says it. */
export interface ProjectionNotice {
  leader: string;
  projected: number;
}

/** What an operator (or a test) asks a node: where it stands, its state's hash, or the audit of SQL against its state (the leader only). */
export type NodeQuestion = 'status' | 'hash' | 'audit';

/** The leader's answer to `audit`: the ledger audit of SQL against its state at sequence `seq`. */
export interface NodeAudit {
  seq: number;
  report: AuditReport;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** JSON: the money state's results are plain data (strings, numbers, booleans; `protocol.test.ts` checks a whole stream's). */
export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decodeJson<T>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

/**
 * Ids for the commands a gateway sends without one: this process's own
 * prefix (a NUID, unique across processes and restarts) and a counter. A
 * command resent under its id after a timeout or a failover is answered its
 * first result and applied once (`step`, core/sequencer/machine.ts).
 */
export function commandIds(prefix = nuid.next()): () => string {
  let count = 0;
  return () => `${prefix}.${(++count).toString(36)}`;
}

/**
 * No leader answered before the deadline: the command may or may not have
 * been applied. Not a refusal: resending it with the same id answers what it
 * did, or applies it once.
 */
export class ClusterUnavailableError extends Error {
  override readonly name = 'ClusterUnavailableError';
  constructor(deadlineMs: number, options?: ErrorOptions) {
    super(
      `no sequencer answered within ${deadlineMs} ms: the command's outcome is unknown; resend it with the same id`,
      options,
    );
  }
}

/** The leader can never take this command (`invalid`). */
export class ClusterRefusedError extends Error {
  override readonly name = 'ClusterRefusedError';
}

export interface SubmitOptions {
  /** How long to keep trying, in ms, through failovers: past it, ClusterUnavailableError. */
  deadlineMs: number;
  /** How long one attempt waits for its answer, in ms; then it is sent again. */
  attemptTimeoutMs: number;
}

/** Between attempts that found no leader (none listening, or one stepping down): short, so a new leader is found soon. */
const RETRY_PAUSE_MS = 50;

/**
 * Sends an encoded command (which must carry an id) to the leader and
 * answers its result and sequence. With no leader listening, a timeout or
 * a leader stepping down, it sends the same bytes again until
 * `deadlineMs`, then throws ClusterUnavailableError: the outcome is unknown,
 * never reported as a refusal. A full intake throws SequencerBusyError, as
 * the sequencer in one process does; a command the leader can never take
 * throws ClusterRefusedError.
 */
export async function submitToLeader(
  nc: Pick<NatsConnection, 'request'>,
  subject: string,
  payload: Uint8Array,
  options: SubmitOptions,
): Promise<{ seq: number; result: MoneyResult }> {
  const deadline = performance.now() + options.deadlineMs;
  let lastFailure: unknown = null;
  for (;;) {
    const left = deadline - performance.now();
    if (left <= 0) throw new ClusterUnavailableError(options.deadlineMs, { cause: lastFailure });
    let reply: SubmitReply;
    try {
      const message = await nc.request(subject, payload, {
        timeout: Math.max(1, Math.min(options.attemptTimeoutMs, left)),
      });
      reply = decodeJson<SubmitReply>(message.data);
    } catch (error) {
      lastFailure = error;
      if (error instanceof RequestError && error.isNoResponders()) await pause(deadline);
      else if (!(error instanceof TimeoutError))
        throw new ClusterUnavailableError(options.deadlineMs, { cause: error });
      continue;
    }
    if ('seq' in reply) return reply;
    if (reply.refused === 'busy') throw new SequencerBusyError(reply.queueMax);
    if (reply.refused === 'invalid') throw new ClusterRefusedError(reply.message);
    lastFailure = new Error(reply.message);
    await pause(deadline);
  }
}

function pause(deadline: number): Promise<void> {
  const ms = Math.max(0, Math.min(RETRY_PAUSE_MS, deadline - performance.now()));
  return new Promise((resolve) => setTimeout(resolve, ms));
}
