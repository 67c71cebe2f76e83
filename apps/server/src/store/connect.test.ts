import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from './connect.ts';

/**
 * DESIGN §5 on a SQLite file: a commit is answered only once the WAL is
 * synced. The sync is fdatasync on the WAL's file handle (off the main
 * thread); here it is watched, and held, through FileHandle.datasync.
 */
describe('SQLite file store: durable commits', () => {
  let dir: string;
  let store: Store;
  /** The pending syncs, in the order they were asked for; each resolves when the test says. */
  let syncs: { release: () => void; fail: (error: Error) => void }[];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-connect-'));
    store = await openStore({ databaseUrl: null, sqliteFile: path.join(dir, 'halyard.db') });
    await sql`create table t (n integer)`.execute(store.db);
    syncs = [];
    const handle = await fs.promises.open(path.join(dir, 'halyard.db'), 'r');
    const prototype = Object.getPrototypeOf(handle) as fs.promises.FileHandle;
    await handle.close();
    vi.spyOn(prototype, 'datasync').mockImplementation(
      () => new Promise<void>((release, fail) => syncs.push({ release, fail })),
    );
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const settled = async (promise: Promise<unknown>) => {
    let done = false;
    void promise.then(
      () => (done = true),
      () => (done = true),
    );
    // A sync on the thread pool takes longer than these turns of the event loop.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    return done;
  };
  const count = async () =>
    (await sql<{ n: number }>`select count(*) as n from t`.execute(store.db)).rows[0]!.n;

  it('answers a transaction only after the WAL sync that follows its commit', async () => {
    const committed = store.db.transaction().execute(async (trx) => {
      await sql`insert into t values (1)`.execute(trx);
      await sql`insert into t values (2)`.execute(trx);
    });
    expect(await settled(committed)).toBe(false);
    expect(syncs).toHaveLength(1);
    syncs[0]!.release();
    await committed;
    expect(await count()).toBe(2);
    expect(syncs).toHaveLength(1);
  });

  it('syncs a write outside a transaction, never a read', async () => {
    const written = sql`insert into t values (1)`.execute(store.db);
    expect(await settled(written)).toBe(false);
    syncs[0]!.release();
    await written;
    expect(await count()).toBe(1);
    expect(syncs).toHaveLength(1);
  });

  it('runs nothing on the connection between a commit and its sync', async () => {
    const committed = store.db.transaction().execute((trx) => sql`insert into t values (1)`.execute(trx));
    const read = count();
    expect(await settled(read)).toBe(false);
    syncs[0]!.release();
    await committed;
    expect(await read).toBe(1);
  });

  it('fails the commit whose sync failed, and every write after it', async () => {
    const committed = sql`insert into t values (1)`.execute(store.db);
    await settled(committed);
    syncs[0]!.fail(new Error('EIO'));
    await expect(committed).rejects.toThrow('EIO');
    await expect(sql`insert into t values (2)`.execute(store.db)).rejects.toThrow('EIO');
  });
});
