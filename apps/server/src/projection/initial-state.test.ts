import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileJournal } from '../core/journal/index.ts';
import { step } from '../core/sequencer/index.ts';
import { startFromDisk } from '../core/sequencer/start.ts';
import { commandStream } from '../core/state/command-stream.ts';
import {
  type MoneyCommand,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
  moneyStateHash,
} from '../core/state/index.ts';
import { tierOf } from '../core/state/referral.ts';
import { ledgerProjection } from '../ledger/projection.ts';
import { convertProjection } from '../modules/convert/projection.ts';
import { cycleProjection } from '../modules/cycle/projection.ts';
import { referralProjection } from '../modules/referral/projection.ts';
import { referralStore } from '../modules/referral/store.ts';
import { spotProjection } from '../modules/spot/projection.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import type { Executor } from '../store/database.ts';
import { ProjectedState } from './equivalence-support.ts';
import { moneyStateFromSql, seedSnapshotFromSql } from './initial-state.ts';
import { insertStreamMarkets } from './test-support.ts';

/**
 * The money state built from SQL (initial-state.ts) is the state that wrote
 * that SQL: a seeded stream of transfers, holds, spot orders, referral
 * profiles and cycle contracts runs through the state and the projector;
 * the state read back from the projected tables must hold the same
 * accounts, open holds, orders, books, pairs, profiles, tiers and open cycle
 * orders, and then decide the rest of the stream exactly as the state that
 * ran all along: same answers, same accounts. Snapshot 0 written from it is
 * what recovery starts from.
 */

const USERS = 60;
const BEFORE = 6_000;
const AFTER = 3_000;
const DAY_MS = 24 * 60 * 60 * 1000;

let store: Store;
let live: ProjectedState;
let rest: MoneyCommand[];
let dir: string;

beforeAll(async () => {
  store = await openTestStore();
  await prepare(store.db);
  live = new ProjectedState(store, [
    ledgerProjection,
    spotProjection,
    referralProjection,
    cycleProjection,
    convertProjection,
  ]);
  const stream = commandStream({ seed: 20_261_126, users: USERS, traders: 20, referral: true, cycle: true });
  const commands: MoneyCommand[] = [];
  for (const command of stream) {
    commands.push(command);
    if (commands.length === BEFORE + AFTER) break;
  }
  for (const [index, command] of commands.slice(0, BEFORE).entries()) {
    live.apply(command);
    if (index % 500 === 499) await live.write();
  }
  await live.write();
  // What the edge keeps in SQL itself and tells the state by command: the profiles and the operator's settings.
  await writeProfiles(store.db, live.state);
  // A command id answered before the start is not in SQL: the rest of the stream leaves those repeats out.
  const answered = new Set(commands.slice(0, BEFORE).flatMap((command) => (command.id ? [command.id] : [])));
  rest = commands.slice(BEFORE).filter((command) => command.id === undefined || !answered.has(command.id));
  dir = await mkdtemp(path.join(tmpdir(), 'halyard-initial-'));
}, 120_000);

afterAll(async () => {
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the money state built from SQL', () => {
  let built: MoneyState;
  let at: number;

  beforeAll(async () => {
    at = lastAt(live.state);
    built = await moneyStateFromSql(store.db, at);
  });

  it('holds the accounts, the open holds, the orders and the pairs the state that wrote the SQL holds', () => {
    expect(accountsOf(built)).toEqual(accountsOf(live.state));
    expect(openHoldsOf(built)).toEqual(openHoldsOf(live.state));
    expect(openHoldsOf(built).length).toBeGreaterThan(0);
    expect([...built.orders.entries()]).toEqual([...live.state.orders.entries()].sort(([a], [b]) => a - b));
    expect(built.orders.size).toBeGreaterThan(0);
    expect(built.nextOrderId).toBe(live.state.nextOrderId);
    for (const [symbol, pair] of live.state.pairs) {
      expect(built.pairs.get(symbol)).toEqual(pair);
      expect(built.books.get(symbol)!.depth(50)).toEqual(live.state.books.get(symbol)!.depth(50));
    }
  });

  it('holds the referral profiles and settings, and fixes every tier as the state that ran', () => {
    expect(new Map(built.referral.users)).toEqual(new Map(live.state.referral.users));
    expect(built.referral.halDiscount).toEqual(live.state.referral.halDiscount);
    expect(built.referral.marketMakers).toEqual(live.state.referral.marketMakers);
    const holders = [...live.state.referral.holdings.keys()];
    expect(holders.length).toBeGreaterThan(5);
    for (const userId of holders)
      for (const when of [at, at + DAY_MS])
        expect(tierOf(built.referral, userId, when)).toEqual(tierOf(live.state.referral, userId, when));
  });

  it('holds the open cycle orders in the order settlement takes them', () => {
    expect(built.cycle.open.orders()).toEqual(live.state.cycle.open.orders());
    expect(built.cycle.open.size).toBeGreaterThan(0);
    expect(built.cycle.nextOrderId).toBe(live.state.cycle.nextOrderId);
    expect(built.convert.nextOrderId).toBe(live.state.convert.nextOrderId);
  });

  it('decides the rest of the stream exactly as the state that ran all along', () => {
    // Index prices are not in SQL: the edge sends them on its first tick after the start.
    const prices = Object.fromEntries(
      [...live.state.referral.indexPrices].map(([coin, price]) => [coin, price.toString()]),
    );
    const machine = moneyMachine();
    let seq = 1;
    step(machine, built, { kind: 'indexPrices', at, prices }, seq);
    const liveAnswers: MoneyResult[] = [];
    const builtAnswers: MoneyResult[] = [];
    for (const command of rest) {
      liveAnswers.push(live.apply(command));
      builtAnswers.push(step(machine, built, command, ++seq).result);
    }
    expect(builtAnswers).toEqual(liveAnswers);
    expect(liveAnswers.filter((answer) => answer.ok).length).toBeGreaterThan(AFTER / 3);
    expect(accountsOf(built)).toEqual(accountsOf(live.state));
    expect([...built.orders.keys()].sort()).toEqual([...live.state.orders.keys()].sort());
  });
});

describe('snapshot 0', () => {
  it('is written once, from SQL, and recovery starts from it', async () => {
    const at = lastAt(live.state);
    expect(await seedSnapshotFromSql(dir, store.db, at)).toBe(true);
    expect(await seedSnapshotFromSql(dir, store.db, at)).toBe(false);
    const started = await startFromDisk(moneyMachine(), dir);
    try {
      expect(started.recovered.snapshotSeq).toBe(0);
      expect(moneyStateHash(started.sequencer.state)).toBe(
        moneyStateHash(await moneyStateFromSql(store.db, at)),
      );
    } finally {
      await started.sequencer.close();
      await started.journal.close();
    }
  });

  it('is not written over a journal that holds commands', async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'halyard-initial-'));
    try {
      const journal = await openFileJournal(`${other}/journal`);
      await journal.append([new TextEncoder().encode('{}')]);
      await journal.close();
      expect(await seedSnapshotFromSql(other, store.db, lastAt(live.state))).toBe(false);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});

// ── helpers ─────────────────────────────────────────────────────────────────

/** The markets the stream trades, and the users the projected rows refer to. */
async function prepare(db: Executor): Promise<void> {
  await insertStreamMarkets(db);
  await db
    .insertInto('users')
    .values(
      Array.from({ length: USERS }, (_, index) => ({
        id: index + 1,
        email: `u${index + 1}@example.com`,
        area_code: null,
        phone: null,
        wallet_address: null,
        password_hash: null,
        pay_password_hash: null,
        invitation_code: `IS${index + 1}`,
        parent_id: null,
        locked_until: null,
        created_at: 0,
      })),
    )
    .execute();
}

/** The profiles and settings as the edge keeps them in SQL (users, referral accounts, KYC, config). */
async function writeProfiles(db: Executor, state: MoneyState): Promise<void> {
  for (const user of state.referral.users.values()) {
    await db.updateTable('users').set({ parent_id: user.parentId }).where('id', '=', user.userId).execute();
    await referralStore.saveAccount(db, {
      user_id: user.userId,
      kickback_rate: user.kickbackRate.toString(),
      fee_deduction: user.feeDeduction ? 1 : 0,
      bound_at: null,
      updated_at: 0,
    });
    for (const idNumber of user.idNumbers)
      await db
        .insertInto('kyc_submissions')
        .values({
          user_id: user.userId,
          real_name: 'Test',
          id_number: idNumber,
          photo_url: '/x.png',
          // Every submission counts, refused ones too; only one live submission may hold an ID number.
          state: 'failed',
          reason: null,
          submitted_at: 0,
          decided_at: null,
          decided_by: null,
        })
        .execute();
  }
  await referralStore.saveConfig(db, 'hal_discount', state.referral.halDiscount.toString());
  await referralStore.saveConfig(
    db,
    'market_makers',
    JSON.stringify([...state.referral.marketMakers].sort((a, b) => a - b)),
  );
}

/** Every account with its totals, by key (the SQL ids are the writer's, not the state's). */
function accountsOf(state: MoneyState) {
  return [...state.ledger.accounts.values()]
    .map((account) => ({ ...account, id: null }))
    .sort((a, b) => (a.mapKey < b.mapKey ? -1 : 1));
}

/** The open holds by id (a closed one stays in the state until the retry window passes it). */
function openHoldsOf(state: MoneyState) {
  return [...state.ledger.holds.entries()]
    .filter(([, hold]) => hold.state === 'open')
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The time of the latest transfer: when the edge starts the core, after the stream. */
function lastAt(state: MoneyState): number {
  let latest = 0;
  for (const transfer of state.ledger.transfers.values()) latest = Math.max(latest, transfer.timestamp);
  return latest;
}
