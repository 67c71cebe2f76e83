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
  /**
   * Keeps a signed transaction; one kept already stays as it is (the same
   * hash is the same signed bytes): on the core, the round that takes up a
   * stopped send (`stoppedSends`) may record it as the operator's resend does.
   */
  async insert(db: Executor, row: SentTxRow): Promise<void> {
    await db
      .insertInto('wallet_withdrawal_txs')
      .values(row)
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
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
  withdrawalsByNonce(
    db: Executor,
    chainId: ChainId,
    hotAddress: Address,
    state: 'broadcast',
    limit: number,
  ): Promise<WithdrawalRow[]> {
    return byNonce(db, { chainId, hotAddress, state, limit, unkeptOnly: false });
  },

  /**
   * On the core: the withdrawals of one hot wallet in broadcast whose own
   * transaction (the one the row holds) the sender never kept, lowest nonce
   * first. The process stopped after the state's `sent` became durable and
   * before the nonce was taken and the transaction kept, so it was never
   * broadcast either. A row whose hash another withdrawal keeps (the old
   * signer's shared transaction, see migration 014) is not one of them.
   */
  stoppedSends(db: Executor, chainId: ChainId, hotAddress: Address, limit: number): Promise<WithdrawalRow[]> {
    return byNonce(db, { chainId, hotAddress, state: 'broadcast', limit, unkeptOnly: true });
  },
};

/** A hot wallet's withdrawals in `state`, lowest nonce first; `unkeptOnly`: those whose own hash no kept transaction has. */
function byNonce(
  db: Executor,
  where: { chainId: ChainId; hotAddress: Address; state: 'broadcast'; limit: number; unkeptOnly: boolean },
): Promise<WithdrawalRow[]> {
  return db
    .selectFrom('wallet_withdrawals')
    .selectAll()
    .where('state', '=', where.state)
    .where('chain_id', '=', where.chainId)
    .where('hot_address', '=', where.hotAddress)
    .$if(where.unkeptOnly, (query) =>
      query.where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('wallet_withdrawal_txs')
              .select('wallet_withdrawal_txs.hash')
              .whereRef('wallet_withdrawal_txs.hash', '=', 'wallet_withdrawals.tx_hash'),
          ),
        ),
      ),
    )
    .orderBy('nonce')
    .limit(where.limit)
    .execute();
}

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
