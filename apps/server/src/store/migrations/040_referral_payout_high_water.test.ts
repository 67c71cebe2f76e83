import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrations } from './index.ts';
import { bareMigrationStore } from './test-support.ts';

const store = bareMigrationStore();
const { db, dialect } = store;
afterEach(() => store.close());

/** Numbers as both engines give them back (PostgreSQL: bigint as text); null stays null. */
const plain = (value: unknown) => (value === null ? null : Number(value));
/** Each entry of the view: its row, level, who earns it, and when it shows credited. */
async function entries() {
  const { rows } = await sql<Record<string, unknown>>`select id, level, beneficiary_id, paid_by, paid_at
    from referral_commission_entries order by id, level`.execute(db);
  return rows.map((row) => ({
    id: plain(row.id),
    level: plain(row.level),
    beneficiary_id: plain(row.beneficiary_id),
    paid_by: row.paid_by,
    paid_at: plain(row.paid_at),
  }));
}

it('starts the mark below the oldest unpaid row; the view shows rows credited by their own time or their batch’s', async () => {
  await store.migrateBefore('040_referral_payout_high_water');
  const row = (id: number, paid: { by: string; at: number } | null, level2: boolean) =>
    sql`insert into referral_commissions (id, leg_id, trade_id, product, beneficiary_id, friend_id, fee, fee_coin,
      tier, rate, amount, kickback, excluded, created_at, paid_by, level2_id, level2_rate, level2_amount,
      level2_excluded, level2_paid_by, paid_at)
      values (${id}, ${`leg-${id}`}, ${`trade-${id}`}, 'spot', 5, 9, '0.001', 'BTC', 1, '0.1', '0.0001', '0',
      null, ${100 + id}, ${paid?.by ?? null}, ${level2 ? 4 : null}, ${level2 ? '0.1' : null},
      ${level2 ? '0.0001' : null}, null, ${paid && level2 ? `${paid.by}:2` : null}, ${paid?.at ?? null})`.execute(
      db,
    );
  // Paid by an old sweep, accrued unpaid, a promotion rebate written paid, accrued unpaid.
  await row(1, { by: 'sweep-1', at: 500 }, true);
  await row(2, null, true);
  await row(3, { by: 'rebate-3', at: 600 }, false);
  await row(4, null, false);

  await migrations['040_referral_payout_high_water']?.up(db, dialect);
  const { rows: batches } = await sql<{ last_id: unknown; at: unknown }>`select last_id, at
    from referral_payout_batches`.execute(db);
  expect(batches.map((batch) => [plain(batch.last_id), plain(batch.at)])).toEqual([[1, 0]]);
  expect(await entries()).toEqual([
    { id: 1, level: 1, beneficiary_id: 5, paid_by: 'sweep-1', paid_at: 500 },
    { id: 1, level: 2, beneficiary_id: 4, paid_by: 'sweep-1:2', paid_at: 500 },
    { id: 2, level: 1, beneficiary_id: 5, paid_by: null, paid_at: null },
    { id: 2, level: 2, beneficiary_id: 4, paid_by: null, paid_at: null },
    { id: 3, level: 1, beneficiary_id: 5, paid_by: 'rebate-3', paid_at: 600 },
    { id: 4, level: 1, beneficiary_id: 5, paid_by: null, paid_at: null },
  ]);
  // A batch up to row 2, then one up to row 4: each row shows the first batch that reaches it; rows with their own time keep it.
  await sql`insert into referral_payout_batches (last_id, at) values (2, 900), (4, 960)`.execute(db);
  expect((await entries()).map((entry) => [entry.id, entry.level, entry.paid_at])).toEqual([
    [1, 1, 500],
    [1, 2, 500],
    [2, 1, 900],
    [2, 2, 900],
    [3, 1, 600],
    [4, 1, 960],
  ]);
});
