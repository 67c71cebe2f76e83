import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Dec } from '@halyard/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { TEST_PAIRS } from '../core/state/command-stream.ts';
import { type MoneyCommand, moneyStateHash } from '../core/state/index.ts';
import { available } from '../core/state/money-state.ts';
import { custodyWallet, systemAccount, userAccount } from '../ledger/accounts.ts';
import { createLedger } from '../ledger/index.ts';
import { ProjectionTimeoutError } from '../projection/projector.ts';
import {
  insertStreamMarkets,
  type SharedTestDatabase,
  sharedTestDatabase,
} from '../projection/test-support.ts';
import type { Store } from '../store/connect.ts';
import { auditStoppedCore } from './audit-on-disk.ts';
import { MoneyCore, type MoneyCoreOptions } from './start.ts';

/**
 * The core as the server runs it: on a database that ran without it (a
 * deposit and a spot pair written by the SQL path), the first start reads
 * the state from SQL; orders then go through the sequencer, and SQL shows
 * them once `projected` resolves (read-your-writes), the ledger's audit
 * clean; a restart recovers the same state, and a snapshot truncates the
 * journal and is what the next start recovers from. The projector runs in a
 * worker thread on a SQLite file or a PostgreSQL schema of its own.
 */

const TIME_ZERO = Date.UTC(2026, 10, 26, 12);
const PAIR = TEST_PAIRS[0]!;
// One directory for the whole file: the tests follow each other on the same database and data directory.
let dir: string;
let database: SharedTestDatabase;
let store: Store;
let dataDir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'halyard-core-'));
  database = await sharedTestDatabase(dir);
  store = await database.open();
  dataDir = path.join(dir, 'data');
  // What a deployment holds before its first start on the core: a listed pair and deposits, in SQL only.
  await insertStreamMarkets(store.db);
  await createLedger(store, new ManualClock(TIME_ZERO)).execute([
    deposit('d1', 1, 'USDT', '10000'),
    deposit('d2', 2, 'BTC', '5'),
  ]);
}, 60_000);
afterAll(async () => {
  await store.close();
  await database.drop();
  await rm(dir, { recursive: true, force: true });
});

function deposit(id: string, userId: number, asset: string, amount: string) {
  return {
    id,
    debit: systemAccount(custodyWallet('bsc')),
    credit: userAccount(userId, 'spot'),
    asset,
    amount: Dec.parse(amount),
    code: 'deposit',
  };
}

function options(): MoneyCoreOptions {
  return {
    dataDir,
    db: store.db,
    dialect: store.dialect,
    workerStore: database.where,
    now: () => TIME_ZERO + 60_000,
    // Snapshots are taken by the test, not by the clock.
    snapshotEveryMs: 3_600_000,
  };
}

function order(
  userId: number,
  side: 'buy' | 'sell',
  price: string,
  amount: string,
  at: number,
): MoneyCommand {
  return {
    kind: 'place',
    at,
    pair: PAIR.symbol,
    owner: String(userId),
    account: userAccount(userId, 'spot'),
    email: `u${userId}@example.com`,
    side,
    style: 'limit',
    price,
    amount,
  };
}

async function sqlAvailable(userId: number, asset: string): Promise<Dec> {
  const row = await store.db
    .selectFrom('ledger_accounts')
    .selectAll()
    .where('owner', '=', String(userId))
    .where('asset', '=', asset)
    .where('wallet', '=', 'spot')
    .executeTakeFirstOrThrow();
  const n = (text: string) => Dec.parse(String(text));
  return n(row.credits_posted).sub(n(row.debits_posted)).sub(n(row.debits_pending));
}

describe('the money core in the server', () => {
  it('starts from SQL, answers orders once durable, and shows them in SQL once projected', async () => {
    const core = await MoneyCore.start(options());
    try {
      // The deposits made before the core are in its state.
      expect(available(core.state, userAccount(1, 'spot'), 'USDT').toString()).toBe('10000');
      const sell = await core.submit(order(2, 'sell', '100', '2', TIME_ZERO + 61_000));
      expect(sell.result).toMatchObject({ ok: true, order: { open: true } });
      const buy = await core.submit(order(1, 'buy', '100', '1.5', TIME_ZERO + 62_000));
      expect(buy.result).toMatchObject({ ok: true, order: { filled: '1.5', open: false } });
      await core.projected(buy.seq);
      // Read-your-writes: SQL already shows the trade, the rows and the balances the state holds.
      const trades = await store.db.selectFrom('spot_trades').selectAll().execute();
      expect(trades.map((trade) => Dec.parse(String(trade.amount)).toString())).toEqual(['1.5']);
      const orders = await store.db
        .selectFrom('spot_orders')
        .select(['autoid', 'state'])
        .orderBy('autoid')
        .execute();
      expect(orders.map((row) => row.state)).toEqual(['partial', 'filled']);
      for (const [userId, asset] of [
        [1, 'USDT'],
        [1, 'BTC'],
        [2, 'BTC'],
        [2, 'USDT'],
      ] as const)
        expect((await sqlAvailable(userId, asset)).toString()).toBe(
          available(core.state, userAccount(userId, 'spot'), asset).toString(),
        );
      const { report } = await core.audit();
      expect(report.breaches).toEqual([]);
    } finally {
      await core.close();
    }
  });

  it('recovers the same state after a restart, and from its latest snapshot after one', async () => {
    let core = await MoneyCore.start(options());
    const before = moneyStateHash(core.state);
    await core.submit(order(1, 'buy', '99', '0.1', TIME_ZERO + 63_000));
    const snapshotSeq = await core.snapshot();
    const after = await core.submit(order(1, 'buy', '98', '0.1', TIME_ZERO + 64_000));
    const hash = moneyStateHash(core.state);
    expect(hash).not.toBe(before);
    await core.close();

    core = await MoneyCore.start(options());
    try {
      expect(moneyStateHash(core.state)).toBe(hash);
      expect(core.sequencer.lastSequence()).toBe(after.seq);
      expect(core.projector.watermark()).toBe(after.seq);
      expect(snapshotSeq).toBe(after.seq - 1);
      expect(core.recovered).toEqual({ snapshotSeq, replayed: 1 });
      const { report } = await core.audit();
      expect(report.breaches).toEqual([]);
      expect(await store.db.selectFrom('spot_orders').select('autoid').execute()).toHaveLength(4);
    } finally {
      await core.close();
    }
  });

  it('passes the audit of its data directory with the server stopped (npm run audit:projection)', async () => {
    const core = await MoneyCore.start(options());
    const last = await core.submit(order(2, 'sell', '101', '0.2', TIME_ZERO + 65_000));
    await core.projected(last.seq);
    await core.close();

    // At the watermark the server's projector wrote, not at sequence 0 with an empty state.
    const audit = await auditStoppedCore(store.db, dataDir);
    expect(audit.seq).toBe(last.seq);
    expect(audit.journalSeq).toBe(last.seq);
    expect(audit.report.breaches).toEqual([]);
    expect(audit.report.accounts).toBeGreaterThan(4);
  });

  it('answers a durable command even when SQL lags past the read bound (readable), and says so', async () => {
    const told: unknown[] = [];
    const core = await MoneyCore.start({
      ...options(),
      readBoundMs: 20,
      onError: (error) => told.push(error),
    });
    try {
      const held = core.sequencer.lastSequence();
      // The projector writes nothing past `held` until the work below ends: SQL lags the command.
      await core.projector.holdAt(held, 10_000, async () => {
        const placed = await core.submit(order(1, 'buy', '97', '0.1', TIME_ZERO + 65_000));
        const readable = core.readable(placed.seq);
        await expect(core.projected(placed.seq)).rejects.toThrow(ProjectionTimeoutError);
        let answered = false;
        void readable.then(() => {
          answered = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(answered).toBe(false);
        expect(told.length).toBeGreaterThan(0);
        expect(told.every((error) => error instanceof ProjectionTimeoutError)).toBe(true);
      });
      // Released: the projection passes the command and the reply goes out.
      await core.readable(core.sequencer.lastSequence());
      const { report } = await core.audit();
      expect(report.breaches).toEqual([]);
    } finally {
      await core.close();
    }
  });
});
