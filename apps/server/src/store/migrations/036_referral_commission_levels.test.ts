import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { dropTestSchema } from '../connect.ts';
import type { DialectName } from '../dialect.ts';
import { migrations } from './index.ts';

/** The store this run tests (PostgreSQL when TEST_DATABASE_URL is set): a bare database the test migrates step by step. */
const url = process.env.TEST_DATABASE_URL || null;
const dialect: DialectName = url ? 'postgres' : 'sqlite';
const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
const db = new Kysely<unknown>({
  dialect: url
    ? new PostgresDialect({
        pool: new pg.Pool({ connectionString: url, max: 1, options: `-c search_path=${schema}` }),
      })
    : new SqliteDialect({ database: new SQLite(':memory:') }),
});
afterEach(async () => {
  await db.destroy();
  if (url) await dropTestSchema(url, schema);
});

const rows = async (query: string) => (await sql.raw<Record<string, unknown>>(query).execute(db)).rows;
const ENTRY_COLUMNS = `id, leg_id, trade_id, product, level, beneficiary_id, friend_id, fee, fee_coin, tier, rate,
  amount, kickback, excluded, created_at, paid_by`;
/** Numbers and decimals as both engines give them back (PostgreSQL: bigint and numeric as text). */
const plain = (value: unknown) => (value === null ? null : String(Number(value)));

it('folds each fee’s level-2 row into its level-1 row, and the view shows the very rows there were', async () => {
  if (url) await sql`create schema ${sql.id(schema)}`.execute(db);
  const names = Object.keys(migrations).sort();
  const at = names.indexOf('036_referral_commission_levels');
  for (const name of names.slice(0, at)) await migrations[name]?.up(db, dialect);
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
