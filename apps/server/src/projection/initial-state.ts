import { openFileJournal, openSnapshotStore, type SnapshotStore } from '../core/journal/index.ts';
import type { MoneyMachine, MoneyState, RetentionPolicy } from '../core/state/index.ts';
import { moneyMachine } from '../core/state/index.ts';
import { inSnapshot } from '../ledger/audit.ts';
import { loadLedgerState } from '../ledger/state-from-sql.ts';
import { loadConvertState } from '../modules/convert/state-from-sql.ts';
import { loadCycleState } from '../modules/cycle/state-from-sql.ts';
import { loadFiatState } from '../modules/fiat/state-from-sql.ts';
import { fundingIntervalFrom, fundingSlot } from '../modules/futures/funding.ts';
import { loadFuturesState } from '../modules/futures/state-from-sql.ts';
import { loadIeoState } from '../modules/ieo/state-from-sql.ts';
import { loadReferralState } from '../modules/referral/state-from-sql.ts';
import { loadSpotState } from '../modules/spot/state-from-sql.ts';
import { loadWalletState } from '../modules/wallet/state-from-sql.ts';
import type { Executor } from '../store/database.ts';

/**
 * Starting the core on a database that ran without it (docs/core.md,
 * "Starting from an existing database"): its balances, holds and open orders
 * are in SQL only. The money state is built from the tables, read in one
 * consistent snapshot of the store, each module reading its own part
 * (`<module>/state-from-sql.ts`), and written as the data directory's
 * snapshot 0: recovery then starts from it, and the projectors, whose
 * watermarks are 0, write only what commands change after it.
 *
 * `at` is the time of the start, read by the edge (the state reads no clock):
 * the tiers of referral commissions weigh the HAL held over the day before
 * it, convert forgets the quotes expired by then, and a futures contract that
 * never paid a funding round starts its clock at the slot of `at`
 * (`fundingIntervalMs`, the server's FUNDING_INTERVAL_MS).
 */
export async function moneyStateFromSql(
  db: Executor,
  at: number,
  retention?: RetentionPolicy,
  fundingIntervalMs: number = fundingIntervalFrom(process.env),
): Promise<MoneyState> {
  const state = moneyMachine(retention).initialState();
  await inSnapshot(db, async (snapshot) => {
    await loadLedgerState(snapshot, state);
    await loadSpotState(snapshot, state);
    await loadReferralState(snapshot, state, at);
    await loadCycleState(snapshot, state);
    await loadConvertState(snapshot, state, at);
    await loadWalletState(snapshot, state, at);
    await loadFuturesState(snapshot, state, fundingSlot(at, fundingIntervalMs));
    await loadIeoState(snapshot, state);
    await loadFiatState(snapshot, state);
  });
  return state;
}

/**
 * Writes snapshot 0 of the data directory `dir` from SQL, when the directory
 * has no snapshot and its journal no command: the first start on the core.
 * Answers whether it wrote one. A directory that has either is left as it
 * is (recovery takes it from there); a database whose projectors are past
 * an empty journal is refused by recovery itself (ProjectionAheadError).
 * `fundingIntervalMs` is the futures module's funding interval (see
 * `moneyStateFromSql`).
 */
export async function seedSnapshotFromSql(
  dir: string,
  db: Executor,
  at: number,
  machine: MoneyMachine = moneyMachine(),
  fundingIntervalMs: number = fundingIntervalFrom(process.env),
): Promise<boolean> {
  const journal = await openFileJournal(`${dir}/journal`);
  const journaled = journal.lastSequence();
  await journal.close();
  if (journaled > 0) return false;
  return writeSnapshotZeroFromSql(openSnapshotStore(`${dir}/snapshots`), db, at, machine, fundingIntervalMs);
}

/**
 * Writes the state read from SQL as snapshot 0 of `snapshots` when the store
 * holds no snapshot; answers whether it wrote one. The caller knows the
 * journal holds no command: a data directory's (above), or a cluster's
 * stream under its lease (cluster/sequencer-node.ts).
 */
export async function writeSnapshotZeroFromSql(
  snapshots: SnapshotStore,
  db: Executor,
  at: number,
  machine: MoneyMachine = moneyMachine(),
  fundingIntervalMs: number = fundingIntervalFrom(process.env),
): Promise<boolean> {
  if ((await snapshots.latest()) !== null) return false;
  const state = await moneyStateFromSql(db, at, undefined, fundingIntervalMs);
  const capture = machine.capture(state);
  const pieces: Uint8Array[] = [];
  for (let piece = capture.next(); piece !== null; piece = capture.next()) pieces.push(piece);
  await snapshots.write(0, Buffer.concat(pieces));
  return true;
}
