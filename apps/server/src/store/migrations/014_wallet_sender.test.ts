import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { encodeFunctionData, erc20Abi, keccak256 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, expect, it } from 'vitest';
import { migrations } from './index.ts';

const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
afterEach(() => db.destroy());

const rows = async (query: string) => (await sql.raw(query).execute(db)).rows;

it('reads the nonce and sender of withdrawals still on their way back from their signed bytes', async () => {
  const names = Object.keys(migrations).sort();
  const at = names.indexOf('014_wallet_sender');
  for (const name of names.slice(0, at)) await migrations[name]!.up(db, 'sqlite');
  const hot = privateKeyToAccount(generatePrivateKey());
  const raw = await hot.signTransaction({
    type: 'eip1559',
    chainId: 56,
    nonce: 7,
    to: hot.address,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [hot.address, 5n] }),
    gas: 60_000n,
    maxFeePerGas: 3_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  });
  const hash = keccak256(raw);
  const withdrawal = (id: number, state: string, tx: string | null) =>
    sql`insert into wallet_withdrawals (id, user_id, coin, chain_id, address, amount, fee, state, reason, tx_hash,
        raw_tx, decided_by, created_at, updated_at)
      values (${id}, 1, 'USDT', 56, ${hot.address}, '5', '1', ${state}, null, ${tx}, ${tx ? raw : null}, null, 10, 20)`;
  await withdrawal(1, 'broadcast', hash).execute(db);
  // The old defect: a second withdrawal signed into the very same transaction.
  await withdrawal(2, 'broadcast', hash).execute(db);
  await withdrawal(3, 'completed', hash).execute(db);
  await withdrawal(4, 'approved', null).execute(db);

  await migrations['014_wallet_sender']!.up(db, 'sqlite');
  expect(await rows('select id, nonce, hot_address from wallet_withdrawals order by id')).toEqual([
    { id: 1, nonce: 7, hot_address: hot.address },
    { id: 2, nonce: 7, hot_address: hot.address },
    { id: 3, nonce: null, hot_address: null },
    { id: 4, nonce: null, hot_address: null },
  ]);
  // The transaction is the first one's own; the second holds the nonce without a transaction and will be flagged.
  expect(await rows('select * from wallet_withdrawal_txs')).toEqual([
    {
      hash,
      withdrawal_id: 1,
      chain_id: 56,
      from_address: hot.address,
      nonce: 7,
      kind: 'transfer',
      raw_tx: raw,
      max_fee_per_gas: '3000000000',
      max_priority_fee_per_gas: '1000000000',
      created_at: 20,
    },
  ]);
  expect(await rows('select * from wallet_hot_nonces')).toEqual([]);
});
