import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrations } from './index.ts';
import { bareMigrationStore } from './test-support.ts';

const store = bareMigrationStore();
const { db, dialect } = store;
afterEach(() => store.close());

const rows = async (query: string) => (await sql.raw<Record<string, unknown>>(query).execute(db)).rows;
const ENTRY_COLUMNS = `id, leg_id, trade_id, product, level, beneficiary_id, friend_id, fee, fee_coin, tier, rate,
  amount, kickback, excluded, created_at, paid_by`;
/** Numbers and decimals as both engines give them back (PostgreSQL: bigint and numeric as text). */
const plain = (value: unknown) => (value === null ? null : String(Number(value)));

it('folds each fee’s level-2 row into its level-1 row, and the view shows the very rows there were', async () => {
  await store.migrateBefore('036_referral_commission_levels');
  const row = (
    id: number,
    leg: string,
    level: number,
    beneficiary: number,
    values: { tier: number | null; rate: string; amount: string; kickback: string; excluded: string | null },
  ) =>
    sql`insert into referral_commissions (id, leg_id, trade_id, product, level, beneficiary_id, friend_id, fee,
      fee_coin, tier, rate, amount, kickback, excluded, created_at, paid_by)
      values (${id}, ${leg}, ${`trade-${leg}`}, 'spot', ${level}, ${beneficiary}, 9, '0.001', 'BTC', ${values.tier},
      ${values.rate}, ${values.amount}, ${values.kickback}, ${values.excluded}, ${1000 + leg.charCodeAt(0)},
      ${values.amount === '0' ? null : `${leg}:referral_commission:${beneficiary}`})`.execute(db);
  // A fee's rows share its time. A fee with both levels (level 2 written second), one with level 1 only, one whose level 2 was excluded.
  await row(1, 'a', 1, 5, { tier: 1, rate: '0.1', amount: '0.00009', kickback: '0.00001', excluded: null });
  await row(2, 'a', 2, 4, { tier: null, rate: '0.1', amount: '0.0001', kickback: '0', excluded: null });
  await row(3, 'b', 1, 5, { tier: 2, rate: '0.2', amount: '0.0002', kickback: '0', excluded: null });
  await row(4, 'c', 1, 5, { tier: 1, rate: '0.1', amount: '0.0001', kickback: '0', excluded: null });
  await row(5, 'c', 2, 4, { tier: null, rate: '0', amount: '0', kickback: '0', excluded: 'sameIdentity' });
  const before = await rows(`select ${ENTRY_COLUMNS} from referral_commissions order by leg_id, level`);

  await migrations['036_referral_commission_levels']?.up(db, dialect);
  const folded = await rows(
    'select id, leg_id, level2_id, level2_amount, level2_excluded from referral_commissions order by id',
  );
  expect(
    folded.map((entry) => ({
      ...entry,
      id: plain(entry.id),
      level2_id: plain(entry.level2_id),
      level2_amount: plain(entry.level2_amount),
    })),
  ).toEqual([
    { id: '1', leg_id: 'a', level2_id: '4', level2_amount: '0.0001', level2_excluded: null },
    { id: '3', leg_id: 'b', level2_id: null, level2_amount: null, level2_excluded: null },
    { id: '4', leg_id: 'c', level2_id: '4', level2_amount: '0', level2_excluded: 'sameIdentity' },
  ]);
  // The view keeps the level-1 row's id for both entries of a fee; everything else is as it was.
  const after = await rows(`select ${ENTRY_COLUMNS} from referral_commission_entries order by leg_id, level`);
  const withoutIds = (list: Record<string, unknown>[]) => list.map(({ id: _id, ...rest }) => rest);
  expect(withoutIds(after)).toEqual(withoutIds(before));
});
