import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Published, step } from '../../core/sequencer/index.ts';
import { prng } from '../../core/state/command-stream.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
  TRANSFER_ROUTES,
  type TransferRoute,
} from '../../core/state/index.ts';
import { AppError } from '../../http/errors.ts';
import { systemAccount, type TransferInput, type UserWallet, userAccount } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { expectLedgerEquivalent } from '../../projection/equivalence-support.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import { type Harness, startHarness } from '../identity/test-support.ts';

/**
 * The proof that the money state's `walletMove` and `faucet` commands can
 * replace the SQL path of `/account/contractTransfer` (AssetsService.transfer)
 * and `/account/demoFaucet` (the faucet's grant): one seeded stream of moves
 * between a user's wallets (both routes, every wallet pair, amounts valid,
 * malformed, too precise, not positive or over the balance), faucet grants
 * into each wallet and treasury deposits is run
 *
 *   (a) through the modules on a test app, the clock set to each step's time;
 *   (b) through the money state, its events written to a fresh database by
 *       the ledger's writer (ledger/projection.ts), a few commands per
 *       transaction. These commands write no rows of their own.
 *
 * The edge stamps the ids: the test stamps on each command the id the module
 * drew (the move's answer names it; a grant's is read back from its
 * transfer). Every answer (or refusal, with its parameters), every transfer,
 * every account's totals and the state's balances must be equal.
 */

const SEED = Number(process.env.WALLET_EQUIVALENCE_SEED ?? 19_2026);
const COMMANDS = Number(process.env.WALLET_EQUIVALENCE_COMMANDS ?? 400);
const TIME_ZERO = Date.UTC(2026, 10, 26);
const USERS = [101, 102, 103, 104];
const COINS = ['USDT', 'BTC'];
const WALLETS: readonly UserWallet[] = ['spot', 'futures', 'fiat'];

type Step =
  | { kind: 'fund'; at: number; batch: TransferInput[] }
  | { kind: 'faucet'; at: number; userId: number; wallet: UserWallet }
  | {
      kind: 'move';
      at: number;
      userId: number;
      route: TransferRoute;
      coin: string;
      amount: string;
      from: UserWallet;
      to: UserWallet;
    };

type Answer = { ok: true; transfers: string[] } | { ok: false; error: string; params?: unknown };

function* stream(seed: number, count: number): Generator<Step> {
  const random = prng(seed);
  const pick = <T>(from: readonly T[]): T => from[random(from.length)]!;
  let at = TIME_ZERO;
  for (const userId of USERS)
    yield {
      kind: 'fund',
      at: at++,
      batch: COINS.map((asset) => ({
        id: `equivalence:fund:${userId}:${asset}`,
        debit: systemAccount('treasury'),
        credit: userAccount(userId, 'spot'),
        asset,
        amount: Dec.parse(asset === 'BTC' ? '2' : '5000'),
        code: 'test_funding',
      })),
    };
  for (let index = 0; index < count; index++) {
    at += 1 + random(1000);
    const userId = pick(USERS);
    if (random(100) < 10) {
      yield { kind: 'faucet', at, userId, wallet: pick(WALLETS) };
      continue;
    }
    const route = pick(Object.keys(TRANSFER_ROUTES) as TransferRoute[]);
    // Mostly along the route, either way; now and then the same wallet twice or a wallet off the route.
    const [first, second] = random(100) < 8 ? [pick(WALLETS), pick(WALLETS)] : TRANSFER_ROUTES[route];
    const [from, to] = random(2) === 0 ? [first, second] : [second, first];
    const coin = pick(COINS);
    yield { kind: 'move', at, userId, route, coin, amount: amountOf(random, coin), from, to };
  }
}

/** Mostly a fair share of a balance; sometimes more than anyone holds, zero, negative, too precise or not a number. */
function amountOf(random: (below: number) => number, coin: string): string {
  const roll = random(100);
  if (roll < 4) return '0';
  if (roll < 7) return '-1';
  if (roll < 10) return 'abc';
  if (roll < 13) return '0.0000000000000000001';
  if (roll < 20) return coin === 'BTC' ? '50' : '900000';
  return coin === 'BTC' ? (random(5000) / 10_000 + 0.0001).toFixed(4) : (1 + random(3000)).toString();
}

// ── (a) the modules ───────────────────────────────────────────────────────

async function runModule(h: Harness, next: Step): Promise<Answer> {
  h.clock.set(next.at);
  try {
    switch (next.kind) {
      case 'fund':
        return { ok: true, transfers: (await h.app.ledger.execute(next.batch)).map((t) => t.id) };
      case 'faucet':
        await h.app.faucet.grant(next.userId, next.wallet);
        return { ok: true, transfers: await lastFaucetIds(h.store.db) };
      case 'move': {
        const { userId, route, ...input } = next;
        const moved = await h.app.wallet.assets.transfer(userId, route, input);
        return { ok: true, transfers: [moved.id!] };
      }
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return Object.keys(error.params).length === 0
      ? { ok: false, error: error.key }
      : { ok: false, error: error.key, params: error.params };
  }
}

/** The latest grant's transfer ids (`faucet:<uuid>:<coin>`), in the grant's order. */
async function lastFaucetIds(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('ledger_transfers')
    .select('id')
    .where('code', '=', 'demo_faucet')
    .orderBy('seq', 'desc')
    .limit(2)
    .execute();
  return rows.map((row) => row.id).reverse();
}

// ── (b) the money state and the ledger's writer ──────────────────────────

class StateSide {
  private readonly machine = moneyMachine();
  readonly state: MoneyState = this.machine.initialState();
  private seq = 0;
  private unwritten: Published<MoneyEvent>[] = [];
  private readonly writer;

  constructor(readonly store: Store) {
    this.writer = ledgerProjection.create(store.dialect);
  }

  /** The step as the edge submits it, with the ids the module drew stamped on. */
  run(next: Step, moduleAnswer: Answer): Answer {
    const result = this.apply(commandOf(next, moduleAnswer));
    if (!result.ok) return result.params === undefined ? result : { ...result };
    return { ok: true, transfers: result.transfers ?? [] };
  }

  private apply(command: MoneyCommand): MoneyResult {
    this.seq += 1;
    const { result, events } = step(this.machine, this.state, command, this.seq);
    this.unwritten.push({ seq: this.seq, events });
    return result;
  }

  /** What the commands since the last write published, in one transaction, as the events reach a worker. */
  async write(): Promise<void> {
    const published = this.unwritten;
    this.unwritten = [];
    if (published.length === 0) return;
    const crossed = published.map(({ seq, events }) => ({
      seq,
      events: structuredClone(
        // The ledger's spec packs its events (ledger/projection.ts).
        events.filter(ledgerProjection.reads).map(ledgerProjection.pack!),
      ).map(ledgerProjection.revive),
    }));
    await this.store.db.transaction().execute((trx) => this.writer.write(trx, crossed));
  }
}

/** A refused move drew an id the module never used: any id does, the state refuses before it. */
function commandOf(next: Step, moduleAnswer: Answer): MoneyCommand {
  const ids = moduleAnswer.ok ? moduleAnswer.transfers : [];
  switch (next.kind) {
    case 'fund':
      return { kind: 'transfer', at: next.at, batch: next.batch };
    case 'faucet': {
      const grantId = /^faucet:(.+):USDT$/.exec(ids[0] ?? '')?.[1] ?? 'refused';
      return { kind: 'faucet', at: next.at, grantId, userId: next.userId, wallet: next.wallet };
    }
    case 'move':
      return { ...next, kind: 'walletMove', transferId: ids[0] ?? 'transfer:refused' };
  }
}

// ── what is compared ──────────────────────────────────────────────────────

// ── the test ──────────────────────────────────────────────────────────────

let h: Harness;
let stateSide: StateSide;

beforeEach(async () => {
  h = await startHarness({ demo: false });
  stateSide = new StateSide(await openTestStore());
});

afterEach(async () => {
  await h.close();
  await stateSide.store.close();
});

describe('the money state in place of the wallet moves and the faucet', () => {
  it(`writes the transfers and balances the modules write (${COMMANDS} steps, seed ${SEED})`, async () => {
    const writeEvery = prng(SEED + 1);
    const refusals = new Map<string, number>();
    let moved = 0;
    let granted = 0;
    for (const next of stream(SEED, COMMANDS)) {
      const fromModule = await runModule(h, next);
      expect(stateSide.run(next, fromModule), JSON.stringify(next)).toEqual(fromModule);
      if (!fromModule.ok) refusals.set(fromModule.error, (refusals.get(fromModule.error) ?? 0) + 1);
      else if (next.kind === 'move') moved += 1;
      else if (next.kind === 'faucet') granted += 1;
      if (writeEvery(4) === 0) await stateSide.write();
    }
    await stateSide.write();

    const [a, b] = [h.store.db, stateSide.store.db];
    await expectLedgerEquivalent(a, b, stateSide.state, { accountTimes: false });
    // The stream must exercise what it claims to: moves both ways, grants, and each kind of refusal.
    expect(moved).toBeGreaterThan(150);
    expect(granted).toBeGreaterThan(20);
    for (const key of ['wallet.sameWallet', 'rules.insufficientBalance', 'rules.amountNotPositive'])
      expect(refusals.get(key) ?? 0, key).toBeGreaterThan(3);
    await expectHealthyLedger(a);
    await expectHealthyLedger(b);
  });
});
