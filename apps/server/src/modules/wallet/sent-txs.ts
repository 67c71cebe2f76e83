import type { Selectable } from 'kysely';
import type { Address } from 'viem';
import type { Executor } from '../../store/database.ts';
import type { ChainId } from './config.ts';
import type { WithdrawalRow } from './store.ts';

/** A transaction signed for a withdrawal: its ERC-20 transfer (first or fee-bumped), or an operator's cancel. */
export type SentTxKind = 'transfer' | 'cancel';

export interface WalletWithdrawalTxsTable {
  hash: string;
  withdrawal_id: number;
  chain_id: number;
  from_address: string;
  nonce: number;
  kind: SentTxKind;
  raw_tx: string;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  created_at: number;
}

declare module '../../store/database.ts' {
  interface Database {
    wallet_withdrawal_txs: WalletWithdrawalTxsTable;
  }
}

export type SentTxRow = Selectable<WalletWithdrawalTxsTable>;

/** Every transaction signed for a withdrawal is kept: whichever of them is mined settles it. */
export const sentTxs = {
  async insert(db: Executor, row: SentTxRow): Promise<void> {
    await db.insertInto('wallet_withdrawal_txs').values(row).execute();
  },

  /** A withdrawal's transactions, oldest first. */
  async ofWithdrawal(db: Executor, withdrawalId: number): Promise<SentTxRow[]> {
    return db
      .selectFrom('wallet_withdrawal_txs')
      .selectAll()
      .where('withdrawal_id', '=', withdrawalId)
      .orderBy('created_at')
      .orderBy('hash')
      .execute();
  },

  /** The withdrawals of one hot wallet on chain in a state, lowest nonce first, at most `limit`. */
  async withdrawalsByNonce(
    db: Executor,
    chainId: ChainId,
    hotAddress: Address,
    state: 'broadcast',
    limit: number,
  ): Promise<WithdrawalRow[]> {
    return db
      .selectFrom('wallet_withdrawals')
      .selectAll()
      .where('state', '=', state)
      .where('chain_id', '=', chainId)
      .where('hot_address', '=', hotAddress)
      .orderBy('nonce')
      .limit(limit)
      .execute();
  },
};

/** Approved withdrawals of a chain, waiting to be signed, oldest first. */
export async function approvedOnChain(
  db: Executor,
  chainId: ChainId,
  limit: number,
): Promise<WithdrawalRow[]> {
  return db
    .selectFrom('wallet_withdrawals')
    .selectAll()
    .where('state', '=', 'approved')
    .where('chain_id', '=', chainId)
    .orderBy('id')
    .limit(limit)
    .execute();
}
