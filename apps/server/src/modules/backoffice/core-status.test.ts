import type { BooksCheck, Dashboard } from '@halyard/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectOk,
  get,
  type Harness,
  MONEY_PATHS,
  post,
  registerByEmail,
  startHarness,
} from '../identity/test-support.ts';
import { operatorSession } from '../operators/test-support.ts';

/**
 * The dashboard tells an operator where the sequenced core stands (what is
 * journaled, how far SQL follows, the latest snapshot, this start's
 * recovery), and the books check compares SQL with the state in memory. On
 * SQL there is no core to show.
 */
describe.each(MONEY_PATHS)('the money core on the dashboard, on $on', ({ moneyCore }) => {
  let h: Harness;
  let finance: Record<string, string>;
  beforeAll(async () => {
    h = await startHarness({ moneyCore });
    finance = (await operatorSession(h.app, 'finance', h.clock)).headers;
    const { token } = await registerByEmail(h, 'core-status@example.com');
    await expectOk(post(h, '/account/demoFaucet', {}, token));
  });
  afterAll(async () => {
    await h.close();
  });

  const dashboard = async () =>
    (await expectOk(get(h, '/admin/dashboard', undefined, finance))).data as Dashboard;
  const runBooks = async () =>
    (await expectOk(post(h, '/admin/dashboard/audit', {}, undefined, finance))).data as BooksCheck;

  it('shows the journal, the projection and the snapshots', async () => {
    const before = await dashboard();
    if (!moneyCore) {
      expect(before.engines.core).toBeNull();
      expect(before.books.ledger.projectionSeq).toBeNull();
      return;
    }
    const core = before.engines.core!;
    // The faucet's grant was answered once SQL held it: nothing journaled is unprojected.
    expect(core.sequence).toBeGreaterThan(0);
    expect(core.projected).toBe(core.sequence);
    expect(core.snapshot).toBeNull();
    expect(core.recovered).toEqual({ snapshotSeq: 0, replayed: 0 });

    const at = h.clock.now();
    const snapshotSeq = await h.app.moneyCore!.snapshot();
    const after = (await dashboard()).engines.core!;
    expect(after.snapshot).toEqual({ seq: snapshotSeq, at });
  });

  it('compares SQL with the state in the books check, and reports a difference', async () => {
    const clean = await runBooks();
    expect(clean.ledger.ok).toBe(true);
    if (!moneyCore) return expect(clean.ledger.projectionSeq).toBeNull();
    expect(clean.ledger.projectionSeq).toBe((await dashboard()).engines.core!.sequence);

    // SQL parted from the state behind the core's back: the check must say so.
    await h.store.db
      .updateTable('ledger_accounts')
      .set((eb) => ({ credits_posted: eb('credits_posted', '+', '1') }))
      .where('owner', '!=', '0')
      .execute();
    const broken = await runBooks();
    expect(broken.ledger.ok).toBe(false);
    expect(broken.ledger.breaches.map((breach) => breach.rule)).toContain('projection');
  });
});
