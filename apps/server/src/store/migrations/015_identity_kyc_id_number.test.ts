import { normaliseIdCard } from '@halyard/rules';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { DUPLICATE_ID_NUMBER_REASON } from './015_identity_kyc_id_number.ts';
import { migrations } from './index.ts';

const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
afterEach(() => db.destroy());

const rows = async (query: string) => (await sql.raw(query).execute(db)).rows;

it('gives each ID number to its earliest live claim, in one spelling, and drops the dev outbox', async () => {
  const names = Object.keys(migrations).sort();
  const at = names.indexOf('015_identity_kyc_id_number');
  for (const name of names.slice(0, at)) await migrations[name]!.up(db, 'sqlite');
  const submit = (userId: number, idNumber: string, state: string) =>
    sql`insert into kyc_submissions (user_id, real_name, id_number, photo_url, state, submitted_at)
      values (${userId}, 'Li Si', ${idNumber}, '/uploads/x.png', ${state}, ${1000 + userId})`.execute(db);
  await submit(1, '130503670401001', 'succeeded'); // the 15-digit spelling
  await submit(2, normaliseIdCard('130503670401001'), 'review'); // the same person's number: a later claim
  await submit(3, '11010519491231002X', 'failed');
  await submit(4, '11010519491231002X', 'review'); // a rejected number is free again

  await migrations['015_identity_kyc_id_number']!.up(db, 'sqlite');
  expect(
    await rows('select user_id, id_number, state, reason, decided_by from kyc_submissions order by id'),
  ).toEqual([
    {
      user_id: 1,
      id_number: normaliseIdCard('130503670401001'),
      state: 'succeeded',
      reason: null,
      decided_by: null,
    },
    {
      user_id: 2,
      id_number: normaliseIdCard('130503670401001'),
      state: 'failed',
      reason: DUPLICATE_ID_NUMBER_REASON,
      decided_by: 'migration 015',
    },
    { user_id: 3, id_number: '11010519491231002X', state: 'failed', reason: null, decided_by: null },
    { user_id: 4, id_number: '11010519491231002X', state: 'review', reason: null, decided_by: null },
  ]);
  // The index refuses a second live claim and lets a rejected one be.
  await expect(submit(5, '11010519491231002X', 'review')).rejects.toThrow(/UNIQUE/);
  await submit(6, '11010519491231002X', 'failed');
  expect(await rows("select name from sqlite_master where name = 'dev_outbox'")).toEqual([]);
});
