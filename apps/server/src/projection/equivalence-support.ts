import { Dec } from '@halyard/money';
import { expect } from 'vitest';
import type { MoneyState } from '../core/state/index.ts';
import { ownerColumn } from '../ledger/accounts.ts';
import type { Executor } from '../store/database.ts';

/**
 * What every equivalence test (modules/<domain>/state-equivalence.test.ts)
 * compares last: the module's database (a) and the one the projection wrote
 * from the money state (b) hold the same ledger transfers and accounts, and
 * the state in memory holds the same totals.
 */
export async function expectLedgerEquivalent(
  moduleDb: Executor,
  projectedDb: Executor,
  state: MoneyState,
  options: { accountTimes: boolean },
): Promise<void> {
  expect(await transferRows(projectedDb)).toEqual(await transferRows(moduleDb));
  const moduleAccounts = await accountRows(moduleDb, options.accountTimes);
  expect(await accountRows(projectedDb, options.accountTimes)).toEqual(moduleAccounts);
  expect(totalsOfState(state)).toEqual(totalsOfRows(moduleAccounts));
}

/** Every transfer in the ledger's order, its accounts by owner and wallet (account ids depend on creation order), its time. */
function transferRows(db: Executor) {
  return db
    .selectFrom('ledger_transfers as t')
    .innerJoin('ledger_accounts as d', 'd.id', 't.debit_account_id')
    .innerJoin('ledger_accounts as c', 'c.id', 't.credit_account_id')
    .select([
      't.id',
      't.type',
      't.asset',
      't.amount',
      't.code',
      't.reference',
      't.pending_id',
      't.timestamp',
      'd.owner as debit_owner',
      'd.wallet as debit_wallet',
      'c.owner as credit_owner',
      'c.wallet as credit_wallet',
    ])
    .orderBy('t.seq')
    .execute();
}

/** `accountTimes`: whether the accounts' creation times are compared (a module that stamps them from its own clock cannot). */
function accountRows(db: Executor, accountTimes: boolean) {
  return db
    .selectFrom('ledger_accounts')
    .select([
      'owner',
      'wallet',
      'asset',
      'debits_posted',
      'credits_posted',
      'debits_pending',
      'credits_pending',
    ])
    .$if(accountTimes, (query) => query.select('created_at'))
    .orderBy('owner')
    .orderBy('wallet')
    .orderBy('asset')
    .execute();
}

/** An account's four totals, normalised (the SQL text of a NUMERIC is not Dec's). */
type Totals = Record<string, [string, string, string, string]>;

function totalsOfRows(rows: Awaited<ReturnType<typeof accountRows>>): Totals {
  const totals: Totals = {};
  const n = (value: string) => Dec.parse(value).toString();
  for (const row of rows)
    totals[`${row.owner}:${row.wallet}:${row.asset}`] = [
      n(row.debits_posted),
      n(row.credits_posted),
      n(row.debits_pending),
      n(row.credits_pending),
    ];
  return totals;
}

function totalsOfState(state: MoneyState): Totals {
  const totals: Totals = {};
  for (const account of state.ledger.accounts.values()) {
    const { owner, wallet, asset } = account.key;
    totals[`${ownerColumn(owner)}:${wallet}:${asset}`] = [
      account.debitsPosted.toString(),
      account.creditsPosted.toString(),
      account.debitsPending.toString(),
      account.creditsPending.toString(),
    ];
  }
  return totals;
}
