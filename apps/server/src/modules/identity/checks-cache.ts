/**
 * What every guarded request and every order reads, kept in memory: a
 * session's user and expiry, and a user's bound email and freezes. Without it
 * an order costs four reads before it is even queued (session, freeze, user,
 * KYC), on the one SQLite connection every writer needs.
 *
 * Correctness rests on three rules:
 * - Whatever changes these facts (logout, a password change revoking
 *   sessions, a freeze, an unfreeze, binding an email) goes through an
 *   identity service, which forgets the entries it changed right after its
 *   write commits: a freeze or a logout takes effect for the next request.
 *   In a cluster the write may be another gateway's: each forget is also a
 *   notice to the others (`ForgetNotices`), which forget the same entries as
 *   they hear it; while notices may be lost (a gateway's NATS connection is
 *   down), this cache keeps nothing (docs/cluster.md, "What the gateways
 *   share").
 * - A read that raced with such a write is not kept: every `forget` moves the
 *   generation on, and a value read under an older generation is dropped. A
 *   read started before the commit may still answer its own request, as it
 *   would without the cache.
 * - Times are judged when asked, never when read: a session past its expiry,
 *   a freeze not started yet or already over are decided with the clock of
 *   the request. Entries are kept ENTRY_TTL_MS at most, which bounds how long
 *   a write made outside this process (by hand in the database) goes unseen.
 */

/** Entries kept per map, at most; the least recently used goes first. */
export const ENTRIES_MAX = 10_000;
/** An entry is read again from the store after this long. */
export const ENTRY_TTL_MS = 60_000;

export interface CachedSession {
  userId: number;
  expiresAt: number;
}

export interface CachedFreeze {
  reason: string;
  startsAt: number;
  endsAt: number;
}

/** The facts an order is checked against: the bound email, and the freezes not lifted nor over when read. */
export interface CachedTrader {
  email: string | null;
  freezes: CachedFreeze[];
}

interface Entry<T> {
  value: T;
  readAt: number;
}

/** A bounded map whose entries expire ENTRY_TTL_MS after they were read, least recently used evicted first. */
class BoundedMap<K, T> {
  private readonly entries = new Map<K, Entry<T>>();

  get(key: K, now: number): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (now - entry.readAt >= ENTRY_TTL_MS) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: T, readAt: number): void {
    this.entries.delete(key);
    if (this.entries.size >= ENTRIES_MAX) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, readAt });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  deleteWhere(match: (key: K, value: T) => boolean): void {
    for (const [key, entry] of this.entries) if (match(key, entry.value)) this.entries.delete(key);
  }
}

/** What one gateway forgot, as the others are told it. */
export type Forgotten =
  | { kind: 'session'; tokenHash: string }
  | { kind: 'userSessions'; userId: number; keepTokenHash: string | null }
  | { kind: 'trader'; userId: number };

/**
 * Where the forgets of one gateway reach the others (cluster mode: a NATS
 * subject, cluster/notices.ts); none in one process. A gateway hears its own
 * notices too, which forget again what it already forgot.
 */
export interface ForgetNotices {
  /** Sent after the write committed; never throws. */
  publish(forgotten: Forgotten): void;
  /** `deaf(true)`: notices may be lost from now on; `deaf(false)`: they arrive again. Answers the unsubscribe. */
  listen(listener: { notice(forgotten: Forgotten): void; deaf(deaf: boolean): void }): () => void;
}

export class ChecksCache {
  private readonly sessions = new BoundedMap<string, CachedSession>();
  private readonly traders = new BoundedMap<number, CachedTrader>();
  /** Moves on with every `forget*`: a read begun before it must not be kept. */
  private generation = 0;
  /** While notices may be lost, nothing is kept: another gateway's write could go unheard. */
  private deaf = false;
  private readonly stopListening: () => void;

  constructor(
    private readonly now: () => number,
    private readonly notices: ForgetNotices | null = null,
  ) {
    this.stopListening =
      notices?.listen({
        notice: (forgotten) => this.apply(forgotten),
        deaf: (deaf) => {
          this.deaf = deaf;
          this.forgetAll();
        },
      }) ?? (() => {});
  }

  /** The live session of a token hash, from memory or from `read` (null: none, and nothing kept). */
  async session(tokenHash: string, read: () => Promise<CachedSession | null>): Promise<CachedSession | null> {
    const session = await this.cached(this.sessions, tokenHash, read);
    return session && session.expiresAt > this.now() ? session : null;
  }

  /** A user's email and freezes, from memory or from `read` (null: no such user, and nothing kept). */
  trader(userId: number, read: () => Promise<CachedTrader | null>): Promise<CachedTrader | null> {
    return this.cached(this.traders, userId, read);
  }

  forgetSession(tokenHash: string): void {
    this.forget({ kind: 'session', tokenHash });
  }

  /** Every session of the user but the one with `keepTokenHash` (null: all). */
  forgetUserSessions(userId: number, keepTokenHash: string | null): void {
    this.forget({ kind: 'userSessions', userId, keepTokenHash });
  }

  forgetTrader(userId: number): void {
    this.forget({ kind: 'trader', userId });
  }

  /** Stops hearing the other gateways' notices (the service's close). */
  close(): void {
    this.stopListening();
  }

  /** Here, then on every other gateway. */
  private forget(forgotten: Forgotten): void {
    this.apply(forgotten);
    this.notices?.publish(forgotten);
  }

  private apply(forgotten: Forgotten): void {
    this.generation += 1;
    switch (forgotten.kind) {
      case 'session':
        this.sessions.delete(forgotten.tokenHash);
        break;
      case 'userSessions':
        this.sessions.deleteWhere(
          (hash, session) => session.userId === forgotten.userId && hash !== forgotten.keepTokenHash,
        );
        break;
      case 'trader':
        this.traders.delete(forgotten.userId);
        break;
    }
  }

  private forgetAll(): void {
    this.generation += 1;
    this.sessions.deleteWhere(() => true);
    this.traders.deleteWhere(() => true);
  }

  /** From memory, else read and kept, unless something was forgotten while it was read. */
  private async cached<K, T>(
    map: BoundedMap<K, T>,
    key: K,
    read: () => Promise<T | null>,
  ): Promise<T | null> {
    const now = this.now();
    const cached = map.get(key, now);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const value = await read();
    if (value !== null && generation === this.generation && !this.deaf) map.set(key, value, now);
    return value;
  }
}

/** The freeze in force at `now` that ends last, if any (the one whose end a refusal names). */
export function freezeInForce(freezes: readonly CachedFreeze[], now: number): CachedFreeze | null {
  let found: CachedFreeze | null = null;
  for (const freeze of freezes) {
    if (freeze.startsAt > now || freeze.endsAt <= now) continue;
    if (!found || freeze.endsAt > found.endsAt) found = freeze;
  }
  return found;
}
