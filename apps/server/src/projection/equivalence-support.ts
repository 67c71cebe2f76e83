import { Dec } from '@halyard/money';
import { expect } from 'vitest';
import { type Published, step } from '../core/sequencer/index.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
} from '../core/state/index.ts';
import { type AccountRef, ownerColumn } from '../ledger/accounts.ts';
import type { TransferInput } from '../ledger/index.ts';
import type { Store } from '../store/connect.ts';
import type { Executor } from '../store/database.ts';
import { type ProjectionWriter, type ProjectionWriterSpec, wireOf } from './index.ts';

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
  for (const row of rows)
    totals[`${row.owner}:${row.wallet}:${row.asset}`] = [
      Dec.canonical(row.debits_posted),
      Dec.canonical(row.credits_posted),
      Dec.canonical(row.debits_pending),
      Dec.canonical(row.credits_pending),
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

/**
 * The module's ledger so far as `transfer` commands, one per transfer at its
 * own time: what a test app seeded before the stream (the demo's fiat ads and
 * their holds) becomes the state's start too.
 */
export async function ledgerSoFar(db: Executor): Promise<MoneyCommand[]> {
  const rows = await db
    .selectFrom('ledger_transfers as t')
    .innerJoin('ledger_accounts as d', 'd.id', 't.debit_account_id')
    .innerJoin('ledger_accounts as c', 'c.id', 't.credit_account_id')
    .select(['t.id', 't.type', 't.asset', 't.amount', 't.code', 't.reference', 't.pending_id', 't.timestamp'])
    .select([
      'd.owner as debitOwner',
      'd.wallet as debitWallet',
      'c.owner as creditOwner',
      'c.wallet as creditWallet',
    ])
    .orderBy('t.seq')
    .execute();
  const ref = (owner: string, wallet: string) =>
    (owner === 'system' ? { owner, wallet } : { owner: Number(owner), wallet }) as AccountRef;
  return rows.map((row) => {
    const base = { id: row.id, code: row.code, reference: row.reference };
    let input: TransferInput;
    if (row.type === 'post_pending')
      input = { ...base, type: 'post_pending', pendingId: row.pending_id!, amount: Dec.parse(row.amount) };
    else if (row.type === 'void_pending')
      input = { ...base, type: 'void_pending', pendingId: row.pending_id! };
    else
      input = {
        ...base,
        type: row.type as 'posted' | 'pending',
        debit: ref(String(row.debitOwner), row.debitWallet),
        credit: ref(String(row.creditOwner), row.creditWallet),
        asset: row.asset,
        amount: Dec.parse(row.amount),
      };
    return { kind: 'transfer', at: Number(row.timestamp), batch: [input] };
  });
}

/**
 * The state's side of an equivalence test: the money machine applied in
 * order, and what it published written through the given writers, each
 * given the events it reads as they reach a worker (structured-cloned, then
 * revived). The projector's watermarks and threads are its own tests' business.
 */
export class ProjectedState {
  private readonly machine = moneyMachine();
  readonly state: MoneyState = this.machine.initialState();
  private seq = 0;
  private unwritten: Published<MoneyEvent>[] = [];
  private readonly writers: {
    spec: ProjectionWriterSpec<MoneyEvent, unknown>;
    writer: ProjectionWriter<MoneyEvent>;
  }[];

  constructor(
    readonly store: Store,
    specs: readonly ProjectionWriterSpec<MoneyEvent, unknown>[],
  ) {
    this.writers = specs.map((spec) => ({ spec, writer: spec.create(store.dialect) }));
  }

  apply(command: MoneyCommand): MoneyResult {
    this.seq += 1;
    const { result, events } = step(this.machine, this.state, command, this.seq);
    this.unwritten.push({ seq: this.seq, events });
    return result;
  }

  /** Writes what the commands since the last write published, in one transaction. */
  async write(): Promise<void> {
    const published = this.unwritten;
    this.unwritten = [];
    if (published.length === 0) return;
    await this.store.db.transaction().execute(async (trx) => {
      for (const { spec, writer } of this.writers) {
        const crossed = published.map(({ seq, events }) => ({
          seq,
          events: structuredClone(events.filter(spec.reads).map((event) => wireOf(spec, event))).map(
            spec.revive,
          ),
        }));
        await writer.write(trx, crossed);
      }
    });
  }
}
