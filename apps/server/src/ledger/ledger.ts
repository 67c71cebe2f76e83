import { AsyncLocalStorage } from 'node:async_hooks';
import { Dec } from '@halyard/money';
import type { Clock } from '../clock.ts';
import type { Db, Executor, Trx } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import {
  type AccountKey,
  type AccountRef,
  accountMapKey,
  accountMapKeyOfColumns,
  ownerColumn,
  SYSTEM_OWNER,
  type Wallet,
} from './accounts.ts';
import { applyBatches, applyBulk } from './apply.ts';
import { isLedgerError, LEDGER_ERRORS, LedgerError } from './errors.ts';
import { type AccountRow, ledgerStore } from './store.ts';
import type { Hold, Transfer, TransferInput, TransferType } from './transfers.ts';

export interface Balance {
  /** credits posted − debits posted − debits pending: what can be spent now. */
  available: Dec;
  /** debits pending: reserved by holds (open orders, pending withdrawals). */
  locked: Dec;
  /** available + locked. */
  total: Dec;
}

export interface AccountBalance extends Balance {
  asset: string;
  wallet: Wallet;
}

/** A transfer seen from one account: `credit` brought money in, `debit` took it out. */
export interface AccountEntry extends Transfer {
  side: 'debit' | 'credit';
}

/** What one wallet holds of one asset, summed: every user's wallet of that kind as one line, or one system wallet. */
export interface WalletTotal {
  asset: string;
  owner: 'users' | typeof SYSTEM_OWNER;
  wallet: Wallet;
  /** credits posted − debits posted: held funds included (they are still the owner's). */
  total: Dec;
}

export interface TransferQuery {
  /** 1..100, default 20. */
  limit?: number;
  /** Only transfers older than this `seq` (the previous page's `next`). */
  before?: number | null;
  codes?: readonly string[];
  types?: readonly TransferType[];
}

export interface TransferPage {
  items: AccountEntry[];
  /** Pass as `before` for the next page; null when this page was not full (there is no more). */
  next: number | null;
}

export interface Ledger {
  /**
   * Commits a batch all-or-nothing, in order, and answers one Transfer per
   * input (a retried id answers the stored transfer and changes nothing).
   * Without `trx` the ledger queues the batch and commits it in its own
   * transaction (group-committed with other queued batches; each batch still
   * succeeds or fails alone). With `trx` it must be the transaction handed to
   * a `ledger.transaction` callback, and the batch joins it.
   * Refusals throw a LedgerError before anything is written.
   */
  execute(batch: readonly TransferInput[], trx?: Trx): Promise<Transfer[]>;
  /**
   * Commits up to BULK_MAX transfers as one all-or-nothing unit, checked in
   * order like a batch, and answers nothing: for writes too large for a
   * batch whose caller needs no Transfer back (a tick's cycle settlements).
   * A retried id with the same fields is skipped; a refusal throws a
   * LedgerError before anything is written. With `trx` (of a
   * `ledger.transaction` callback) it joins that transaction; without, it
   * runs in its own, in the queue's order.
   */
  executeBulk(transfers: readonly TransferInput[], trx?: Trx): Promise<void>;
  /**
   * Runs `work` in a database transaction that holds the ledger's write lock
   * from begin to commit, so a module can write its own rows and its ledger
   * batches atomically: `ledger.transaction(async (trx) => { insert order;
   * await ledger.execute([hold], trx) })`. A LedgerError thrown by
   * `execute` inside may be caught and the work continued: nothing was
   * written for it. Keep `work` short: every other ledger write waits for it.
   */
  transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T>;
  balance(key: AccountKey, db?: Executor): Promise<Balance>;
  /** The balances of several accounts in one read, in the order of `keys` (an account never used reads as zero). */
  balancesOf(keys: readonly AccountKey[], db?: Executor): Promise<Balance[]>;
  /** Every account of an owner (a user id, or 'system'), by wallet then asset. */
  balances(owner: AccountRef['owner'], db?: Executor): Promise<AccountBalance[]>;
  /** One account's transfers, newest first. */
  transfers(key: AccountKey, query?: TransferQuery, db?: Executor): Promise<TransferPage>;
  transfer(id: string, db?: Executor): Promise<Transfer | null>;
  hold(pendingId: string, db?: Executor): Promise<Hold | null>;
  /** Every asset's totals per wallet (see WalletTotal): what users are owed, what the exchange holds. */
  walletTotals(db?: Executor): Promise<WalletTotal[]>;
  /** Writes waiting in the queue for the ledger's lock. */
  queued(): number;
}

export interface LedgerLimits {
  /** Writes waiting beyond this are refused with `ledger.busy` (a queue always has a bound). */
  queueMax?: number;
  /** Queued batches committed together in one transaction, at most. */
  groupMax?: number;
}

const QUEUE_MAX = 10_000;
const GROUP_MAX = 256;
const GROUP_TRANSFERS_MAX = 4096;
const PAGE_LIMIT_DEFAULT = 20;
const PAGE_LIMIT_MAX = 100;

interface Settle<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

type Job =
  | { kind: 'batch'; batch: readonly TransferInput[]; settle: Settle<Transfer[]> }
  | { kind: 'work'; work: (trx: Trx) => Promise<unknown>; settle: Settle<unknown> };

/**
 * The ledger: the only writer of balances.
 *
 * Serialisation. Every write goes through one in-process queue, and runs in a
 * database transaction; on PostgreSQL the batch also locks the holds it
 * posts or voids and its account rows (SELECT … FOR UPDATE), which keeps the
 * rule even across processes. The overdraft check and the write happen under
 * that lock, so two batches can never both spend the same funds.
 *
 * Transactions of other modules. A module that must write its own rows with
 * a batch uses `ledger.transaction(work)`: the queue's lock is taken first and
 * the transaction opened second, in that order for every writer, and held
 * until commit. A transaction the module opened itself is refused by
 * `execute(batch, trx)`: the ledger could not order it behind the lock, and on
 * SQLite (one connection) a queued ledger write would then wait for that
 * transaction while it waits for the ledger, forever. For the same reason
 * `execute(batch)` and `transaction()` called from inside a ledger transaction
 * throw instead of deadlocking; reads without `db` inside one use its `trx`.
 */
export function createLedger(
  store: { db: Db; dialect: DialectName },
  clock: Clock,
  limits: LedgerLimits = {},
): Ledger {
  const { db, dialect } = store;
  const queueMax = limits.queueMax ?? QUEUE_MAX;
  const groupMax = limits.groupMax ?? GROUP_MAX;
  const jobs: Job[] = [];
  let draining = false;
  /** Open ledger transactions, each with the tail of the batches run in it (one at a time). */
  const open = new WeakMap<Trx, Promise<unknown>>();
  const current = new AsyncLocalStorage<Trx>();

  function enqueue<T>(make: (settle: Settle<T>) => Job): Promise<T> {
    if (current.getStore()) {
      return Promise.reject(
        new Error('ledger: already inside ledger.transaction; pass its trx to ledger.execute(batch, trx)'),
      );
    }
    if (jobs.length >= queueMax) return Promise.reject(new LedgerError(LEDGER_ERRORS.busy, null));
    return new Promise<T>((resolve, reject) => {
      jobs.push(make({ resolve, reject }));
      if (!draining) void drain();
    });
  }

  async function drain(): Promise<void> {
    draining = true;
    while (jobs.length > 0) {
      const head = jobs[0]!;
      if (head.kind === 'work') {
        jobs.shift();
        await runWork(head);
      } else {
        await runGroup(takeBatches());
      }
    }
    draining = false;
  }

  /** The queued batches at the head, up to `groupMax` of them and GROUP_TRANSFERS_MAX transfers. */
  function takeBatches(): Extract<Job, { kind: 'batch' }>[] {
    const group: Extract<Job, { kind: 'batch' }>[] = [];
    let transfers = 0;
    for (let head = jobs[0]; head?.kind === 'batch' && group.length < groupMax; head = jobs[0]) {
      if (group.length > 0 && transfers + head.batch.length > GROUP_TRANSFERS_MAX) break;
      transfers += head.batch.length;
      group.push(head);
      jobs.shift();
    }
    return group;
  }

  async function runWork(job: Extract<Job, { kind: 'work' }>): Promise<void> {
    try {
      const result = await db.transaction().execute(async (trx) => {
        open.set(trx, Promise.resolve());
        try {
          return await current.run(trx, () => job.work(trx));
        } finally {
          await open.get(trx);
          open.delete(trx);
        }
      });
      job.settle.resolve(result);
    } catch (error) {
      job.settle.reject(error);
    } finally {
      // On Node 20 an enabled AsyncLocalStorage has every promise of the
      // process copy its context (promise hooks): a fifth of a test run's CPU,
      // and every request's, long after the last transaction. Works run one
      // at a time, so the context is needed only while one runs; the next
      // run() enables it again.
      current.disable();
    }
  }

  /**
   * Group commit: queued batches share one transaction (one fsync) and a few
   * statements. Each batch still succeeds or is refused on its own; any other
   * error rolls the whole group back and every caller sees it (they may retry:
   * ids make that safe).
   */
  async function runGroup(group: Extract<Job, { kind: 'batch' }>[]): Promise<void> {
    try {
      const outcomes = await db.transaction().execute((trx) =>
        applyBatches(
          trx,
          dialect,
          group.map((job) => job.batch),
          clock.now(),
        ),
      );
      group.forEach((job, index) => {
        const outcome = outcomes[index]!;
        if (isLedgerError(outcome)) job.settle.reject(outcome);
        else job.settle.resolve(outcome);
      });
    } catch (error) {
      for (const job of group) job.settle.reject(error);
    }
  }

  /** Runs `write` in ledger transaction `trx`, after the writes already queued in it. */
  function writeIn<T>(trx: Trx, write: () => Promise<T>): Promise<T> {
    const tail = open.get(trx);
    if (!tail) {
      return Promise.reject(
        new Error('ledger: execute(batch, trx) needs the trx of a ledger.transaction callback'),
      );
    }
    // Batches in one transaction run one after another even if the caller does not await each.
    const next = tail.then(write);
    open.set(
      trx,
      next.catch(() => undefined),
    );
    return next;
  }

  function executeIn(trx: Trx, batch: readonly TransferInput[]): Promise<Transfer[]> {
    return writeIn(trx, async () => {
      const [outcome] = await applyBatches(trx, dialect, [batch], clock.now());
      if (isLedgerError(outcome)) throw outcome;
      return outcome!;
    });
  }

  const bulkIn = (trx: Trx, transfers: readonly TransferInput[]) =>
    writeIn(trx, () => applyBulk(trx, dialect, transfers, clock.now()));

  function transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    return enqueue<T>((settle) => ({ kind: 'work', work, settle: settle as Settle<unknown> }));
  }

  const reader = (given: Executor | undefined): Executor => given ?? current.getStore() ?? db;

  return {
    execute(batch, trx) {
      if (trx) return executeIn(trx, batch);
      return enqueue<Transfer[]>((settle) => ({ kind: 'batch', batch, settle }));
    },

    executeBulk(transfers, trx) {
      if (trx) return bulkIn(trx, transfers);
      return transaction((own) => bulkIn(own, transfers));
    },

    transaction,

    async balance(key, given) {
      const row = await ledgerStore.accountByKey(reader(given), key);
      return row ? balanceOf(row) : zeroBalance();
    },

    async balancesOf(keys, given) {
      if (keys.length === 0) return [];
      const rows = await ledgerStore.accountsByKeys(reader(given), dialect, keys);
      const byKey = new Map(
        rows.map((row) => [accountMapKeyOfColumns(row.owner, row.asset, row.wallet), row]),
      );
      return keys.map((key) => {
        const row = byKey.get(accountMapKey(key));
        return row ? balanceOf(row) : zeroBalance();
      });
    },

    async balances(owner, given) {
      const rows = await ledgerStore.accountsOfOwner(reader(given), ownerColumn(owner));
      return rows.map((row) => ({ asset: row.asset, wallet: row.wallet as Wallet, ...balanceOf(row) }));
    },

    async transfers(key, query = {}, given) {
      const limit = pageLimit(query.limit);
      const db = reader(given);
      const account = await ledgerStore.accountByKey(db, key);
      if (!account) return { items: [], next: null };
      const loaded = await ledgerStore.transfersOfAccount(db, account.id, {
        limit,
        beforeSeq: query.before ?? null,
        codes: query.codes ?? [],
        types: query.types ?? [],
      });
      const items = loaded.map(({ transfer, debitAccountId }) => ({
        ...transfer,
        side: debitAccountId === account.id ? ('debit' as const) : ('credit' as const),
      }));
      return { items, next: items.length === limit ? items[items.length - 1]!.seq : null };
    },

    async transfer(id, given) {
      const [loaded] = await ledgerStore.transfersByIds(reader(given), [id]);
      return loaded?.transfer ?? null;
    },

    async hold(pendingId, given) {
      const [loaded] = await ledgerStore.transfersByIds(reader(given), [pendingId]);
      if (!loaded?.hold) return null;
      return { transfer: loaded.transfer, ...loaded.hold };
    },

    async walletTotals(given) {
      const totals = new Map<string, WalletTotal>();
      for (const row of await ledgerStore.postedTotals(reader(given))) {
        const owner = row.owner === SYSTEM_OWNER ? SYSTEM_OWNER : 'users';
        const key = accountMapKeyOfColumns(owner, row.asset, row.wallet);
        const entry = totals.get(key) ?? {
          asset: row.asset,
          owner,
          wallet: row.wallet as Wallet,
          total: Dec.ZERO,
        };
        entry.total = entry.total.add(Dec.parse(row.credits_posted)).sub(Dec.parse(row.debits_posted));
        totals.set(key, entry);
      }
      return [...totals.values()];
    },

    queued: () => jobs.length,
  };
}

/** The balance of an account never used. */
function zeroBalance(): Balance {
  return { available: Dec.ZERO, locked: Dec.ZERO, total: Dec.ZERO };
}

export function balanceOf(
  row: Pick<AccountRow, 'debits_posted' | 'credits_posted' | 'debits_pending'>,
): Balance {
  const total = Dec.parse(row.credits_posted).sub(Dec.parse(row.debits_posted));
  const locked = Dec.parse(row.debits_pending);
  return { available: total.sub(locked), locked, total };
}

function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return PAGE_LIMIT_DEFAULT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > PAGE_LIMIT_MAX) {
    throw new LedgerError(LEDGER_ERRORS.invalidTransfer, null, { field: 'limit' });
  }
  return limit;
}
