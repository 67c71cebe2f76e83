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
  type PairConfig,
} from '../../core/state/index.ts';
import { AppError } from '../../http/errors.ts';
import { ownerColumn } from '../../ledger/accounts.ts';
import { systemAccount, type TransferInput } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/index.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import { PairMarket, type SpotCommand } from './pair-market.ts';
import { spotProjection } from './projection.ts';
import { insertPair, selectPair } from './store.ts';
import { type Harness, startHarness } from './test-support.ts';
import { HOUSE_QUOTER, houseTrader, type Trader, traderOf, userTrader } from './trader.ts';

/**
 * The proof that the money state can replace modules/spot's SQL path: one
 * seeded stream of spot orders and cancels (several users and the house,
 * two pairs, limit and market, crossing and resting, some refused, deposits
 * between them) is run
 *
 *   (a) through the module as it is: PairMarket on a test app, one command
 *       per group, the clock set to each command's time;
 *   (b) through the money state (the sequencer's machine, applied in order)
 *       and its events written to a fresh database by the projector's
 *       writers: the ledger's (ledger/projection.ts) and the spot rows'
 *       (projection.ts), a few commands per transaction.
 *
 * Every command must get the same answer (the order's id, or the same
 * refusal with the same parameters), and at the end the order rows, the
 * trade rows, the ledger transfers and every account's totals must be equal,
 * ids included: both sides number orders from 1 and give a refused order no
 * id, and the store numbers trades in the order both write them. The state
 * in memory must hold the balances the module's SQL holds.
 *
 * The traders have no fee deduction in HAL and no inviter: those are the
 * module's alone for now (docs/core.md, "Spot in the state").
 */

const SEED = Number(process.env.SPOT_EQUIVALENCE_SEED ?? 19_2026);
const COMMANDS = Number(process.env.SPOT_EQUIVALENCE_COMMANDS ?? 600);
const TIME_ZERO = Date.UTC(2026, 10, 26);
const EMAIL = 'trader@example.com';
const USERS = [101, 102, 103, 104, 105];
const TREASURY = systemAccount('treasury');

/**
 * Two pairs of different precisions. ALFA has no index price, so a market
 * buy waits for its first trade; BETA has one, which the module reads from
 * its index and the state from the command, until BETA's first trade.
 */
const PAIRS = [
  {
    tradcoin: 'ALFA',
    maincoin: 'USDT',
    price: 100,
    index: null,
    priceAccuracy: 2,
    amountAccuracy: 4,
    min: '0.001',
  },
  {
    tradcoin: 'BETA',
    maincoin: 'USDT',
    price: 2.5,
    index: '2.4',
    priceAccuracy: 4,
    amountAccuracy: 2,
    min: '1',
  },
] as const;
type TestPair = (typeof PAIRS)[number];

function pairConfig(pair: TestPair): PairConfig {
  return {
    symbol: `${pair.tradcoin}/${pair.maincoin}`,
    tradcoin: pair.tradcoin,
    maincoin: pair.maincoin,
    priceAccuracy: pair.priceAccuracy,
    amountAccuracy: pair.amountAccuracy,
    minNumber: pair.min,
    maxNumber: '100000',
    makerFee: '0.001',
    takerFee: '0.002',
  };
}

async function insertPairs(db: Executor): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, pair] of PAIRS.entries()) {
    const config = pairConfig(pair);
    ids.push(
      await insertPair(db, {
        tradcoin: config.tradcoin,
        maincoin: config.maincoin,
        price_accuracy: config.priceAccuracy,
        amount_accuracy: config.amountAccuracy,
        minnumber: config.minNumber,
        maxnumber: config.maxNumber,
        state: 1,
        plate: 0,
        unit: config.tradcoin,
        maker_fee: config.makerFee,
        taker_fee: config.takerFee,
        introduction: '',
        sort: index,
      }),
    );
  }
  return ids;
}

// ── the stream ────────────────────────────────────────────────────────────

type Step =
  | {
      kind: 'place';
      at: number;
      pair: TestPair;
      trader: Trader;
      email: string | null;
      side: 'buy' | 'sell';
      style: 'limit' | 'market';
      price?: string;
      amount: string;
    }
  | { kind: 'cancel'; at: number; pair: TestPair; trader: Trader; orderId: number }
  | { kind: 'cancelAll'; at: number; pair: TestPair; trader: Trader }
  | { kind: 'fund'; at: number; batch: TransferInput[] };

/** An order resting in a book, as the stream is told after each step. */
interface OpenRef {
  orderId: number;
  pair: TestPair;
  trader: Trader;
}

/** What a step answered, the same shape on both sides. */
type Answer =
  | { ok: true; orderIds: number[] }
  | { ok: true; funded: true }
  | { ok: false; error: string; params?: unknown };

function fundingOf(userId: number, at: number, amounts: Record<string, string>): Step {
  const account = userId === 0 ? houseTrader(HOUSE_QUOTER).account : userTrader(userId).account;
  return {
    kind: 'fund',
    at,
    batch: Object.entries(amounts).map(([asset, amount]) => ({
      id: `equivalence:fund:${userId}:${asset}:${at}`,
      debit: TREASURY,
      credit: account,
      asset,
      amount: Dec.parse(amount),
      code: 'test_funding',
    })),
  };
}

/**
 * The seeded steps, in groups: one step a group, or (`groupMax` > 1) up to
 * that many orders and cancels of one pair at one time, which the module
 * commits in one group (a deposit is always a group of its own). Prices sit a
 * few ticks around each pair's level, so about half the limit orders cross;
 * amounts now and then fall under the minimum, carry too many decimals or
 * exceed the balance; a few orders come without an email; cancels pick an
 * open order (sometimes as another user) or an id that is not open.
 */
function* stream(seed: number, count: number, groupMax: number): Generator<Step[], void, readonly OpenRef[]> {
  const random = prng(seed);
  const chance = (percent: number) => random(100) < percent;
  const anyone = () => {
    const who = random(USERS.length + 1);
    return who === USERS.length ? houseTrader(HOUSE_QUOTER) : userTrader(USERS[who]!);
  };
  let at = TIME_ZERO;
  for (const userId of [...USERS, 0])
    yield [fundingOf(userId, at++, { USDT: '50000', ALFA: '300', BETA: '20000' })];
  let open: readonly OpenRef[] = [];
  for (let index = 0; index < count; ) {
    at += 1 + random(1000);
    const pair = PAIRS[random(PAIRS.length)]!;
    if (random(100) < 3) {
      index += 1;
      open = yield [fundingOf(anyone().userId, at, { USDT: '5000', [pair.tradcoin]: '50' })];
      continue;
    }
    const group: Step[] = [];
    const size = 1 + random(groupMax);
    const openHere = open.filter((order) => order.pair === pair);
    for (; group.length < size && index < count; index++) {
      const trader = anyone();
      if (random(100) < 2) {
        group.push({ kind: 'cancelAll', at, pair, trader });
        continue;
      }
      if (random(100) < 26 && openHere.length > 0) {
        // Mostly an open order by its owner; else another user's, or an id that is not open in that pair.
        const target = openHere[random(openHere.length)]!;
        const mine = chance(85);
        const orderId = mine || chance(50) ? target.orderId : 1 + random(index + 5);
        group.push({ kind: 'cancel', at, pair, trader: mine ? target.trader : trader, orderId });
        continue;
      }
      const side = chance(50) ? 'buy' : 'sell';
      const style = chance(80) ? 'limit' : 'market';
      const unit = 10 ** -pair.amountAccuracy;
      const base = pair.tradcoin === 'ALFA' ? 0.01 + random(300) / 100 : 1 + random(400);
      let amount = (Math.round(base / unit) * unit).toFixed(pair.amountAccuracy);
      if (chance(4)) amount = (Number(pair.min) / 2).toString();
      if (chance(3)) amount = `${amount}${'7'.repeat(3)}1`;
      if (chance(3)) amount = pair.tradcoin === 'ALFA' ? '900' : '90000';
      const tick = 10 ** -pair.priceAccuracy;
      const offset = random(9) - 4 + (side === 'buy' ? -1 : 1);
      let price = (pair.price + offset * tick * (pair.tradcoin === 'ALFA' ? 10 : 100)).toFixed(
        pair.priceAccuracy,
      );
      if (chance(3)) price = `${price}3`;
      const email = chance(3) ? null : trader.userId === 0 ? 'market-maker@halyard.local' : EMAIL;
      group.push({
        kind: 'place',
        at,
        pair,
        trader,
        email,
        side,
        style,
        ...(style === 'limit' ? { price } : {}),
        amount,
      });
    }
    open = yield group;
  }
}

// ── (a) the module ────────────────────────────────────────────────────────

class ModuleSide {
  private constructor(
    readonly h: Harness,
    private readonly markets: Map<TestPair, PairMarket>,
  ) {}

  /** The app's ledger and referral fees, and one PairMarket per pair whose index price the test sets. */
  static async start(): Promise<ModuleSide> {
    const h = await startHarness({ demo: false });
    const ids = await insertPairs(h.store.db);
    const markets = new Map<TestPair, PairMarket>();
    for (const [index, pair] of PAIRS.entries()) {
      const market = new PairMarket({
        pair: (await selectPair(h.store.db, ids[index]!))!,
        db: h.store.db,
        ledger: h.app.ledger,
        now: () => h.clock.now(),
        indexPrice: () => (pair.index === null ? null : Dec.parse(pair.index)),
        referral: h.app.referral.service.fees,
        onCommitted: () => {},
        onError: (error) => {
          throw error;
        },
      });
      await market.restore();
      markets.set(pair, market);
    }
    return new ModuleSide(h, markets);
  }

  /** One group: a deposit, or orders and cancels of one pair submitted together (one module group). */
  async run(group: readonly Step[]): Promise<Answer[]> {
    this.h.clock.set(group[0]!.at);
    const first = group[0]!;
    if (first.kind === 'fund') {
      await this.h.app.ledger.execute(first.batch);
      return [{ ok: true, funded: true }];
    }
    const market = this.markets.get(first.pair)!;
    const outcomes = await Promise.allSettled(group.map((next) => market.submit(commandOf(next))));
    return outcomes.map((outcome) => {
      if (outcome.status === 'fulfilled')
        return { ok: true, orderIds: outcome.value.orders.map((order) => order.autoid) };
      const error: unknown = outcome.reason;
      if (!(error instanceof AppError)) throw error;
      return Object.keys(error.params).length === 0
        ? { ok: false, error: error.key }
        : { ok: false, error: error.key, params: error.params };
    });
  }
}

function commandOf(next: Step): SpotCommand {
  switch (next.kind) {
    case 'fund':
      throw new Error('a deposit is not a spot command');
    case 'cancel':
      return { kind: 'cancel', trader: next.trader, autoid: next.orderId };
    case 'cancelAll':
      return { kind: 'cancelAll', trader: next.trader };
    case 'place':
      return {
        kind: 'place',
        trader: next.trader,
        email: next.email,
        side: next.side,
        style: next.style,
        price: next.price,
        amount: next.amount,
      };
  }
}

// ── (b) the money state and the writers ──────────────────────────────────

class StateSide {
  private readonly machine = moneyMachine();
  readonly state: MoneyState = this.machine.initialState();
  private seq = 0;
  private unwritten: Published<MoneyEvent>[] = [];
  private readonly writers: {
    spec: ProjectionWriterSpec<MoneyEvent>;
    writer: ProjectionWriter<MoneyEvent>;
  }[];

  private constructor(readonly store: Store) {
    this.writers = [ledgerProjection, spotProjection].map((spec) => ({
      spec,
      writer: spec.create(store.dialect),
    }));
  }

  static async start(): Promise<StateSide> {
    const store = await openTestStore();
    const side = new StateSide(store);
    await insertPairs(store.db);
    for (const pair of PAIRS) side.apply({ kind: 'openPair', at: TIME_ZERO, pair: pairConfig(pair) });
    return side;
  }

  run(next: Step): Answer {
    const result = this.apply(this.commandOf(next));
    if (!result.ok) return result.params === undefined ? result : { ...result };
    if (next.kind === 'fund') return { ok: true, funded: true };
    return { ok: true, orderIds: result.orders?.map((order) => order.orderId) ?? [result.order!.orderId] };
  }

  private commandOf(next: Step): MoneyCommand {
    switch (next.kind) {
      case 'fund':
        return { kind: 'transfer', at: next.at, batch: next.batch };
      case 'cancel':
        return {
          kind: 'cancel',
          at: next.at,
          pair: pairConfig(next.pair).symbol,
          owner: next.trader.owner,
          orderId: next.orderId,
        };
      case 'cancelAll':
        return {
          kind: 'cancelAll',
          at: next.at,
          pair: pairConfig(next.pair).symbol,
          owner: next.trader.owner,
        };
      case 'place':
        return {
          kind: 'place',
          at: next.at,
          pair: pairConfig(next.pair).symbol,
          owner: next.trader.owner,
          account: next.trader.account,
          email: next.email,
          side: next.side,
          style: next.style,
          ...(next.price === undefined ? {} : { price: next.price }),
          amount: next.amount,
          // The edge stamps the index price it knows on every order.
          ...(next.pair.index === null ? {} : { indexPrice: next.pair.index }),
        };
    }
  }

  private apply(command: MoneyCommand): MoneyResult {
    this.seq += 1;
    const { result, events } = step(this.machine, this.state, command, this.seq);
    this.unwritten.push({ seq: this.seq, events });
    return result;
  }

  /** The orders resting in the books. */
  openOrders(): OpenRef[] {
    return [...this.state.orders.values()].map((order) => ({
      orderId: order.id,
      pair: PAIRS.find((pair) => pairConfig(pair).symbol === order.pair)!,
      trader: traderOf(order.owner),
    }));
  }

  /**
   * Writes what the commands since the last write published, in one
   * transaction, through both writers, each given the events it reads as they
   * reach a worker: structured-cloned, then revived. (The projector's
   * watermarks and threads are its own tests' business.)
   */
  async write(): Promise<void> {
    const published = this.unwritten;
    this.unwritten = [];
    if (published.length === 0) return;
    await this.store.db.transaction().execute(async (trx) => {
      for (const { spec, writer } of this.writers) {
        const crossed = published.map(({ seq, events }) => ({
          seq,
          events: structuredClone(events.filter(spec.reads)).map(spec.revive),
        }));
        await writer.write(trx, crossed);
      }
    });
  }
}

// ── what is compared ──────────────────────────────────────────────────────

function orderRows(db: Executor) {
  return db.selectFrom('spot_orders').selectAll().orderBy('autoid').execute();
}

function tradeRows(db: Executor) {
  return db.selectFrom('spot_trades').selectAll().orderBy('autoid').execute();
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

function accountRows(db: Executor) {
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
      'created_at',
    ])
    .orderBy('owner')
    .orderBy('wallet')
    .orderBy('asset')
    .execute();
}

/** An account's four totals, normalised (the SQL text of a NUMERIC is not Dec's). */
type Totals = Record<string, [string, string, string, string]>;

function totalsOfRows(rows: Awaited<ReturnType<typeof accountRows>>): Totals {
  const totals: Totals = {};
  for (const row of rows) {
    const n = (value: string) => Dec.parse(value).toString();
    totals[`${row.owner}:${row.wallet}:${row.asset}`] = [
      n(row.debits_posted),
      n(row.credits_posted),
      n(row.debits_pending),
      n(row.credits_pending),
    ];
  }
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

// ── the test ──────────────────────────────────────────────────────────────

let moduleSide: ModuleSide;
let stateSide: StateSide;

beforeEach(async () => {
  moduleSide = await ModuleSide.start();
  stateSide = await StateSide.start();
});

afterEach(async () => {
  await moduleSide.h.close();
  await stateSide.store.close();
});

/**
 * Runs the stream through both sides, comparing every answer, then compares
 * what both databases and the state hold.
 */
async function expectEquivalent(seed: number, groupMax: number): Promise<void> {
  const writeEvery = prng(seed + 1);
  const tally = { placed: 0, refused: 0, cancelled: 0, cancelledByAll: 0, mostResting: 0 };
  const steps = stream(seed, COMMANDS, groupMax);
  let next = steps.next([]);
  while (!next.done) {
    const group = next.value;
    const fromModule = await moduleSide.run(group);
    group.forEach((one, index) => {
      const fromState = stateSide.run(one);
      expect(fromState, JSON.stringify(one)).toEqual(fromModule[index]);
      if (!fromState.ok) tally.refused += 1;
      else if ('orderIds' in fromState) {
        const counted =
          one.kind === 'place' ? 'placed' : one.kind === 'cancel' ? 'cancelled' : 'cancelledByAll';
        tally[counted] += fromState.orderIds.length;
      }
    });
    if (writeEvery(4) === 0) await stateSide.write();
    const open = stateSide.openOrders();
    tally.mostResting = Math.max(tally.mostResting, open.length);
    next = steps.next(open);
  }
  await stateSide.write();

  const [a, b] = [moduleSide.h.store.db, stateSide.store.db];
  const trades = await tradeRows(a);
  expect(await orderRows(b)).toEqual(await orderRows(a));
  expect(await tradeRows(b)).toEqual(trades);
  expect(await transferRows(b)).toEqual(await transferRows(a));
  const moduleAccounts = await accountRows(a);
  expect(await accountRows(b)).toEqual(moduleAccounts);
  const moduleTotals = totalsOfRows(moduleAccounts);
  expect(totalsOfState(stateSide.state)).toEqual(moduleTotals);
  // The stream must exercise what it claims to: trades, refusals, cancels, and orders resting in the books.
  expect(trades.length).toBeGreaterThan(50);
  expect(tally.refused).toBeGreaterThan(20);
  expect(tally.cancelled).toBeGreaterThan(20);
  expect(tally.cancelledByAll).toBeGreaterThan(3);
  expect(tally.mostResting).toBeGreaterThan(5);
  await expectHealthyLedger(a);
  await expectHealthyLedger(b);
}

describe('the money state in place of the spot SQL path', () => {
  it(`writes the rows and balances the module writes, one command a group (${COMMANDS} steps, seed ${SEED})`, async () => {
    await expectEquivalent(SEED, 1);
  });

  it(`writes the rows and balances the module writes, up to 8 commands a group (${COMMANDS} steps, seed ${SEED + 2})`, async () => {
    await expectEquivalent(SEED + 2, 8);
  });
});
