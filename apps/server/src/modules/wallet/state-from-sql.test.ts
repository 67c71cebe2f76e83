import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { step } from '../../core/sequencer/index.ts';
import { commandStream } from '../../core/state/command-stream.ts';
import { dayOf, type MoneyCommand, type MoneyResult, moneyMachine } from '../../core/state/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { ProjectedState } from '../../projection/equivalence-support.ts';
import { moneyStateFromSql } from '../../projection/initial-state.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import { walletProjection } from './projection.ts';

/**
 * The wallet part of the money state built from SQL (state-from-sql.ts) is
 * the state that wrote that SQL: a seeded stream of deposits, holds,
 * withdrawals (requested, reviewed, sent, mined, failed, flagged) and
 * adjustments runs through the state and the ledger's and wallet's writers;
 * the state read back holds the same open withdrawals and next id, and then
 * answers the rest of the stream exactly as the state that ran all along.
 */

const BEFORE = 4_000;
const AFTER = 2_000;
/** The ledger's commands and the wallet's: the spot and other parts have their own tests. */
const KINDS = new Set<MoneyCommand['kind']>([
  'transfer',
  'depositCredited',
  'withdrawalRequested',
  'withdrawalReviewed',
  'withdrawalOutcome',
  'adjust',
]);

let store: Store;
let live: ProjectedState;
let commands: MoneyCommand[];

beforeAll(async () => {
  store = await openTestStore();
  live = new ProjectedState(store, [ledgerProjection, walletProjection]);
  commands = [];
  for (const command of commandStream({ seed: 20_261_129, users: 30, traders: 5, walletFlows: true })) {
    // Without command ids: a repeat answered before the start is not in SQL (the modules keep their own).
    if (KINDS.has(command.kind)) commands.push({ ...command, id: undefined });
    if (commands.length === BEFORE + AFTER) break;
  }
  for (const [index, command] of commands.slice(0, BEFORE).entries()) {
    live.apply(command);
    if (index % 500 === 499) await live.write();
  }
  await live.write();
}, 120_000);

afterAll(async () => {
  await store?.close();
});

describe('the wallet part of the money state built from SQL', () => {
  it('holds the open withdrawals and the next id, and answers the rest of the stream alike', async () => {
    const at = commands[BEFORE - 1]!.at;
    const built = await moneyStateFromSql(store.db, at);
    const byId = (state: typeof built) => [...state.withdrawals.open.entries()].sort(([a], [b]) => a - b);
    expect(byId(built)).toEqual(byId(live.state));
    expect(built.withdrawals.open.size).toBeGreaterThan(3);
    expect(new Set([...built.withdrawals.open.values()].map((w) => w.step)).size).toBeGreaterThan(1);
    expect(built.withdrawals.nextId).toBe(live.state.withdrawals.nextId);
    // The room of the start's day as the state counted it (older days' entries are not read: they count for nothing).
    const today = (state: typeof built) =>
      [...state.withdrawals.daily.entries()]
        .filter(([, entry]) => entry.day === dayOf(at) && !entry.amount.isZero())
        .sort(([a], [b]) => (a < b ? -1 : 1));
    expect(today(built)).toEqual(today(live.state));
    expect(today(built).length).toBeGreaterThan(0);

    const machine = moneyMachine();
    const liveAnswers: MoneyResult[] = [];
    const builtAnswers: MoneyResult[] = [];
    let seq = 0;
    for (const command of commands.slice(BEFORE)) {
      liveAnswers.push(live.apply(command));
      builtAnswers.push(step(machine, built, command, ++seq).result);
    }
    expect(builtAnswers).toEqual(liveAnswers);
    expect(byId(built)).toEqual(byId(live.state));
  });
});
