import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childBundle } from '../child-bundles.ts';
import { ManualClock } from '../clock.ts';
import {
  createTestSchema,
  dropTestSchema,
  openPostgres,
  openStore,
  openTestStore,
  type Store,
} from '../store/connect.ts';
import { custodyWallet, systemAccount, userAccount } from './accounts.ts';
import { auditLedger } from './audit.ts';
import { createLedger, type Ledger } from './ledger.ts';
import { d } from './test-support.ts';
import type { TransferInput } from './transfers.ts';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');
/** The ledger audit's command line (`npm run audit:ledger`), as a deployment's build runs it (child-bundles.ts). */
async function runAudit(env: NodeJS.ProcessEnv) {
  return run(process.execPath, [await childBundle('src/ledger/audit-cli.ts')], { cwd: serverDir, env });
}

/** A small healthy history: a deposit, a transfer, a hold partly posted. */
async function writeHistory(ledger: Ledger): Promise<void> {
  const alice = userAccount(1, 'spot');
  await ledger.execute([
    {
      id: 'dep',
      debit: systemAccount(custodyWallet('bsc')),
      credit: alice,
      asset: 'USDT',
      amount: d('100'),
      code: 'deposit',
    },
    {
      id: 'pay',
      debit: alice,
      credit: userAccount(2, 'spot'),
      asset: 'USDT',
      amount: d('10'),
      code: 'transfer',
    },
    {
      id: 'hold',
      type: 'pending',
      debit: alice,
      credit: systemAccount('clearing'),
      asset: 'USDT',
      amount: d('50'),
      code: 'order',
    },
    { id: 'fill', type: 'post_pending', pendingId: 'hold', amount: d('20'), code: 'trade' },
  ]);
}

describe('auditLedger', () => {
  let store: Store;

  beforeEach(async () => {
    store = await openTestStore();
    await writeHistory(createLedger(store, new ManualClock()));
  });

  afterEach(async () => {
    await store.close();
  });

  it('finds nothing wrong in a healthy ledger', async () => {
    const report = await auditLedger(store.db);
    expect(report).toMatchObject({ accounts: 4, transfers: 4, holds: 1, assets: ['USDT'], breaches: [] });
  });

  it('catches a total edited behind the ledger’s back, and the asset imbalance it causes', async () => {
    await store.db
      .updateTable('ledger_accounts')
      .set({ credits_posted: '1000' })
      .where('owner', '=', '2')
      .execute();
    const rules = (await auditLedger(store.db)).breaches.map((breach) => breach.rule);
    expect(rules).toEqual(['account-totals', 'asset-balance']);
  });

  it('catches an overdrawn user account', async () => {
    const user = await store.db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('owner', '=', '2')
      .executeTakeFirstOrThrow();
    await store.db
      .updateTable('ledger_accounts')
      .set({ debits_posted: '11' })
      .where('id', '=', user.id)
      .execute();
    const breaches = (await auditLedger(store.db)).breaches;
    expect(breaches.map((breach) => breach.rule)).toContain('overdrawn');
  });

  it('catches a hold whose remainder disagrees with its posts', async () => {
    await store.db.updateTable('ledger_holds').set({ remaining: '31' }).execute();
    const breaches = (await auditLedger(store.db)).breaches;
    expect(breaches).toEqual([{ rule: 'hold', detail: expect.stringContaining('hold hold') }]);
  });

  it('catches an account whose overdraft flag is not its kind’s', async () => {
    await store.db
      .updateTable('ledger_accounts')
      .set({ may_go_negative: 1 })
      .where('owner', '=', '1')
      .execute();
    const rules = (await auditLedger(store.db)).breaches.map((breach) => breach.rule);
    expect(rules).toEqual(['account-kind']);
  });
});

describe('audit command', () => {
  it('prints a summary, exits 0 on a healthy store and 1 on a broken one', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-audit-'));
    const sqliteFile = path.join(dataDir, 'halyard.sqlite');
    const env = { ...process.env, SQLITE_FILE: sqliteFile, DATABASE_URL: '', HALYARD_DATA_DIR: dataDir };
    try {
      const store = await openStore({ databaseUrl: null, sqliteFile });
      await writeHistory(createLedger(store, new ManualClock()));
      await store.close();
      const healthy = await runAudit(env);
      expect(healthy.stdout).toContain('4 accounts, 4 transfers, 1 holds, assets: USDT');
      expect(healthy.stdout).toContain('OK');

      const broken = await openStore({ databaseUrl: null, sqliteFile });
      await broken.db.updateTable('ledger_holds').set({ remaining: '1' }).execute();
      await broken.close();
      const failure = await runAudit(env).catch((error: { code: number; stdout: string }) => error);
      expect(failure).toMatchObject({ code: 1 });
      expect(failure.stdout).toContain('BREACH [hold]');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * Issue 13 item 7: `npm run audit:ledger` run while the server keeps writing
 * must pass every time. The audit runs as the real command, in its own
 * process, against a SQLite file or (with TEST_DATABASE_URL) a PostgreSQL
 * schema of its own, while this process streams batches into the same store.
 * A history of a few pages makes each audit long enough for batches to
 * commit between its reads (without the snapshot, these runs failed with
 * account-totals and hold breaches).
 */
describe('audit command on a live ledger', () => {
  const HISTORY_TRANSFERS = 12_000;
  /**
   * Two: the second must see more transfers than the first (they overlap the
   * stream). One run is already telling: with the snapshot taken out, every
   * single run reported a breach (3 of 3 on SQLite, 3 of 3 on PostgreSQL).
   */
  const AUDIT_RUNS = 2;

  /** A store shared with the command: its options for this process and its environment for the command. */
  async function liveStore(
    dataDir: string,
  ): Promise<{ store: Store; env: NodeJS.ProcessEnv; drop(): Promise<void> }> {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) {
      const sqliteFile = path.join(dataDir, 'halyard.sqlite');
      const store = await openStore({ databaseUrl: null, sqliteFile });
      return { store, env: { SQLITE_FILE: sqliteFile, DATABASE_URL: '' }, drop: async () => {} };
    }
    // Created and dropped under the lock that keeps a drop apart from other tests' migrations.
    const schema = await createTestSchema(url);
    const store = openPostgres(url, schema);
    const searchPath = encodeURIComponent(`-c search_path=${schema}`);
    return {
      store,
      env: { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${searchPath}` },
      drop: () => dropTestSchema(url, schema),
    };
  }

  /** One order's worth of movements: a deposit, a hold, part of it posted, the rest voided. */
  function orderBatch(n: number): TransferInput[] {
    const user = userAccount(1 + (n % 7), 'spot');
    return [
      {
        id: `dep-${n}`,
        debit: systemAccount(custodyWallet('bsc')),
        credit: user,
        asset: 'USDT',
        amount: d('10'),
        code: 'deposit',
      },
      {
        id: `hold-${n}`,
        type: 'pending',
        debit: user,
        credit: systemAccount('clearing'),
        asset: 'USDT',
        amount: d('6'),
        code: 'order',
      },
      { id: `fill-${n}`, type: 'post_pending', pendingId: `hold-${n}`, amount: d('4'), code: 'trade' },
      { id: `cancel-${n}`, type: 'void_pending', pendingId: `hold-${n}`, code: 'cancel' },
    ];
  }

  it('passes every run while batches stream in', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-live-audit-'));
    const live = await liveStore(dataDir);
    const env = { ...process.env, HALYARD_DATA_DIR: dataDir, ...live.env };
    try {
      const ledger = createLedger(live.store, new ManualClock());
      const history = Array.from({ length: HISTORY_TRANSFERS / 4 }, (_, n) =>
        orderBatch(1_000_000 + n),
      ).flat();
      await ledger.transaction((trx) => ledger.executeBulk(history, trx));

      let auditing = true;
      let committed = 0;
      const stream = (async () => {
        while (auditing) {
          // Several batches in flight at once, as a busy server's queue holds them.
          await Promise.all([0, 1, 2, 3].map((lane) => ledger.execute(orderBatch(committed * 4 + lane))));
          committed += 1;
          // Let the event loop turn (a server's requests come through it): SQLite answers
          // synchronously, so this loop alone would never let the command's exit be seen.
          await new Promise(setImmediate);
        }
      })();
      const outputs: string[] = [];
      try {
        for (let audit = 0; audit < AUDIT_RUNS; audit++) {
          const result = await runAudit(env).catch((error: { stdout: string }) => error);
          outputs.push(result.stdout);
        }
      } finally {
        auditing = false;
        await stream;
      }
      for (const output of outputs) expect(output).toContain('OK: every invariant holds');
      // The audits overlapped the stream: each later run saw more transfers.
      const seen = outputs.map((output) => Number(/(\d+) transfers/.exec(output)?.[1]));
      expect(seen[AUDIT_RUNS - 1]).toBeGreaterThan(seen[0]!);
    } finally {
      await live.store.close();
      await live.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
