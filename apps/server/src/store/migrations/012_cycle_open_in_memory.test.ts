import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrations } from './index.ts';

const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
afterEach(() => db.destroy());

const rows = async (query: string) => (await sql.raw(query).execute(db)).rows;

it('keeps open orders and outcomes, and lists the open orders as holding their stakes', async () => {
  const names = Object.keys(migrations).sort();
  const at = names.indexOf('012_cycle_open_in_memory');
  for (const name of names.slice(0, at)) await migrations[name]!.up(db, 'sqlite');
  const order = (
    id: number,
  ) => sql`insert into cycle_orders values (${id}, 7, 1, 'BTC', 'USDT', 'USDT', 'buy',
    '10', 30, '0.8', '1', '0.02', '100', 1, 'sim', 1, 30001)`;
  for (const id of [1, 2]) await order(id).execute(db);
  await sql`insert into cycle_open values (2, 7, 'BTC', 30001)`.execute(db);
  await sql`insert into cycle_settlements values (1, 1, 7, 'win', '101', 30000, 'sim', '7.84', '0.16', 30002)`.execute(
    db,
  );

  await migrations['012_cycle_open_in_memory']!.up(db, 'sqlite');
  expect(await rows('select * from cycle_open')).toEqual([{ orderid: 2 }]);
  expect(await rows('select * from cycle_held_stakes')).toEqual([{ orderid: 2 }]);
  expect(await rows('select * from cycle_settlements')).toEqual([
    {
      orderid: 1,
      result: 'win',
      close_price: '101',
      close_ts: 30000,
      close_source: 'sim',
      last_profit: '7.84',
      fee: '0.16',
      settled_at: 30002,
    },
  ]);
  // The order id is the row's own key: no separate index.
  expect(
    await rows("select name from sqlite_master where type = 'index' and tbl_name like 'cycle_%'"),
  ).toEqual(
    expect.not.arrayContaining([
      expect.objectContaining({ name: expect.stringMatching(/cycle_(open|settlements)/) }),
    ]),
  );
});
