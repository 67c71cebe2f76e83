import { describe, expect, it } from 'vitest';
import { type CachedTrader, ChecksCache, ENTRY_TTL_MS, freezeInForce } from './checks-cache.ts';

const TRADER: CachedTrader = { email: 'a@example.com', freezes: [] };

function counting<T>(value: T) {
  const read = async () => {
    read.calls += 1;
    return value;
  };
  read.calls = 0;
  return read;
}

describe('ChecksCache', () => {
  it('reads once, then answers from memory until the entry is ENTRY_TTL_MS old', async () => {
    let now = 1_000;
    const cache = new ChecksCache(() => now);
    const read = counting(TRADER);
    await cache.trader(7, read);
    await cache.trader(7, read);
    expect(read.calls).toBe(1);
    now += ENTRY_TTL_MS;
    await cache.trader(7, read);
    expect(read.calls).toBe(2);
  });

  it('does not keep a read that was under way when the entry was forgotten', async () => {
    const cache = new ChecksCache(() => 0);
    let finish: (value: CachedTrader) => void = () => undefined;
    const stale = cache.trader(7, () => new Promise((resolve) => (finish = resolve)));
    cache.forgetTrader(7);
    finish(TRADER);
    expect(await stale).toEqual(TRADER);
    const fresh = counting<CachedTrader>({ ...TRADER, email: null });
    expect(await cache.trader(7, fresh)).toMatchObject({ email: null });
    expect(fresh.calls).toBe(1);
  });

  it('keeps no answer for an unknown session, and judges expiry when asked', async () => {
    let now = 0;
    const cache = new ChecksCache(() => now);
    const missing = counting(null);
    expect(await cache.session('h', missing)).toBeNull();
    expect(await cache.session('h', missing)).toBeNull();
    expect(missing.calls).toBe(2);
    const live = counting({ userId: 7, expiresAt: 10 });
    expect(await cache.session('h', live)).toMatchObject({ userId: 7 });
    now = 10;
    expect(await cache.session('h', live)).toBeNull();
    expect(live.calls).toBe(1);
  });

  it("forgets a user's sessions but the one kept", async () => {
    const cache = new ChecksCache(() => 0);
    const session = { userId: 7, expiresAt: 100 };
    const reads = { a: counting(session), b: counting(session), c: counting({ userId: 8, expiresAt: 100 }) };
    for (const [hash, read] of Object.entries(reads)) await cache.session(hash, read);
    cache.forgetUserSessions(7, 'a');
    for (const [hash, read] of Object.entries(reads)) await cache.session(hash, read);
    expect([reads.a.calls, reads.b.calls, reads.c.calls]).toEqual([1, 2, 1]);
  });
});

describe('freezeInForce', () => {
  const early = { reason: 'early', startsAt: 0, endsAt: 50 };
  const late = { reason: 'late', startsAt: 20, endsAt: 80 };

  it('is the freeze started and not over that ends last', () => {
    expect(freezeInForce([early, late], 10)).toBe(early);
    expect(freezeInForce([early, late], 30)).toBe(late);
    expect(freezeInForce([early, late], 80)).toBeNull();
  });
});
