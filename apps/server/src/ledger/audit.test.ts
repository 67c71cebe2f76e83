import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { openStore, openTestStore, type Store } from '../store/connect.ts';
import { custodyWallet, systemAccount, userAccount } from './accounts.ts';
import { auditLedger } from './audit.ts';
import { createLedger, type Ledger } from './ledger.ts';
import { d } from './test-support.ts';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');

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
      const healthy = await run('npx', ['tsx', 'src/ledger/audit-cli.ts'], { cwd: serverDir, env });
      expect(healthy.stdout).toContain('4 accounts, 4 transfers, 1 holds, assets: USDT');
      expect(healthy.stdout).toContain('OK');

      const broken = await openStore({ databaseUrl: null, sqliteFile });
      await broken.db.updateTable('ledger_holds').set({ remaining: '1' }).execute();
      await broken.close();
      const failure = await run('npx', ['tsx', 'src/ledger/audit-cli.ts'], { cwd: serverDir, env }).catch(
        (error: { code: number; stdout: string }) => error,
      );
      expect(failure).toMatchObject({ code: 1 });
      expect(failure.stdout).toContain('BREACH [hold]');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
