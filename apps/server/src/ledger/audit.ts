import { Dec } from '@halyard/money';
import { PostgresAdapter } from 'kysely';
import type { Executor } from '../store/database.ts';
import { accountMapKeyOfColumns, accountRefFromColumns, mayGoNegative } from './accounts.ts';
import { isOverdrawn } from './plan.ts';
import type { AccountRow } from './store.ts';
import type { HoldState } from './transfers.ts';

/** One broken invariant, in words an operator can act on. */
export interface Breach {
  rule:
    | 'asset-balance'
    | 'account-totals'
    | 'overdrawn'
    | 'account-kind'
    | 'transfer'
    | 'hold'
    | 'projection';
  detail: string;
}

export interface AuditReport {
  accounts: number;
  transfers: number;
  holds: number;
  assets: string[];
  breaches: Breach[];
}

/** An account's four running totals. */
export interface AccountTotals {
  debitsPosted: Dec;
  creditsPosted: Dec;
  debitsPending: Dec;
  creditsPending: Dec;
}

const TOTAL_NAMES = ['debitsPosted', 'creditsPosted', 'debitsPending', 'creditsPending'] as const;
/** Transfers are read in pages of this size, so the audit's memory does not grow with the history. */
const PAGE_SIZE = 5000;

const zeroTotals = (): AccountTotals => ({
  debitsPosted: Dec.ZERO,
  creditsPosted: Dec.ZERO,
  debitsPending: Dec.ZERO,
  creditsPending: Dec.ZERO,
});

function storedTotals(row: AccountRow): AccountTotals {
  return {
    debitsPosted: Dec.parse(row.debits_posted),
    creditsPosted: Dec.parse(row.credits_posted),
    debitsPending: Dec.parse(row.debits_pending),
    creditsPending: Dec.parse(row.credits_pending),
  };
}

function describe(row: AccountRow): string {
  return `account ${row.id} (${row.owner} ${row.asset} ${row.wallet})`;
}

/**
 * Checks the ledger's invariants from scratch (DESIGN §4): every account's four
 * totals equal what its transfers add up to (replaying posts and voids of
 * holds), every hold's remainder matches its posts and void, per asset the
 * debits equal the credits (posted and pending apart), no account that may not
 * go negative is overdrawn, and each account carries its kind's overdraft flag.
 * Answers every breach found; an empty list is a healthy ledger.
 *
 * Everything is read inside one snapshot (see inSnapshot), so a server that
 * keeps writing while the audit runs cannot make it report false breaches.
 */
export async function auditLedger(db: Executor): Promise<AuditReport> {
  return inSnapshot(db, (snapshot) => auditWithin(snapshot, null));
}

/**
 * `auditLedger`, and the projection against the state it follows, in the
 * same snapshot: every account's four totals in SQL equal `expected` (the
 * state's accounts by `accountMapKey`, as of the projection's watermark),
 * and no account is in one and not the other (rule `projection`). Pass the
 * snapshot's transaction (`inSnapshot`) to check the watermark in it too.
 */
export async function auditAgainstState(
  db: Executor,
  expected: ReadonlyMap<string, AccountTotals>,
): Promise<AuditReport> {
  return inSnapshot(db, (snapshot) => auditWithin(snapshot, expected));
}

/**
 * Runs `read` on one consistent snapshot of the store. The audit reads the
 * accounts, then thousands of transfers page by page, then the holds: read
 * apart, a batch committed between two reads shows in one and not the other
 * (an account's totals ahead of its transfers) and the audit cries breach on
 * a healthy ledger. PostgreSQL: a REPEATABLE READ, READ ONLY transaction (one
 * snapshot for all its statements, no locks taken, writers never wait).
 * SQLite: one read transaction; in WAL mode its snapshot is fixed by its
 * first read and writers on other connections carry on (the CLI has a
 * connection of its own). An open transaction handed in is the caller's
 * snapshot, used as it is.
 */
export async function inSnapshot<T>(db: Executor, read: (snapshot: Executor) => Promise<T>): Promise<T> {
  if (db.isTransaction) return read(db);
  const begin = db.transaction();
  const snapshot =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? begin.setIsolationLevel('repeatable read').setAccessMode('read only')
      : begin;
  return snapshot.execute(read);
}

async function auditWithin(
  db: Executor,
  expected: ReadonlyMap<string, AccountTotals> | null,
): Promise<AuditReport> {
  const breaches: Breach[] = [];
  const rows = await db.selectFrom('ledger_accounts').selectAll().orderBy('id').execute();
  const accounts = new Map(rows.map((row) => [row.id, { row, replayed: zeroTotals() }]));
  const holds = new Map<string, { remaining: Dec; state: HoldState }>();

  let transferCount = 0;
  let lastSeq = 0;
  for (;;) {
    const page = await db
      .selectFrom('ledger_transfers')
      .selectAll()
      .where('seq', '>', lastSeq)
      .orderBy('seq')
      .limit(PAGE_SIZE)
      .execute();
    for (const transfer of page) {
      transferCount += 1;
      const debit = accounts.get(transfer.debit_account_id);
      const credit = accounts.get(transfer.credit_account_id);
      if (!debit || !credit || debit.row.asset !== transfer.asset || credit.row.asset !== transfer.asset) {
        breaches.push({
          rule: 'transfer',
          detail: `transfer ${transfer.id}: accounts missing or of another asset`,
        });
        continue;
      }
      const problem = replay(transfer, debit.replayed, credit.replayed, holds);
      if (problem) breaches.push({ rule: 'transfer', detail: `transfer ${transfer.id}: ${problem}` });
    }
    if (page.length < PAGE_SIZE) break;
    lastSeq = page[page.length - 1]!.seq;
  }

  const storedHolds = await db.selectFrom('ledger_holds').selectAll().execute();
  breaches.push(...compareHolds(holds, storedHolds));
  if (expected) breaches.push(...compareWithState(rows, expected));

  const perAsset = new Map<string, AccountTotals>();
  for (const { row, replayed } of accounts.values()) {
    const stored = storedTotals(row);
    for (const name of TOTAL_NAMES) {
      if (!stored[name].eq(replayed[name])) {
        breaches.push({
          rule: 'account-totals',
          detail: `${describe(row)}: ${name} is ${stored[name]} but its transfers add up to ${replayed[name]}`,
        });
      }
    }
    const expectedFlag = mayGoNegative(accountRefFromColumns(row.owner, row.wallet)) ? 1 : 0;
    if (row.may_go_negative !== expectedFlag) {
      breaches.push({
        rule: 'account-kind',
        detail: `${describe(row)}: may_go_negative should be ${expectedFlag}`,
      });
    }
    if (row.may_go_negative === 0 && isOverdrawn(stored)) {
      breaches.push({
        rule: 'overdrawn',
        detail: `${describe(row)}: debits ${stored.debitsPosted} + held ${stored.debitsPending} exceed credits ${stored.creditsPosted}`,
      });
    }
    const sums = perAsset.get(row.asset) ?? zeroTotals();
    for (const name of TOTAL_NAMES) sums[name] = sums[name].add(stored[name]);
    perAsset.set(row.asset, sums);
  }
  for (const [asset, sums] of perAsset) {
    if (!sums.debitsPosted.eq(sums.creditsPosted)) {
      breaches.push({
        rule: 'asset-balance',
        detail: `${asset}: posted debits ${sums.debitsPosted} ≠ posted credits ${sums.creditsPosted}`,
      });
    }
    if (!sums.debitsPending.eq(sums.creditsPending)) {
      breaches.push({
        rule: 'asset-balance',
        detail: `${asset}: pending debits ${sums.debitsPending} ≠ pending credits ${sums.creditsPending}`,
      });
    }
  }
  return {
    accounts: rows.length,
    transfers: transferCount,
    holds: storedHolds.length,
    assets: [...perAsset.keys()].sort(),
    breaches,
  };
}

/** Applies one stored transfer to the replayed totals; answers what is wrong with it, if anything. */
function replay(
  transfer: { id: string; type: string; amount: string; pending_id: string | null },
  debit: AccountTotals,
  credit: AccountTotals,
  holds: Map<string, { remaining: Dec; state: HoldState }>,
): string | null {
  const amount = Dec.parse(transfer.amount);
  if (!amount.isPositive()) return 'amount is not positive';
  if ((transfer.type === 'posted' || transfer.type === 'pending') && transfer.pending_id !== null) {
    return 'a new movement names a pending transfer';
  }
  if (transfer.type === 'posted') {
    debit.debitsPosted = debit.debitsPosted.add(amount);
    credit.creditsPosted = credit.creditsPosted.add(amount);
    return null;
  }
  if (transfer.type === 'pending') {
    debit.debitsPending = debit.debitsPending.add(amount);
    credit.creditsPending = credit.creditsPending.add(amount);
    holds.set(transfer.id, { remaining: amount, state: 'open' });
    return null;
  }
  const hold = transfer.pending_id === null ? undefined : holds.get(transfer.pending_id);
  if (!hold) return 'its pending transfer does not precede it';
  if (hold.state !== 'open') return `its hold was already ${hold.state}`;
  if (amount.gt(hold.remaining)) return `moves ${amount} but the hold had ${hold.remaining} left`;
  if (transfer.type === 'void_pending' && !amount.eq(hold.remaining))
    return 'a void must release all that is left';
  debit.debitsPending = debit.debitsPending.sub(amount);
  credit.creditsPending = credit.creditsPending.sub(amount);
  hold.remaining = hold.remaining.sub(amount);
  if (transfer.type === 'post_pending') {
    debit.debitsPosted = debit.debitsPosted.add(amount);
    credit.creditsPosted = credit.creditsPosted.add(amount);
    if (hold.remaining.isZero()) hold.state = 'posted';
  } else if (transfer.type === 'void_pending') {
    hold.state = 'voided';
  } else {
    return `unknown type ${transfer.type}`;
  }
  return null;
}

/** Each SQL account's totals against the state's; accounts in one only. */
function compareWithState(
  rows: readonly AccountRow[],
  expected: ReadonlyMap<string, AccountTotals>,
): Breach[] {
  const breaches: Breach[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const key = accountMapKeyOfColumns(row.owner, row.asset, row.wallet);
    seen.add(key);
    const state = expected.get(key);
    if (!state) {
      breaches.push({ rule: 'projection', detail: `${describe(row)} is not in the state` });
      continue;
    }
    const stored = storedTotals(row);
    for (const name of TOTAL_NAMES) {
      if (!stored[name].eq(state[name]))
        breaches.push({
          rule: 'projection',
          detail: `${describe(row)}: ${name} is ${stored[name]} in SQL, ${state[name]} in the state`,
        });
    }
  }
  for (const key of expected.keys()) {
    if (!seen.has(key))
      breaches.push({ rule: 'projection', detail: `account ${key} of the state is not in SQL` });
  }
  return breaches;
}

function compareHolds(
  replayed: Map<string, { remaining: Dec; state: HoldState }>,
  stored: readonly { transfer_id: string; remaining: string; state: HoldState }[],
): Breach[] {
  const breaches: Breach[] = [];
  const seen = new Set<string>();
  for (const row of stored) {
    seen.add(row.transfer_id);
    const expected = replayed.get(row.transfer_id);
    if (!expected) {
      breaches.push({ rule: 'hold', detail: `hold ${row.transfer_id} has no pending transfer` });
    } else if (!Dec.parse(row.remaining).eq(expected.remaining) || row.state !== expected.state) {
      breaches.push({
        rule: 'hold',
        detail: `hold ${row.transfer_id}: stored ${row.remaining} ${row.state}, transfers say ${expected.remaining} ${expected.state}`,
      });
    }
  }
  for (const id of replayed.keys()) {
    if (!seen.has(id)) breaches.push({ rule: 'hold', detail: `pending transfer ${id} has no hold row` });
  }
  return breaches;
}
