import { Dec } from '@halyard/money';
import type { Generated, Selectable } from 'kysely';
import type { Address } from 'viem';
import type { Executor } from '../../store/database.ts';
import type { CoinChain } from './coins.ts';
import type { ChainId } from './config.ts';

export interface WalletCoinsTable {
  coin: string;
  chain_id: number;
  contract: string;
  decimals: number;
  isin: number;
  isout: number;
  deposit_min: string;
  withdraw_min: string;
  withdraw_max: string;
  withdraw_daily_max: string;
  withdraw_fee: string;
  approval_threshold: string;
  confirmations: number;
  sort: number;
}

export interface WalletDepositAddressesTable {
  id: Generated<number>;
  user_id: number;
  chain_id: number;
  hd_index: number;
  address: string;
  created_at: number;
}

/**
 * A Transfer log to a deposit address. `waiting` while it gathers
 * confirmations; `completed` once credited; `rejected` when below the minimum
 * (never credited) or taken back by a reorg (reversed if it was credited).
 */
export type DepositState = 'waiting' | 'completed' | 'rejected';
export type DepositReason = 'belowMinimum' | 'reorg' | 'reorgUnpaid';

export interface WalletDepositsTable {
  /** `${chainId}:${txHash}:${logIndex}`: one row per log, whatever happens. */
  id: string;
  user_id: number;
  coin: string;
  chain_id: number;
  address: string;
  amount: string;
  tx_hash: string;
  log_index: number;
  block_number: number;
  block_hash: string;
  state: DepositState;
  reason: DepositReason | null;
  /** How many times this log was credited (a reorg and a re-inclusion credit it again under a new id). */
  credit_round: number;
  created_at: number;
  updated_at: number;
}

export interface WalletChainCursorsTable {
  chain_id: number;
  next_block: number;
}

export interface WalletWithdrawAddressesTable {
  id: Generated<number>;
  user_id: number;
  coin: string;
  chain_id: number;
  address: string;
  remark: string;
  created_at: number;
}

/**
 * review → (operator) approved | rejected; approved → broadcast (signed with a
 * nonce of the store, recorded before sending) → completed (its own
 * transaction mined, confirmed, its Transfer log matching) | rejected (it
 * reverted, or an operator's cancel took its nonce: funds released) | flagged
 * (its nonce was used by another transaction, or its Transfer does not match:
 * an operator re-sends or refunds it). The user sees review, approved,
 * broadcast and flagged as "waiting".
 */
export type WithdrawalState = 'review' | 'approved' | 'broadcast' | 'flagged' | 'completed' | 'rejected';
export const WITHDRAWAL_STATES: readonly WithdrawalState[] = [
  'review',
  'approved',
  'broadcast',
  'flagged',
  'completed',
  'rejected',
];

export interface WalletWithdrawalsTable {
  id: Generated<number>;
  user_id: number;
  coin: string;
  chain_id: number;
  address: string;
  amount: string;
  fee: string;
  state: WithdrawalState;
  reason: string | null;
  /** The latest transaction signed for it (the mined one once completed). */
  tx_hash: string | null;
  raw_tx: string | null;
  decided_by: string | null;
  /** The hot wallet's nonce it holds once signed (wallet_hot_nonces), and that wallet's address. */
  nonce: number | null;
  hot_address: string | null;
  /** An operator's hold on it while in review: why, by whom, since when (all null when not held). */
  held_reason: string | null;
  held_by: string | null;
  held_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface WalletOperatorActionsTable {
  id: Generated<number>;
  at: number;
  operator: string;
  action: string;
  withdrawal_id: number;
  details: string;
}

declare module '../../store/database.ts' {
  interface Database {
    wallet_coins: WalletCoinsTable;
    wallet_deposit_addresses: WalletDepositAddressesTable;
    wallet_deposits: WalletDepositsTable;
    wallet_chain_cursors: WalletChainCursorsTable;
    wallet_withdraw_addresses: WalletWithdrawAddressesTable;
    wallet_withdrawals: WalletWithdrawalsTable;
    wallet_operator_actions: WalletOperatorActionsTable;
  }
}

export type DepositRow = Selectable<WalletDepositsTable>;
export type WithdrawalRow = Selectable<WalletWithdrawalsTable>;
export type WithdrawAddressRow = Selectable<WalletWithdrawAddressesTable>;

function coinFromRow(row: Selectable<WalletCoinsTable>): CoinChain {
  return {
    coin: row.coin,
    chainId: row.chain_id as ChainId,
    contract: row.contract as Address,
    decimals: row.decimals,
    isin: row.isin === 1,
    isout: row.isout === 1,
    depositMin: Dec.parse(row.deposit_min),
    withdrawMin: Dec.parse(row.withdraw_min),
    withdrawMax: Dec.parse(row.withdraw_max),
    withdrawDailyMax: Dec.parse(row.withdraw_daily_max),
    withdrawFee: Dec.parse(row.withdraw_fee),
    approvalThreshold: Dec.parse(row.approval_threshold),
    confirmations: row.confirmations,
    sort: row.sort,
  };
}

export const walletStore = {
  // ── coins ──────────────────────────────────────────────────────────────

  /** Adds the coins, or updates the settings of those already there (one statement). */
  async upsertCoins(db: Executor, coins: readonly CoinChain[]): Promise<void> {
    if (coins.length === 0) return;
    await db
      .insertInto('wallet_coins')
      .values(
        coins.map((coin) => ({
          coin: coin.coin,
          chain_id: coin.chainId,
          contract: coin.contract,
          decimals: coin.decimals,
          isin: coin.isin ? 1 : 0,
          isout: coin.isout ? 1 : 0,
          deposit_min: coin.depositMin.toString(),
          withdraw_min: coin.withdrawMin.toString(),
          withdraw_max: coin.withdrawMax.toString(),
          withdraw_daily_max: coin.withdrawDailyMax.toString(),
          withdraw_fee: coin.withdrawFee.toString(),
          approval_threshold: coin.approvalThreshold.toString(),
          confirmations: coin.confirmations,
          sort: coin.sort,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['coin', 'chain_id']).doUpdateSet((eb) => ({
          contract: eb.ref('excluded.contract'),
          decimals: eb.ref('excluded.decimals'),
          isin: eb.ref('excluded.isin'),
          isout: eb.ref('excluded.isout'),
          deposit_min: eb.ref('excluded.deposit_min'),
          withdraw_min: eb.ref('excluded.withdraw_min'),
          withdraw_max: eb.ref('excluded.withdraw_max'),
          withdraw_daily_max: eb.ref('excluded.withdraw_daily_max'),
          withdraw_fee: eb.ref('excluded.withdraw_fee'),
          approval_threshold: eb.ref('excluded.approval_threshold'),
          confirmations: eb.ref('excluded.confirmations'),
          sort: eb.ref('excluded.sort'),
        })),
      )
      .execute();
  },

  async coins(db: Executor): Promise<CoinChain[]> {
    const rows = await db
      .selectFrom('wallet_coins')
      .selectAll()
      .orderBy('sort')
      .orderBy('chain_id')
      .execute();
    return rows.map(coinFromRow);
  },

  // ── deposit addresses ──────────────────────────────────────────────────

  async depositAddress(db: Executor, userId: number, chainId: ChainId): Promise<Address | null> {
    const row = await db
      .selectFrom('wallet_deposit_addresses')
      .select('address')
      .where('user_id', '=', userId)
      .where('chain_id', '=', chainId)
      .executeTakeFirst();
    return (row?.address as Address | undefined) ?? null;
  },

  async depositAddressCount(db: Executor, chainId: ChainId): Promise<number> {
    const row = await db
      .selectFrom('wallet_deposit_addresses')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('chain_id', '=', chainId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  },

  async nextHdIndex(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('wallet_deposit_addresses')
      .select((eb) => eb.fn.max('hd_index').as('top'))
      .executeTakeFirst();
    return row?.top === null || row?.top === undefined ? 0 : Number(row.top) + 1;
  },

  async insertDepositAddress(
    db: Executor,
    row: { userId: number; chainId: ChainId; index: number; address: Address; now: number },
  ): Promise<void> {
    await db
      .insertInto('wallet_deposit_addresses')
      .values({
        user_id: row.userId,
        chain_id: row.chainId,
        hd_index: row.index,
        address: row.address,
        created_at: row.now,
      })
      .execute();
  },

  /** Owners of the given deposit addresses on a chain, by checksummed address. */
  async depositOwners(
    db: Executor,
    chainId: ChainId,
    addresses: readonly Address[],
  ): Promise<Map<string, number>> {
    if (addresses.length === 0) return new Map();
    const rows = await db
      .selectFrom('wallet_deposit_addresses')
      .select(['address', 'user_id'])
      .where('chain_id', '=', chainId)
      .where('address', 'in', addresses)
      .execute();
    return new Map(rows.map((row) => [row.address, Number(row.user_id)]));
  },

  // ── deposits ───────────────────────────────────────────────────────────

  async deposit(db: Executor, id: string): Promise<DepositRow | undefined> {
    return db.selectFrom('wallet_deposits').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async insertDeposit(db: Executor, row: DepositRow): Promise<void> {
    await db.insertInto('wallet_deposits').values(row).execute();
  },

  async updateDeposit(
    db: Executor,
    id: string,
    patch: Partial<Omit<DepositRow, 'id' | 'user_id' | 'coin' | 'chain_id' | 'tx_hash' | 'log_index'>>,
  ): Promise<void> {
    await db.updateTable('wallet_deposits').set(patch).where('id', '=', id).execute();
  },

  /** Deposits of a chain in one state, lowest block first, at most `limit`. */
  async depositsInState(
    db: Executor,
    chainId: ChainId,
    state: DepositState,
    fromBlock: number,
    limit: number,
  ): Promise<DepositRow[]> {
    return db
      .selectFrom('wallet_deposits')
      .selectAll()
      .where('chain_id', '=', chainId)
      .where('state', '=', state)
      .where('block_number', '>=', fromBlock)
      .orderBy('block_number')
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  async depositsWithReason(db: Executor, chainId: ChainId, reason: DepositReason, limit: number) {
    return db
      .selectFrom('wallet_deposits')
      .selectAll()
      .where('chain_id', '=', chainId)
      .where('reason', '=', reason)
      .orderBy('block_number')
      .limit(limit)
      .execute();
  },

  async userDeposits(db: Executor, userId: number, coin: string | null, offset: number, limit: number) {
    let query = db.selectFrom('wallet_deposits').selectAll().where('user_id', '=', userId);
    if (coin) query = query.where('coin', '=', coin);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
  },

  // ── what the back office reads (issue 18) ──────────────────────────────

  /** The users a deposit address (checksummed) was handed to, on any chain. */
  async depositAddressUsers(db: Executor, address: Address): Promise<number[]> {
    const rows = await db
      .selectFrom('wallet_deposit_addresses')
      .select('user_id')
      .where('address', '=', address)
      .execute();
    return rows.map((row) => Number(row.user_id));
  },

  /** Every deposit, newest first, of a coin and state when given, and how many there are in all. */
  async depositsPage(
    db: Executor,
    filter: { coin: string | null; state: DepositState | null },
    offset: number,
    limit: number,
  ): Promise<{ rows: DepositRow[]; total: number }> {
    let query = db.selectFrom('wallet_deposits');
    if (filter.coin) query = query.where('coin', '=', filter.coin);
    if (filter.state) query = query.where('state', '=', filter.state);
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(offset)
        .limit(limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** Coin and amount of the deposits and withdrawals created at or after `since` and not rejected. */
  async flowsSince(
    db: Executor,
    since: number,
  ): Promise<{
    deposits: { coin: string; amount: string }[];
    withdrawals: { coin: string; amount: string }[];
  }> {
    const [deposits, withdrawals] = await Promise.all([
      db
        .selectFrom('wallet_deposits')
        .select(['coin', 'amount'])
        .where('created_at', '>=', since)
        .where('state', '<>', 'rejected')
        .execute(),
      db
        .selectFrom('wallet_withdrawals')
        .select(['coin', 'amount'])
        .where('created_at', '>=', since)
        .where('state', '<>', 'rejected')
        .execute(),
    ]);
    return { deposits, withdrawals };
  },

  async withdrawalCount(db: Executor, state: WithdrawalState): Promise<number> {
    const row = await db
      .selectFrom('wallet_withdrawals')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('state', '=', state)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  // ── chain cursor ───────────────────────────────────────────────────────

  async cursor(db: Executor, chainId: ChainId): Promise<number | null> {
    const row = await db
      .selectFrom('wallet_chain_cursors')
      .select('next_block')
      .where('chain_id', '=', chainId)
      .executeTakeFirst();
    return row ? Number(row.next_block) : null;
  },

  async setCursor(db: Executor, chainId: ChainId, nextBlock: number): Promise<void> {
    await db
      .insertInto('wallet_chain_cursors')
      .values({ chain_id: chainId, next_block: nextBlock })
      .onConflict((oc) => oc.column('chain_id').doUpdateSet({ next_block: nextBlock }))
      .execute();
  },

  // ── withdrawal address book ────────────────────────────────────────────

  async insertWithdrawAddress(
    db: Executor,
    row: { userId: number; coin: string; chainId: ChainId; address: Address; remark: string; now: number },
  ): Promise<WithdrawAddressRow> {
    return db
      .insertInto('wallet_withdraw_addresses')
      .values({
        user_id: row.userId,
        coin: row.coin,
        chain_id: row.chainId,
        address: row.address,
        remark: row.remark,
        created_at: row.now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async findWithdrawAddress(
    db: Executor,
    userId: number,
    coin: string,
    chainId: ChainId,
    address: Address,
  ): Promise<WithdrawAddressRow | undefined> {
    return db
      .selectFrom('wallet_withdraw_addresses')
      .selectAll()
      .where('user_id', '=', userId)
      .where('coin', '=', coin)
      .where('chain_id', '=', chainId)
      .where('address', '=', address)
      .executeTakeFirst();
  },

  async deleteWithdrawAddress(db: Executor, userId: number, id: number): Promise<boolean> {
    const result = await db
      .deleteFrom('wallet_withdraw_addresses')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async withdrawAddresses(db: Executor, userId: number, coin: string | null): Promise<WithdrawAddressRow[]> {
    let query = db.selectFrom('wallet_withdraw_addresses').selectAll().where('user_id', '=', userId);
    if (coin) query = query.where('coin', '=', coin);
    return query.orderBy('id', 'desc').limit(200).execute();
  },

  // ── withdrawals ────────────────────────────────────────────────────────

  /** `row.id`: the money state's own (its projection); without one the table numbers it. */
  async insertWithdrawal(
    db: Executor,
    row: Omit<
      WithdrawalRow,
      | 'id'
      | 'reason'
      | 'tx_hash'
      | 'raw_tx'
      | 'decided_by'
      | 'nonce'
      | 'hot_address'
      | 'held_reason'
      | 'held_by'
      | 'held_at'
    > & { id?: number },
  ): Promise<WithdrawalRow> {
    return db
      .insertInto('wallet_withdrawals')
      .values({
        ...row,
        reason: null,
        tx_hash: null,
        raw_tx: null,
        decided_by: null,
        nonce: null,
        hot_address: null,
        held_reason: null,
        held_by: null,
        held_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  async withdrawal(db: Executor, id: number): Promise<WithdrawalRow | undefined> {
    return db.selectFrom('wallet_withdrawals').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** Moves a withdrawal on only from the state the caller saw: false when someone else moved it first. */
  async moveWithdrawal(
    db: Executor,
    id: number,
    from: WithdrawalState,
    patch: Partial<
      Pick<
        WithdrawalRow,
        'state' | 'reason' | 'tx_hash' | 'raw_tx' | 'decided_by' | 'nonce' | 'hot_address' | 'updated_at'
      >
    >,
  ): Promise<boolean> {
    let update = db
      .updateTable('wallet_withdrawals')
      .set(patch)
      .where('id', '=', id)
      .where('state', '=', from);
    // A withdrawal an operator holds is never approved, even by an approval read before the hold.
    if (patch.state === 'approved') update = update.where('held_at', 'is', null);
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  /**
   * Puts a hold on a withdrawal in review, or lifts it (`hold` null). Only
   * from the expected side (held or not) and only while in review: false
   * when someone else moved it first.
   */
  async setWithdrawalHold(
    db: Executor,
    id: number,
    hold: { reason: string; by: string; at: number } | null,
    updatedAt: number,
  ): Promise<boolean> {
    const result = await db
      .updateTable('wallet_withdrawals')
      .set({
        held_reason: hold?.reason ?? null,
        held_by: hold?.by ?? null,
        held_at: hold?.at ?? null,
        updated_at: updatedAt,
      })
      .where('id', '=', id)
      .where('state', '=', 'review')
      .where('held_at', hold ? 'is' : 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async withdrawalsInState(db: Executor, state: WithdrawalState, limit: number): Promise<WithdrawalRow[]> {
    return db
      .selectFrom('wallet_withdrawals')
      .selectAll()
      .where('state', '=', state)
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  async userWithdrawals(db: Executor, userId: number, coin: string | null, offset: number, limit: number) {
    let query = db.selectFrom('wallet_withdrawals').selectAll().where('user_id', '=', userId);
    if (coin) query = query.where('coin', '=', coin);
    return query.orderBy('id', 'desc').offset(offset).limit(limit).execute();
  },

  /** What a user asked to withdraw of a coin since `since`, rejected ones excepted. */
  async withdrawnSince(db: Executor, userId: number, coin: string, since: number): Promise<Dec> {
    const rows = await db
      .selectFrom('wallet_withdrawals')
      .select('amount')
      .where('user_id', '=', userId)
      .where('coin', '=', coin)
      .where('state', '!=', 'rejected')
      .where('created_at', '>=', since)
      .execute();
    return Dec.sum(rows.map((row) => Dec.parse(row.amount)));
  },

  // ── operator audit log (append-only: nothing updates or deletes it) ────

  async appendOperatorAction(
    db: Executor,
    entry: { at: number; operator: string; action: string; withdrawalId: number; details: object },
  ): Promise<void> {
    await db
      .insertInto('wallet_operator_actions')
      .values({
        at: entry.at,
        operator: entry.operator,
        action: entry.action,
        withdrawal_id: entry.withdrawalId,
        details: JSON.stringify(entry.details),
      })
      .execute();
  },

  async operatorActions(db: Executor, limit: number) {
    return db.selectFrom('wallet_operator_actions').selectAll().orderBy('id', 'desc').limit(limit).execute();
  },
};
