import type { Address } from 'viem';
import type { Executor } from '../../store/database.ts';
import type { ChainId } from './config.ts';

export interface WalletHotNoncesTable {
  chain_id: number;
  address: string;
  next_nonce: number;
}

declare module '../../store/database.ts' {
  interface Database {
    wallet_hot_nonces: WalletHotNoncesTable;
  }
}

/**
 * The hot wallet's nonces, one counter per (chain, hot address), kept in the
 * store. The node's pending count cannot be trusted for this: it gave two
 * withdrawals signed one after the other the same nonce (one transfer on
 * chain, both marked completed). The store is the truth once the counter
 * exists; it starts once from the chain's confirmed (mined) nonce, above any
 * nonce a recorded withdrawal already holds.
 */
export const hotNonces = {
  async isSet(db: Executor, chainId: ChainId, address: Address): Promise<boolean> {
    return (await counterOf(db, chainId, address)) !== null;
  },

  /** Starts the counter at `confirmedNonce` (or above the nonces already recorded); a set counter stays as it is. */
  async initialise(db: Executor, chainId: ChainId, address: Address, confirmedNonce: number): Promise<void> {
    const above = await aboveRecorded(db, chainId, address);
    await db
      .insertInto('wallet_hot_nonces')
      .values({ chain_id: chainId, address, next_nonce: Math.max(confirmedNonce, above) })
      .onConflict((oc) => oc.columns(['chain_id', 'address']).doNothing())
      .execute();
  },

  /**
   * On the sequenced core: the nonce the next transaction is signed with,
   * not taken yet (`use` takes it once the state's `sent` is durable). Above
   * every nonce a withdrawal row holds: after a crash between `sent` and
   * `use`, the row the projector wrote holds the nonce the counter missed.
   */
  async peek(db: Executor, chainId: ChainId, address: Address): Promise<number> {
    const next = await counterOf(db, chainId, address);
    if (next === null) throw new Error(`no nonce counter for ${address} on chain ${chainId}`);
    return Math.max(next, await aboveRecorded(db, chainId, address));
  },

  /** On the core: `nonce` is used (its transaction recorded); the counter moves past it, never back. */
  async use(trx: Executor, chainId: ChainId, address: Address, nonce: number): Promise<void> {
    await trx
      .updateTable('wallet_hot_nonces')
      .set({ next_nonce: nonce + 1 })
      .where('chain_id', '=', chainId)
      .where('address', '=', address)
      .where('next_nonce', '<=', nonce)
      .execute();
  },

  /**
   * Takes the next nonce. Called inside the transaction that records the
   * signed transaction using it: a rollback gives the nonce back, and two
   * writers cannot take the same one (the update locks the row).
   */
  async take(trx: Executor, chainId: ChainId, address: Address): Promise<number> {
    const row = await trx
      .updateTable('wallet_hot_nonces')
      .set((eb) => ({ next_nonce: eb('next_nonce', '+', 1) }))
      .where('chain_id', '=', chainId)
      .where('address', '=', address)
      .returning('next_nonce')
      .executeTakeFirst();
    if (!row) throw new Error(`no nonce counter for ${address} on chain ${chainId}`);
    return Number(row.next_nonce) - 1;
  },
};

/** Above the highest nonce a withdrawal of the hot wallet holds (0 without any). */
async function aboveRecorded(db: Executor, chainId: ChainId, address: Address): Promise<number> {
  const recorded = await db
    .selectFrom('wallet_withdrawals')
    .select((eb) => eb.fn.max('nonce').as('top'))
    .where('chain_id', '=', chainId)
    .where('hot_address', '=', address)
    .executeTakeFirst();
  return recorded?.top === null || recorded?.top === undefined ? 0 : Number(recorded.top) + 1;
}

/** The counter's next nonce, or null before it is set. */
async function counterOf(db: Executor, chainId: ChainId, address: Address): Promise<number | null> {
  const row = await db
    .selectFrom('wallet_hot_nonces')
    .select('next_nonce')
    .where('chain_id', '=', chainId)
    .where('address', '=', address)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.next_nonce);
}
