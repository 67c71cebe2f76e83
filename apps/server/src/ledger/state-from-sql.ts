import { Dec } from '@halyard/money';
import type { MoneyState } from '../core/state/index.ts';
import type { Executor } from '../store/database.ts';
import { accountKey, accountMapKey, accountRefFromColumns } from './accounts.ts';
import type { HoldEntry, PlannedTransfer } from './plan.ts';
import { type JoinedTransferRow, toLoaded, transfersWithAccounts } from './store.ts';
import type { HoldState } from './transfers.ts';

/** Rows read per statement: a page of a table that may hold millions. */
const PAGE = 10_000;

/**
 * The ledger part of the money state built from SQL (projection/initial-state.ts):
 * every account's four totals; the latest transfers with their holds, as
 * many as the retry window holds commands, so that a retry of one sent before
 * the start, or a post of its closed hold, is answered as the SQL ledger
 * would; and every older open hold with its pending transfer. They join the window at sequence 0, and are
 * forgotten as any other once it passes them (a hold once it closes).
 */
export async function loadLedgerState(db: Executor, state: MoneyState): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('ledger_accounts')
      .selectAll()
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const key = accountKey(accountRefFromColumns(row.owner, row.wallet), row.asset);
      const mapKey = accountMapKey(key);
      state.ledger.accounts.set(mapKey, {
        key,
        mapKey,
        id: null,
        mayGoNegative: Number(row.may_go_negative) === 1,
        debitsPosted: Dec.parse(String(row.debits_posted)),
        creditsPosted: Dec.parse(String(row.credits_posted)),
        debitsPending: Dec.parse(String(row.debits_pending)),
        creditsPending: Dec.parse(String(row.credits_pending)),
        createdAt: Number(row.created_at),
      });
    }
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)!.id);
  }
  const { epochSeqs, epochsKept } = state.transferIds.policy;
  await loadRecentTransfers(db, state, epochSeqs * epochsKept);
  await loadOpenHolds(db, state);
}

/** A stored transfer as the state keeps it (without the SQL sequence). */
export function plannedTransferOf(row: JoinedTransferRow): PlannedTransfer {
  const { seq: _seq, ...transfer } = toLoaded(row).transfer;
  return transfer;
}

function holdOf(pending: PlannedTransfer, hold: { remaining: Dec; state: HoldState }): HoldEntry {
  return {
    remaining: hold.remaining,
    state: hold.state,
    debit: pending.debit,
    credit: pending.credit,
    asset: pending.asset,
  };
}

/** The latest `count` transfers, oldest first, into the retry window. */
async function loadRecentTransfers(db: Executor, state: MoneyState, count: number): Promise<void> {
  const bound = await db
    .selectFrom('ledger_transfers')
    .select('seq')
    .orderBy('seq', 'desc')
    .limit(1)
    .offset(count - 1)
    .executeTakeFirst();
  for (let after = bound === undefined ? 0 : Number(bound.seq) - 1; ; ) {
    const rows = await transfersWithAccounts(db)
      .where('t.seq', '>', after)
      .orderBy('t.seq')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const { transfer: stored, hold } = toLoaded(row);
      const { seq: _seq, ...transfer } = stored;
      state.ledger.transfers.set(transfer.id, transfer);
      state.transferIds.add(transfer, 0);
      // A closed hold too: a post or void of it is answered "closed", as the SQL ledger answers.
      if (hold !== null) state.ledger.holds.set(transfer.id, holdOf(transfer, hold));
    }
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)!.seq);
  }
}

async function loadOpenHolds(db: Executor, state: MoneyState): Promise<void> {
  for (let after = 0; ; ) {
    const rows = await transfersWithAccounts(db)
      .where('h.state', '=', 'open')
      .where('t.seq', '>', after)
      .orderBy('t.seq')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const pending = plannedTransferOf(row);
      if (state.ledger.transfers.has(pending.id)) continue;
      state.ledger.holds.set(pending.id, holdOf(pending, toLoaded(row).hold!));
      state.ledger.transfers.set(pending.id, pending);
      state.transferIds.add(pending, 0);
    }
    if (rows.length < PAGE) break;
    after = Number(rows.at(-1)!.seq);
  }
}
