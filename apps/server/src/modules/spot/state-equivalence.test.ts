// One file (over 500 lines): the seeded stream, the module's side, the state's side and what is compared are one
// proof, and each part is read against the others; the shared ledger comparison is in projection/equivalence-support.ts.
import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prng } from '../../core/state/command-stream.ts';
import type { MoneyCommand, PairConfig } from '../../core/state/index.ts';
import { AppError } from '../../http/errors.ts';
import { systemAccount, type TransferInput } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { SetPriceIndex } from '../../market/test-support.ts';
import { expectLedgerEquivalent, ProjectedState } from '../../projection/equivalence-support.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import { ReferralFees } from '../referral/fees.ts';
import { referralProjection } from '../referral/projection.ts';
import {
  commissionRowsCredited,
  insertProfiledUsers,
  saveProfile,
  type TestProfile,
} from '../referral/test-support.ts';
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
 * Fees in HAL and referral commissions are in the stream too: some traders
 * pay fees in HAL (one of them soon short of it), most have an inviter and
 * a level-2 inviter, and the inviters' HAL crosses tier bounds from one UTC
 * day to the next. The module reads them from its tables and index; the
 * state is told by commands (`referralUser`, `referralSettings`,
 * `indexPrices`), and its commission rows are written by the referral
 * writer (modules/referral/projection.ts). The payout sweep runs now and then
 * (the module's by hand, the state's `referralPayout`) and once at the end:
 * the commission rows, with the transfers that credited them, must be equal
 * too.
 */

const SEED = Number(process.env.SPOT_EQUIVALENCE_SEED ?? 19_2026);
const COMMANDS = Number(process.env.SPOT_EQUIVALENCE_COMMANDS ?? 600);
const TIME_ZERO = Date.UTC(2026, 10, 26);
const EMAIL = 'trader@example.com';
const USERS = [101, 102, 103, 104, 105];
const TREASURY = systemAccount('treasury');
const DAY_MS = 24 * 60 * 60 * 1000;
/** UTC days the stream runs over: each new day fixes the inviters' tiers from the day before. */
const DAYS = 4;

/** A user's referral profile, as the module's tables and the state's `referralUser` command hold it. */

/**
 * The referral tree: 102 and 104 were invited by 101, 103 by 102, 101 and
 * 105 by 106 (who does not trade), 106 by 107 (a market maker: it earns
 * nothing). 101 and 104 share an ID number. 101, 102 and 104 pay fees in
 * HAL; 102 holds only a few HAL. Each user's HAL is the first funding's.
 */
const PROFILES: readonly (TestProfile & { hal: string })[] = [
  { userId: 101, parentId: 106, feeDeduction: true, kickbackRate: '0.05', idNumbers: ['id-1'], hal: '600' },
  { userId: 102, parentId: 101, feeDeduction: true, kickbackRate: '0.2', idNumbers: ['id-2'], hal: '3' },
  { userId: 103, parentId: 102, feeDeduction: false, kickbackRate: '0', idNumbers: [], hal: '0' },
  { userId: 104, parentId: 101, feeDeduction: true, kickbackRate: '0', idNumbers: [' ID-1 '], hal: '80' },
  { userId: 105, parentId: 106, feeDeduction: false, kickbackRate: '0', idNumbers: ['id-5'], hal: '40' },
  { userId: 106, parentId: 107, feeDeduction: false, kickbackRate: '0.1', idNumbers: [], hal: '5200' },
  { userId: 107, parentId: null, feeDeduction: false, kickbackRate: '0', idNumbers: [], hal: '100' },
];
const SETTINGS = { halDiscount: '0.2', marketMakers: [107] };
/** The index the fees are priced at: HAL moves now and then; BETA has no index price, so a fee in BETA is never paid in HAL. */
const HAL_PRICES = ['0.5', '0.45', '0.62'];

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
  | { kind: 'fund'; at: number; batch: TransferInput[] }
  | { kind: 'profile'; at: number; profile: TestProfile }
  | { kind: 'settings'; at: number }
  | { kind: 'prices'; at: number; prices: Record<string, string> }
  | { kind: 'payout'; at: number };

/** An order resting in a book, as the stream is told after each step. */
interface OpenRef {
  orderId: number;
  pair: TestPair;
  trader: Trader;
}

/** What a step answered, the same shape on both sides. */
type Answer =
  | { ok: true; orderIds: number[] }
  | { ok: true; applied: true }
  | { ok: false; error: string; params?: unknown };

/** Moves coins from the treasury to a user (or the house), or back with `withdraw`. */
function fundingOf(userId: number, at: number, amounts: Record<string, string>, withdraw = false): Step {
  const account = userId === 0 ? houseTrader(HOUSE_QUOTER).account : userTrader(userId).account;
  return {
    kind: 'fund',
    at,
    batch: Object.entries(amounts).map(([asset, amount]) => ({
      id: `equivalence:fund:${userId}:${asset}:${at}`,
      debit: withdraw ? account : TREASURY,
      credit: withdraw ? TREASURY : account,
      asset,
      amount: Dec.parse(amount),
      code: 'test_funding',
    })),
  };
}

function pricesOf(at: number, hal: string): Step {
  return { kind: 'prices', at, prices: { HAL: hal, ALFA: '101' } };
}

/**
 * The start of a new UTC day, and what moves HAL across the tier bounds:
 * on day 1, 106 moves its HAL out (tier 3 on day 1, tier 1 from day 2);
 * 101 gets 4,500 more (tier 2 on day 1, tier 3 on day 2).
 */
function dayStartOf(day: number): Step[] {
  const at = TIME_ZERO + day * DAY_MS + 1_000;
  if (day !== 1) return [];
  return [fundingOf(106, at, { HAL: '5000' }, true), fundingOf(101, at + 1, { HAL: '4500' })];
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
  yield [{ kind: 'settings', at: at++ }];
  yield [pricesOf(at++, HAL_PRICES[0]!)];
  const profiles = new Map(PROFILES.map(({ hal: _hal, ...profile }) => [profile.userId, profile]));
  for (const profile of profiles.values()) yield [{ kind: 'profile', at: at++, profile }];
  for (const userId of [...USERS, 0])
    yield [fundingOf(userId, at++, { USDT: '50000', ALFA: '300', BETA: '20000' })];
  for (const { userId, hal } of PROFILES)
    if (Dec.parse(hal).isPositive()) yield [fundingOf(userId, at++, { HAL: hal })];
  let open: readonly OpenRef[] = [];
  let day = 0;
  for (let index = 0; index < count; ) {
    at += 1 + random(1000);
    if (index >= ((day + 1) * count) / DAYS) {
      day += 1;
      at = TIME_ZERO + day * DAY_MS;
      for (const moved of dayStartOf(day)) open = yield [moved];
      at += 60_000;
    }
    const pair = PAIRS[random(PAIRS.length)]!;
    if (random(100) < 3) {
      index += 1;
      open = yield [fundingOf(anyone().userId, at, { USDT: '5000', [pair.tradcoin]: '50' })];
      continue;
    }
    if (random(100) < 2) {
      index += 1;
      open = yield [pricesOf(at, HAL_PRICES[random(HAL_PRICES.length)]!)];
      continue;
    }
    if (random(100) < 2) {
      // The referral payout sweep: the module's on its timer, the state's command from the edge.
      index += 1;
      open = yield [{ kind: 'payout', at }];
      continue;
    }
    if (random(100) < 2) {
      // A trader switches fee deduction in HAL on or off.
      index += 1;
      const profile = profiles.get(USERS[random(USERS.length)]!)!;
      const switched = { ...profile, feeDeduction: !profile.feeDeduction };
      profiles.set(switched.userId, switched);
      open = yield [{ kind: 'profile', at, profile: switched }];
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
  // A last sweep: what was accrued since the previous one is credited too.
  yield [{ kind: 'payout', at: at + 1 }];
}

// ── (a) the module ────────────────────────────────────────────────────────

class ModuleSide {
  private constructor(
    readonly h: Harness,
    private readonly markets: Map<TestPair, PairMarket>,
    private readonly referral: ReferralFees,
    private readonly index: SetPriceIndex,
  ) {}

  /**
   * The app's ledger, one PairMarket per pair whose index price the test
   * sets, and referral fees on the app's tables priced at the test's index.
   */
  static async start(): Promise<ModuleSide> {
    const h = await startHarness({ demo: false });
    const ids = await insertPairs(h.store.db);
    const index = new SetPriceIndex();
    const referral = new ReferralFees(h.store.db, h.clock, index);
    await insertProfiledUsers(h.store.db, PROFILES, TIME_ZERO, 'EQ');
    const markets = new Map<TestPair, PairMarket>();
    for (const [index, pair] of PAIRS.entries()) {
      const market = new PairMarket({
        pair: (await selectPair(h.store.db, ids[index]!))!,
        db: h.store.db,
        ledger: h.app.ledger,
        now: () => h.clock.now(),
        indexPrice: () => (pair.index === null ? null : Dec.parse(pair.index)),
        referral,
        onCommitted: () => {},
        onError: (error) => {
          throw error;
        },
      });
      await market.restore();
      markets.set(pair, market);
    }
    return new ModuleSide(h, markets, referral, index);
  }

  /**
   * One group: a deposit, a profile, the settings or prices (written where
   * the module reads them), or orders and cancels of one pair submitted
   * together (one module group).
   */
  async run(group: readonly Step[]): Promise<Answer[]> {
    this.h.clock.set(group[0]!.at);
    const first = group[0]!;
    switch (first.kind) {
      case 'fund':
        await this.h.app.ledger.execute(first.batch);
        return [{ ok: true, applied: true }];
      case 'profile':
        await saveProfile(this.h.store.db, first.profile, first.at);
        // As the referral service does after a change.
        this.referral.forget(first.profile.userId);
        return [{ ok: true, applied: true }];
      case 'settings':
        // Saved through the referral service (which writes the config rows), read back by these fees.
        await this.h.app.referral.service.saveSettings(SETTINGS);
        await this.referral.loadSettings();
        return [{ ok: true, applied: true }];
      case 'prices':
        for (const [coin, price] of Object.entries(first.prices))
          this.index.prices.set(coin, Dec.parse(price));
        return [{ ok: true, applied: true }];
      case 'payout':
        await this.h.app.referral.payCommissions();
        return [{ ok: true, applied: true }];
      default:
        break;
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
    case 'profile':
    case 'settings':
    case 'prices':
    case 'payout':
      throw new Error('not a spot command');
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

class StateSide extends ProjectedState {
  private constructor(store: Store) {
    super(store, [ledgerProjection, spotProjection, referralProjection]);
  }

  static async start(): Promise<StateSide> {
    const store = await openTestStore();
    const side = new StateSide(store);
    await insertPairs(store.db);
    await insertProfiledUsers(store.db, PROFILES, TIME_ZERO, 'EQ');
    for (const pair of PAIRS) side.apply({ kind: 'openPair', at: TIME_ZERO, pair: pairConfig(pair) });
    return side;
  }

  run(next: Step): Answer {
    const result = this.apply(this.commandOf(next));
    if (!result.ok) return result.params === undefined ? result : { ...result };
    if (!isSpotStep(next)) return { ok: true, applied: true };
    return { ok: true, orderIds: result.orders?.map((order) => order.orderId) ?? [result.order!.orderId] };
  }

  private commandOf(next: Step): MoneyCommand {
    switch (next.kind) {
      case 'fund':
        return { kind: 'transfer', at: next.at, batch: next.batch };
      case 'profile':
        return { kind: 'referralUser', at: next.at, ...next.profile };
      case 'settings':
        return { kind: 'referralSettings', at: next.at, ...SETTINGS };
      case 'prices':
        return { kind: 'indexPrices', at: next.at, prices: next.prices };
      case 'payout':
        return { kind: 'referralPayout', at: next.at };
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

  /** The orders resting in the books. */
  openOrders(): OpenRef[] {
    return [...this.state.orders.values()].map((order) => ({
      orderId: order.id,
      pair: PAIRS.find((pair) => pairConfig(pair).symbol === order.pair)!,
      trader: traderOf(order.owner),
    }));
  }
}

function isSpotStep(next: Step): boolean {
  return next.kind === 'place' || next.kind === 'cancel' || next.kind === 'cancelAll';
}

// ── what is compared ──────────────────────────────────────────────────────

function orderRows(db: Executor) {
  return db.selectFrom('spot_orders').selectAll().orderBy('autoid').execute();
}

function tradeRows(db: Executor) {
  return db.selectFrom('spot_trades').selectAll().orderBy('autoid').execute();
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
  const orders = await orderRows(a);
  expect(await orderRows(b)).toEqual(orders);
  expect(await tradeRows(b)).toEqual(trades);
  const commissions = await commissionRowsCredited(a);
  expect(await commissionRowsCredited(b)).toEqual(commissions);
  await expectLedgerEquivalent(a, b, stateSide.state, { accountTimes: true });
  // The stream must exercise what it claims to: trades, refusals, cancels, and orders resting in the books.
  expect(trades.length).toBeGreaterThan(50);
  expect(tally.refused).toBeGreaterThan(20);
  expect(tally.cancelled).toBeGreaterThan(20);
  expect(tally.cancelledByAll).toBeGreaterThan(3);
  expect(tally.mostResting).toBeGreaterThan(5);
  expectReferralCoverage(trades, commissions);
  // 102 pays in HAL from its 3 HAL until it is short: its HAL ends near zero, and some of its orders paid in coin.
  const hal = await a
    .selectFrom('ledger_accounts')
    .select(['debits_posted', 'credits_posted'])
    .where('owner', '=', '102')
    .where('wallet', '=', 'spot')
    .where('asset', '=', 'HAL')
    .executeTakeFirstOrThrow();
  expect(Dec.parse(hal.credits_posted).sub(Dec.parse(hal.debits_posted)).lt(Dec.parse('0.1'))).toBe(true);
  const paidBy102 = orders.filter((row) => row.user_id === 102);
  expect(paidBy102.some((row) => Dec.parse(String(row.fee_hal)).isPositive())).toBe(true);
  expect(paidBy102.some((row) => Dec.parse(String(row.fee)).isPositive())).toBe(true);
  await expectHealthyLedger(a);
  await expectHealthyLedger(b);
}

/** The stream must pay fees in HAL and commissions of every kind, at every tier. */
function expectReferralCoverage(
  trades: Awaited<ReturnType<typeof tradeRows>>,
  commissions: Awaited<ReturnType<typeof commissionRowsCredited>>,
): void {
  const inHal = trades.filter((trade) => trade.buyer_fee_coin === 'HAL' || trade.seller_fee_coin === 'HAL');
  expect(inHal.length).toBeGreaterThan(10);
  expect(inHal.length).toBeLessThan(trades.length);
  expect(new Set(commissions.map((row) => row.tier))).toEqual(new Set([1, 2, 3, null]));
  expect(new Set(commissions.map((row) => row.excluded))).toEqual(
    new Set([null, 'counterparty', 'sameIdentity']),
  );
  expect(commissions.some((row) => row.level2_excluded === 'house')).toBe(true);
  expect(commissions.some((row) => row.level2_id !== null && row.level2_excluded === null)).toBe(true);
  expect(commissions.some((row) => Dec.parse(String(row.kickback)).isPositive())).toBe(true);
  // Credited by several sweeps (payout batches); the last sweep left nothing pending.
  expect(commissions.every((row) => row.credited_at !== null)).toBe(true);
  expect(new Set(commissions.map((row) => row.credited_at)).size).toBeGreaterThan(2);
  expect(commissions.some((row) => row.fee_coin === 'HAL')).toBe(true);
}

describe('the money state in place of the spot SQL path', () => {
  it(`writes the rows and balances the module writes, one command a group (${COMMANDS} steps, seed ${SEED})`, async () => {
    await expectEquivalent(SEED, 1);
  });

  it(`writes the rows and balances the module writes, up to 8 commands a group (${COMMANDS} steps, seed ${SEED + 2})`, async () => {
    await expectEquivalent(SEED + 2, 8);
  });
});
