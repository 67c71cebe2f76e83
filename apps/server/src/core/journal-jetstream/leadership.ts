import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { type KV, Kvm } from '@nats-io/kv';
import { type HeldConnection, holdConnection, type NatsSource } from './connection.ts';

export type LeadershipOptions = NatsSource & {
  /** The KV bucket of leases; created when absent, with `ttlMs` as the age at which its entries expire. */
  bucket: string;
  /** The lease's key: one per role that must have a single holder (say, `sequencer`). */
  key: string;
  /** How long a lease lasts without renewal. It is the bucket's: an existing bucket must have the same. */
  ttlMs: number;
  /** Who holds it: stored as the key's value, for operators. */
  holder: string;
  /** Servers that store the bucket (when creating it). */
  replicas?: number;
};

export interface Leadership {
  readonly holder: string;
  /** The key's revision of the last successful renewal (or of the acquisition). */
  revision(): number;
  /** True while the lease is held: false once lost, and past the deadline of the last renewal even before it is noticed. */
  isHeld(): boolean;
  /** Settles, with why, once the lease is lost or released. The holder must stop appending then. */
  readonly lost: Promise<string>;
  /** Stops renewing and deletes the key, so that a standby takes over at once. */
  release(): Promise<void>;
}

/** Renewals come at a third of the TTL, so that two may fail or lag before the lease lapses. */
const RENEWALS_PER_TTL = 3;
/** A renewal counts for this share of the TTL from when it was sent: the rest is a margin for clock drift. */
const TRUSTED_SHARE_OF_TTL = 0.9;

/**
 * Takes the lease when no one holds it; resolves to null when someone does.
 * The lease is a KV key created only if absent and renewed only by a
 * compare-and-set on its revision: JetStream decides, not this code.
 */
export function tryAcquireLeadership(options: LeadershipOptions): Promise<Leadership | null> {
  return withLeaseBucket(options, (held, kv) => attempt(held, kv, options));
}

/** Waits for the lease, trying again every quarter TTL, until it is taken or `signal` aborts. */
export async function acquireLeadership(
  options: LeadershipOptions,
  signal?: AbortSignal,
): Promise<Leadership> {
  return withLeaseBucket(options, async (held, kv) => {
    for (;;) {
      signal?.throwIfAborted();
      const taken = await attempt(held, kv, options);
      if (taken) return taken;
      await new Promise((resolve) => setTimeout(resolve, options.ttlMs / 4));
    }
  });
}

/** Runs `use` with the bucket; the connection stays held only by the lease it returns. */
async function withLeaseBucket<Lease extends Leadership | null>(
  options: LeadershipOptions,
  use: (held: HeldConnection, kv: KV) => Promise<Lease>,
): Promise<Lease> {
  const held = await holdConnection(options);
  try {
    const lease = await use(held, await openLeaseBucket(held, options));
    if (!lease) await held.release();
    return lease;
  } catch (error) {
    await held.release();
    throw error;
  }
}

async function attempt(held: HeldConnection, kv: KV, options: LeadershipOptions): Promise<Leadership | null> {
  const sentAt = performance.now();
  const revision = await kv.create(options.key, options.holder).catch((error: unknown) => {
    if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence)
      return null;
    throw error;
  });
  return revision === null ? null : new RenewedLease(held, kv, options, revision, sentAt);
}

async function openLeaseBucket(held: HeldConnection, options: LeadershipOptions): Promise<KV> {
  const kv = await new Kvm(held.nc).create(options.bucket, {
    ttl: options.ttlMs,
    history: 1,
    replicas: options.replicas ?? 1,
  });
  const { ttl } = await kv.status();
  if (ttl !== options.ttlMs)
    throw new Error(`lease bucket ${options.bucket} has a TTL of ${ttl} ms, not ${options.ttlMs} ms`);
  return kv;
}

class RenewedLease implements Leadership {
  private validUntil: number;
  private done = false;
  private renewTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | null = null;
  private settleLost!: (reason: string) => void;
  readonly lost = new Promise<string>((resolve) => {
    this.settleLost = resolve;
  });
  readonly holder: string;

  constructor(
    private readonly held: HeldConnection,
    private readonly kv: KV,
    private readonly options: LeadershipOptions,
    private current: number,
    sentAt: number,
  ) {
    this.holder = options.holder;
    this.validUntil = sentAt + options.ttlMs * TRUSTED_SHARE_OF_TTL;
    this.schedule();
  }

  revision(): number {
    return this.current;
  }

  isHeld(): boolean {
    return !this.done && performance.now() < this.validUntil;
  }

  private schedule(): void {
    this.renewTimer = setTimeout(() => {
      this.renewing = this.renew();
    }, this.options.ttlMs / RENEWALS_PER_TTL);
    clearTimeout(this.expiryTimer);
    this.expiryTimer = setTimeout(
      () => void this.lose('the lease expired before a renewal succeeded'),
      this.validUntil - performance.now(),
    );
  }

  private async renew(): Promise<void> {
    const sentAt = performance.now();
    try {
      this.current = await this.kv.update(this.options.key, this.options.holder, this.current);
      if (this.done) return;
      this.validUntil = sentAt + this.options.ttlMs * TRUSTED_SHARE_OF_TTL;
      this.schedule();
    } catch (error) {
      if (this.done) return;
      await this.lose(`renewal failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async lose(reason: string): Promise<void> {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.renewTimer);
    clearTimeout(this.expiryTimer);
    this.settleLost(reason);
    await this.held.release().catch(() => {});
  }

  async release(): Promise<void> {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.renewTimer);
    clearTimeout(this.expiryTimer);
    await this.renewing;
    // Only if still ours: a delete expecting our latest revision.
    await this.kv.delete(this.options.key, { previousSeq: this.current }).catch(() => {});
    this.settleLost('released');
    await this.held.release();
  }
}
