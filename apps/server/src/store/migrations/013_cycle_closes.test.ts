import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrations } from './index.ts';

const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
afterEach(() => db.destroy());

const rows = async (query: string) => (await sql.raw(query).execute(db)).rows;

it('moves each settlement’s close to a close row shared by the settlements with the same close', async () => {
  const names = Object.keys(migrations).sort();
  const at = names.indexOf('013_cycle_closes');
  for (const name of names.slice(0, at)) await migrations[name]!.up(db, 'sqlite');
  const settlement = (id: number, price: string, settledAt: number) =>
    sql`insert into cycle_settlements values (${id}, 'win', ${price}, 30000, 'sim', '7.84', '0.16', ${settledAt})`;
  await settlement(1, '101', 30002).execute(db);
  await settlement(2, '101', 30002).execute(db);
  await settlement(3, '101.5', 30002).execute(db);
  await settlement(4, '101', 30003).execute(db);

  await migrations['013_cycle_closes']!.up(db, 'sqlite');
  expect(await rows('select count(*) as n from cycle_closes')).toEqual([{ n: 3 }]);
  expect(
    await rows(`select s.orderid, s.result, c.close_price, c.close_ts, c.close_source, s.last_profit, s.fee,
      c.settled_at from cycle_settlements as s join cycle_closes as c on c.id = s.close_id order by s.orderid`),
  ).toEqual(
    [
      [1, '101', 30002],
      [2, '101', 30002],
      [3, '101.5', 30002],
      [4, '101', 30003],
    ].map(([orderid, price, settledAt]) => ({
      orderid,
      result: 'win',
      close_price: price,
      close_ts: 30000,
      close_source: 'sim',
      last_profit: '7.84',
      fee: '0.16',
      settled_at: settledAt,
    })),
  );
  // The order id is still the row's own key: no separate index.
  expect(
    await rows("select name from sqlite_master where type = 'index' and tbl_name = 'cycle_settlements'"),
  ).toEqual([]);
});
