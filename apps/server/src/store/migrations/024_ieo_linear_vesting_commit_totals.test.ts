import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrations } from './index.ts';

const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
afterEach(() => db.destroy());

const rows = async (query: string) => (await sql.raw(query).execute(db)).rows;

it('sums the commitments made before it exactly, per project and pay coin, and marks released tranches as released in full', async () => {
  const names = Object.keys(migrations).sort();
  const at = names.indexOf('024_ieo_linear_vesting_commit_totals');
  for (const name of names.slice(0, at)) await migrations[name]?.up(db, 'sqlite');
  const project = (id: number, mode: string) =>
    sql`insert into ieo_projects (id, coin, name, mode, state, start_at, end_at, total, sold, token_decimals,
      min_number, max_number, gift, rebate, require_kyc, pay_coins, vesting, refused_area_codes, intro,
      announcement, salt, created_at, updated_at)
      values (${id}, 'TEST', 'Test', ${mode}, 'open', 0, 1, '1000', '0', 2, '1', '500', '0', '0', 0, '[]', '{}',
      '[]', '{}', '{}', 'salt', 0, 0)`.execute(db);
  await project(1, 'commit');
  await project(2, 'fcfs');
  const order = (id: number, projectId: number, amount: string) =>
    sql`insert into ieo_orders (id, project_id, user_id, paycoin, price, amount, holds, spent, refund, tokens, gift,
      state, anon_id, created_at)
      values (${id}, ${projectId}, ${id}, 'USDT', '1', ${amount}, 1, '0', '0', '0', '0', 'committed', 'a', 0)`.execute(
      db,
    );
  // 0.1 + 0.2 in floating point is not 0.3: the sum is made with Dec.
  await order(1, 1, '0.1');
  await order(2, 1, '0.2');
  await order(3, 1, '0.00000001');
  await order(4, 2, '50');
  const tranche = (seq: number, releasedAt: number | null) =>
    sql`insert into ieo_tranches (order_id, seq, user_id, coin, release_at, amount, released_at)
      values (4, ${seq}, 4, 'TEST', 0, '33.33', ${releasedAt})`.execute(db);
  await tranche(1, 5);
  await tranche(2, null);

  await migrations['024_ieo_linear_vesting_commit_totals']?.up(db, 'sqlite');
  expect(await rows('select project_id, paycoin, committed, participants from ieo_commit_totals')).toEqual([
    { project_id: 1, paycoin: 'USDT', committed: '0.30000001', participants: 3 },
  ]);
  expect(await rows('select seq, until, released_amount from ieo_tranches order by seq')).toEqual([
    { seq: 1, until: null, released_amount: '33.33' },
    { seq: 2, until: null, released_amount: '0' },
  ]);
});
