import { Dec } from '@halyard/money';
import { REFERRAL_AVERAGE_WINDOW_MS, REFERRAL_TOKEN } from '@halyard/rules';
import type { MoneyState } from '../../core/state/index.ts';
import { noteHalHoldings, type ReferralUser, startHalHolding } from '../../core/state/referral.ts';
import { normalizedIdNumber, unpaidOf } from '../../core/state/referral-rules.ts';
import { accountMapKeyOfColumns, SYSTEM_OWNER } from '../../ledger/accounts.ts';
import type { NewTransfer } from '../../ledger/plan.ts';
import { plannedTransferOf } from '../../ledger/state-from-sql.ts';
import { transfersWithAccounts } from '../../ledger/store.ts';
import type { Executor } from '../../store/database.ts';
import { readReferralSettings } from './fees.ts';
import { payoutMark, referralStore, unpaidCommissions } from './store.ts';

/** User ids per read (well under every engine's bound on variables), and transfers per page. */
const CHUNK = 1000;
const PAGE = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The referral part of the money state built from SQL (projection/initial-state.ts),
 * after the ledger part: the operator's settings, the profile of every user
 * whose profile is not the default one (an inviter, a referral account, or an
 * ID number submitted for KYC), and every HAL holder's holding over the UTC
 * day before `at`'s and `at`'s own, from which the state computes the tiers
 * exactly as modules/referral does from the ledger's history; and the
 * commission rows not yet credited, oldest first, for the next
 * `referralPayout`. The index prices are not in SQL: the edge sends them
 * (`indexPrices`) on its first tick.
 */
export async function loadReferralState(db: Executor, state: MoneyState, at: number): Promise<void> {
  const settings = await readReferralSettings(db);
  state.referral.halDiscount = settings.halDiscount;
  state.referral.marketMakers = settings.marketMakers;
  await loadProfiles(db, state);
  await loadHalHoldings(db, state, Math.floor(at / DAY_MS) * DAY_MS - REFERRAL_AVERAGE_WINDOW_MS);
  await loadUnpaidCommissions(db, state);
}

/** The rows accrued and not yet credited, in the order the payout sweep takes them. */
async function loadUnpaidCommissions(db: Executor, state: MoneyState): Promise<void> {
  for (let after = await payoutMark(db); ; ) {
    const rows = await unpaidCommissions(db, PAGE, after);
    for (const row of rows) state.referral.unpaid.set(row.leg_id, unpaidOf(row));
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)!.id);
  }
}

async function loadProfiles(db: Executor, state: MoneyState): Promise<void> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('parent_id', 'is not', null)
    .union(db.selectFrom('referral_accounts').select('user_id as id'))
    .union(db.selectFrom('kyc_submissions').select('user_id as id'))
    .execute();
  const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  for (let start = 0; start < ids.length; start += CHUNK)
    for (const user of await readReferralUsers(db, ids.slice(start, start + CHUNK)))
      state.referral.users.set(user.userId, user);
}

/**
 * The users' referral profiles as the state keeps them, read from SQL: the
 * inviter, fee deduction, kickback and every KYC ID number. A user without
 * a row anywhere reads as the default profile; an id no user has reads as none.
 */
export async function readReferralUsers(db: Executor, userIds: readonly number[]): Promise<ReferralUser[]> {
  const parents = new Map(
    (await referralStore.members(db, userIds)).map((row) => [Number(row.id), row.parent_id]),
  );
  const accounts = new Map(
    (await referralStore.accounts(db, userIds)).map((row) => [Number(row.user_id), row]),
  );
  const idNumbers = new Map<number, Set<string>>();
  for (const row of await referralStore.idNumbers(db, userIds)) {
    const set = idNumbers.get(Number(row.user_id)) ?? new Set<string>();
    set.add(normalizedIdNumber(row.id_number));
    idNumbers.set(Number(row.user_id), set);
  }
  return userIds
    .filter((userId) => parents.has(userId))
    .map((userId) => {
      const parentId = parents.get(userId);
      const account = accounts.get(userId);
      return {
        userId,
        parentId: parentId == null ? null : Number(parentId),
        feeDeduction: Number(account?.fee_deduction ?? 0) === 1,
        kickbackRate: Dec.parse(String(account?.kickback_rate ?? '0')),
        idNumbers: idNumbers.get(userId) ?? new Set(),
      };
    });
}

/**
 * Each user's HAL (posted, every wallet) as it stood at `from`, then every
 * HAL transfer since, in the ledger's order, noted as the state notes them
 * live (`noteHalHoldings`).
 */
async function loadHalHoldings(db: Executor, state: MoneyState, from: number): Promise<void> {
  const transfers = await halTransfersSince(db, from);
  const balances = new Map<number, Dec>();
  const add = (owner: string, amount: Dec) => {
    if (owner === SYSTEM_OWNER) return;
    const userId = Number(owner);
    balances.set(userId, (balances.get(userId) ?? Dec.ZERO).add(amount));
  };
  const accounts = await db
    .selectFrom('ledger_accounts')
    .select(['owner', 'credits_posted', 'debits_posted'])
    .where('asset', '=', REFERRAL_TOKEN)
    .execute();
  for (const row of accounts)
    add(row.owner, Dec.parse(String(row.credits_posted)).sub(Dec.parse(String(row.debits_posted))));
  // Back from now to `from`: each transfer since undone.
  for (const transfer of transfers) {
    const debit = state.ledger.accounts.get(transfer.debitKey)!.key.owner;
    const credit = state.ledger.accounts.get(transfer.creditKey)!.key.owner;
    add(String(debit), transfer.amount);
    add(String(credit), transfer.amount.neg());
  }
  for (const [userId, balance] of balances) startHalHolding(state.referral, userId, balance, from);
  noteHalHoldings(state.referral, transfers);
}

/** The HAL transfers that moved posted balances since `from`, in the ledger's order. */
async function halTransfersSince(db: Executor, from: number): Promise<NewTransfer[]> {
  const transfers: NewTransfer[] = [];
  for (let after = 0; ; ) {
    const rows = await transfersWithAccounts(db)
      .where('t.asset', '=', REFERRAL_TOKEN)
      .where('t.type', 'in', ['posted', 'post_pending'])
      .where('t.timestamp', '>=', from)
      .where('t.seq', '>', after)
      .orderBy('t.seq')
      .limit(PAGE)
      .execute();
    for (const row of rows)
      transfers.push({
        ...plannedTransferOf(row),
        debitKey: accountMapKeyOfColumns(row.debit_owner, row.asset, row.debit_wallet),
        creditKey: accountMapKeyOfColumns(row.credit_owner, row.asset, row.credit_wallet),
      });
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)!.seq);
  }
  return transfers;
}
