import { type Kysely, sql } from 'kysely';
import { type Hex, parseTransaction, recoverTransactionAddress } from 'viem';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The hot-wallet sender keeps its own nonces (issue 13): the node's pending
 * count gave two withdrawals signed one after the other the same nonce.
 *
 * - `wallet_hot_nonces`: the next nonce per (chain, hot address), taken in the
 *   transaction that records the withdrawal's signed transaction.
 * - `wallet_withdrawal_txs`: every transaction signed for a withdrawal (the
 *   first, each fee bump, an operator's cancel): whichever is mined settles it.
 * - `wallet_withdrawals.nonce` / `hot_address`: the nonce the withdrawal holds.
 *
 * Withdrawals still waiting on chain from before carry only their signed
 * bytes: their nonce and sender are read back from them, so the sender can
 * follow them and the allocator starts above them.
 */
export const walletSenderMigration: HalyardMigration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('wallet_hot_nonces')
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('next_nonce', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('wallet_hot_nonces_pk', ['chain_id', 'address'])
      .execute();

    await db.schema
      .createTable('wallet_withdrawal_txs')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('withdrawal_id', 'bigint', (c) => c.notNull())
      .addColumn('chain_id', 'integer', (c) => c.notNull())
      .addColumn('from_address', 'text', (c) => c.notNull())
      .addColumn('nonce', 'bigint', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('raw_tx', 'text', (c) => c.notNull())
      // Wei, as decimal text: a bump is computed from the last one signed. Null for a legacy transaction.
      .addColumn('max_fee_per_gas', 'text')
      .addColumn('max_priority_fee_per_gas', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('wallet_withdrawal_txs_withdrawal')
      .on('wallet_withdrawal_txs')
      .columns(['withdrawal_id', 'created_at'])
      .execute();

    await db.schema.alterTable('wallet_withdrawals').addColumn('nonce', 'bigint').execute();
    await db.schema.alterTable('wallet_withdrawals').addColumn('hot_address', 'text').execute();
    await db.schema
      .createIndex('wallet_withdrawals_sending')
      .on('wallet_withdrawals')
      .columns(['state', 'chain_id', 'hot_address', 'nonce'])
      .execute();

    const waiting = await sql<{
      id: number;
      chain_id: number;
      tx_hash: string;
      raw_tx: string;
      updated_at: number;
    }>`
      select id, chain_id, tx_hash, raw_tx, updated_at from wallet_withdrawals
      where state = 'broadcast' and raw_tx is not null and tx_hash is not null`.execute(db);
    for (const row of waiting.rows) {
      const raw = row.raw_tx as Hex;
      const parsed = parseTransaction(raw);
      if (parsed.nonce === undefined) continue;
      const from = await recoverTransactionAddress({ serializedTransaction: raw as never });
      await sql`update wallet_withdrawals set nonce = ${parsed.nonce}, hot_address = ${from}
        where id = ${row.id}`.execute(db);
      await sql`insert into wallet_withdrawal_txs (hash, withdrawal_id, chain_id, from_address, nonce, kind,
          raw_tx, max_fee_per_gas, max_priority_fee_per_gas, created_at)
        values (${row.tx_hash}, ${row.id}, ${row.chain_id}, ${from}, ${parsed.nonce}, 'transfer', ${raw},
          ${parsed.maxFeePerGas?.toString() ?? null}, ${parsed.maxPriorityFeePerGas?.toString() ?? null},
          ${row.updated_at})
        on conflict (hash) do nothing`.execute(db);
    }
  },
};
