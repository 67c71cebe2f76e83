import { Dec } from '@halyard/money';
import {
  dailyKey,
  dayOf,
  type MoneyState,
  type OpenWithdrawal,
  type WithdrawalStep,
} from '../../core/state/index.ts';
import type { CustodyWallet } from '../../ledger/index.ts';
import type { Executor } from '../../store/database.ts';
import { custodyOf } from './chain-watcher.ts';
import type { ChainId } from './config.ts';

const OPEN_STEPS: readonly WithdrawalStep[] = ['review', 'approved', 'broadcast', 'flagged'];

/**
 * The wallet part of the money state built from SQL (projection/initial-state.ts):
 * every withdrawal not yet completed or rejected, in its step, with an
 * operator's hold on it, the next id after the highest ever given, and each
 * user's room used on the day of `at` (the start), as the module counts it. Their
 * holds are the ledger's part. Deposits leave nothing in the state: a
 * credit's id is the ledger's.
 */
export async function loadWalletState(db: Executor, state: MoneyState, at: number): Promise<void> {
  const highest = await db
    .selectFrom('wallet_withdrawals')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  state.withdrawals.nextId = Number(highest?.id ?? 0) + 1;
  const rows = await db
    .selectFrom('wallet_withdrawals')
    .select([
      'id',
      'user_id',
      'coin',
      'chain_id',
      'amount',
      'fee',
      'state',
      'held_at',
      'held_reason',
      'created_at',
    ])
    .where('state', 'in', OPEN_STEPS)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const id = Number(row.id);
    const withdrawal: OpenWithdrawal = {
      id,
      userId: Number(row.user_id),
      createdAt: Number(row.created_at),
      coin: row.coin,
      custody: custodyOf(row.chain_id as ChainId).wallet as CustodyWallet,
      // As the state writes them: a NUMERIC read from PostgreSQL is padded with zeros.
      amount: Dec.parse(row.amount),
      fee: Dec.parse(row.fee),
      step: row.state as WithdrawalStep,
      heldReason: row.held_at === null ? null : (row.held_reason ?? ''),
    };
    state.withdrawals.open.set(id, withdrawal);
  }
  // The day's room as the module's withdrawnSince counts it: every request of the day of `at` not rejected.
  const day = dayOf(at);
  const today = await db
    .selectFrom('wallet_withdrawals')
    .select(['user_id', 'coin', 'amount'])
    .where('state', '!=', 'rejected')
    .where('created_at', '>=', day)
    .orderBy('id')
    .execute();
  const { daily } = state.withdrawals;
  for (const row of today) {
    const userId = Number(row.user_id);
    const key = dailyKey(userId, row.coin);
    const amount = Dec.parse(row.amount).add(daily.get(key)?.amount ?? Dec.ZERO);
    daily.set(key, { userId, coin: row.coin, day, amount });
  }
}
