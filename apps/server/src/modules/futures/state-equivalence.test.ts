// One file (over 500 lines): the seeded stream, the engine's side, the state's side and what is compared are one
// proof, each part read against the others; the shared ledger comparison is in projection/equivalence-support.ts.
import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prng } from '../../core/state/command-stream.ts';
import type { ContractRow } from '../../core/state/futures-rows.ts';
import { futuresContent } from '../../core/state/futures-snapshot.ts';
import { type MoneyCommand, moneyMachine } from '../../core/state/index.ts';
import { AppError } from '../../http/errors.ts';
import { systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
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
import { markCommandOf, moneyCommandOf } from './core-futures.ts';
import {
  type CommandResult,
  type FuturesCommand,
  FuturesEngine,
  HOUSE_TAKER_TRADER,
  HOUSE_TRADER,
  userTrader,
} from './engine.ts';
import { fundingSlot } from './funding.ts';
import { futuresProjection } from './projection.ts';
import { loadFuturesState } from './state-from-sql.ts';
import { insertContract, selectContracts } from './store.ts';
import { type Harness, startHarness } from './test-support.ts';

/**
 * The proof that the money state can replace the futures engine's SQL path
 * for orders: one seeded stream of opening orders (users and the house's
 * quotes and crossings, two contracts, limit and market, cross and
 * isolated, some with TP/SL, some refused for each rule the checks decide),
 * closes, cancels, marks and fundings of wallets is run
 *
 *   (a) through the engine as it runs (FuturesEngine on a test app's
 *       database and ledger, one command per group, the clock set to each
 *       command's time), and
 *   (b) through the money state (the sequencer's machine, applied in order)
 *       and its events written to a fresh database by the ledger's, the
 *       futures' (projection.ts) and the referral writers, a few commands
 *       per transaction.
 *
 * Every command must get the same answer (the ids of the orders, positions
 * and triggers it answers, or the same refusal with the same parameters);
 * at the end the order, position, trigger and trade rows, the commission
 * rows, the ledger transfers and every account's totals must be equal, ids
 * included, and the state in memory must hold the balances SQL holds.
 *
 * Fees in HAL and commissions are in the stream: some traders pay their
 * fees in HAL (one soon short of it), most have an inviter. Marks are index
 * ticks: the engine's `applyMark` (a risk pass per contract of the coin) and
 * the state's `futuresMark`, so TP/SL triggers fire, isolated positions and
 * cross accounts are liquidated, and funding rounds are paid when the stream
 * jumps 8 hours. TP/SL orders are set, edited and cancelled on positions.
 */

const SEED = Number(process.env.FUTURES_EQUIVALENCE_SEED ?? 19_2027);
const COMMANDS = Number(process.env.FUTURES_EQUIVALENCE_COMMANDS ?? 600);
const TIME_ZERO = Date.UTC(2026, 10, 26);
/** Each run's bound: on PostgreSQL beside other work a run takes 20-45 s, past the suite's 30 s default. */
const TIME_BOUND_MS = 180_000;
const FUNDING_INTERVAL_MS = 8 * 60 * 60 * 1000;
const USERS = [201, 202, 203, 204, 205];
/** The trader whose cross account the stream liquidates. */
const RISKY = 205;
const TREASURY = systemAccount('treasury');

/** 202 and 204 invited by 201, 203 by 202, 201 and 205 by 206 (who does not trade). 201, 202, 204 pay fees in HAL; 202 holds little. */
const PROFILES: readonly (TestProfile & { hal: string })[] = [
  { userId: 201, parentId: 206, feeDeduction: true, kickbackRate: '0.05', idNumbers: ['id-1'], hal: '900' },
  { userId: 202, parentId: 201, feeDeduction: true, kickbackRate: '0.2', idNumbers: ['id-2'], hal: '2' },
  { userId: 203, parentId: 202, feeDeduction: false, kickbackRate: '0', idNumbers: [], hal: '0' },
  { userId: 204, parentId: 201, feeDeduction: true, kickbackRate: '0', idNumbers: [' ID-1 '], hal: '300' },
  { userId: 205, parentId: 206, feeDeduction: false, kickbackRate: '0', idNumbers: ['id-5'], hal: '0' },
  { userId: 206, parentId: null, feeDeduction: false, kickbackRate: '0.1', idNumbers: [], hal: '5200' },
];
const SETTINGS = { halDiscount: '0.2', marketMakers: [] as number[] };
const HAL_PRICES = ['0.5', '0.45', '0.62'];

/** Two contracts of different lots and ticks, each with a price level the stream moves its mark around. */
const CONTRACTS = [
  { coin: 'BTC', unit: '0.001', priceAccuracy: 2, level: 60_000, step: 5, maintenance: '0.005' },
  { coin: 'ETH', unit: '0.01', priceAccuracy: 2, level: 3_000, step: 0.5, maintenance: '0.01' },
] as const;
type TestContract = (typeof CONTRACTS)[number];
const LEVERS = [1, 2, 5, 10, 20, 50];

function contractFields(contract: TestContract, index: number): Omit<ContractRow, 'autoid'> {
  return {
    tradcoin: contract.coin,
    maincoin: 'USDT',
    chinaname: `${contract.coin} perpetual`,
    symbol: `${contract.coin}/USDT`,
    unit: contract.unit,
    minnumber: '1',
    maxnumber: '500',
    max_lever: 50,
    levers: JSON.stringify(LEVERS),
    gas: '0.0005',
    price_accuracy: contract.priceAccuracy,
    initial_margin_rate: '0.02',
    maintenance_margin_rate: contract.maintenance,
    state: 1,
    plate: 0,
    sort: index,
  };
}

async function insertContracts(db: Executor): Promise<ContractRow[]> {
  for (const [index, contract] of CONTRACTS.entries())
    await insertContract(db, contractFields(contract, index));
  return selectContracts(db);
}

// ── the stream ────────────────────────────────────────────────────────────

type Trader = ReturnType<typeof userTrader>;

type Step =
  | { kind: 'command'; at: number; command: FuturesCommand }
  | { kind: 'fund'; at: number; batch: TransferInput[] }
  | { kind: 'mark'; at: number; coin: string; price: string }
  | { kind: 'profile'; at: number; profile: TestProfile }
  | { kind: 'settings'; at: number }
  | { kind: 'prices'; at: number; prices: Record<string, string> }
  | { kind: 'payout'; at: number };

/** What the stream is told after each step: the open orders and positions, from the state. */
interface Seen {
  orders: { autoid: number; owner: string }[];
  positions: { autoid: number; userId: number; number: string; long: boolean }[];
  triggers: { autoid: number; userId: number; positionId: number }[];
}

type Answer =
  | { ok: true; orders: number[]; positions: number[]; triggers: number[] }
  | { ok: true; applied: true }
  | { ok: false; error: string; params?: unknown };

function fundingOf(at: number, to: ReturnType<typeof userAccount>, asset: string, amount: string): Step {
  const owner = typeof to.owner === 'number' ? to.owner : 'system';
  return {
    kind: 'fund',
    at,
    batch: [
      {
        id: `equivalence:fund:${owner}:${to.wallet}:${asset}:${at}`,
        debit: TREASURY,
        credit: to,
        asset,
        amount: Dec.parse(amount),
        code: 'test_funding',
      },
    ],
  };
}

function priceText(contract: TestContract, offsetSteps: number, level: number): string {
  return (level + offsetSteps * contract.step).toFixed(contract.priceAccuracy);
}

/**
 * The seeded steps: the setup (settings, prices, profiles, wallets, the
 * house's and the insurance fund's money, the marks), then orders, closes
 * and cancels with now and then a funding, a mark or index price moving, or
 * a trader switching fee deduction. The house quotes a few levels around
 * each mark and now and then crosses; users' limit orders sit around the
 * same levels, so many cross.
 */
function* stream(seed: number, count: number): Generator<Step, void, Seen> {
  const random = prng(seed);
  const chance = (percent: number) => random(100) < percent;
  let at = TIME_ZERO;
  yield { kind: 'settings', at: at++ };
  yield { kind: 'prices', at: at++, prices: { HAL: HAL_PRICES[0]! } };
  const profiles = new Map(PROFILES.map(({ hal: _hal, ...profile }) => [profile.userId, profile]));
  for (const profile of profiles.values()) yield { kind: 'profile', at: at++, profile };
  // 205 trades big at 50× in cross from a small wallet: a move of a few percent liquidates the account.
  for (const userId of USERS)
    yield fundingOf(at++, userAccount(userId, 'futures'), 'USDT', userId === RISKY ? '1500' : '20000');
  for (const { userId, hal } of PROFILES)
    if (Dec.parse(hal).isPositive()) yield fundingOf(at++, userAccount(userId, 'spot'), 'HAL', hal);
  yield fundingOf(at++, systemAccount('market_maker'), 'USDT', '5000000');
  yield fundingOf(at++, systemAccount('insurance'), 'USDT', '1000000');
  const levels = new Map<TestContract, number>(CONTRACTS.map((contract) => [contract, contract.level]));
  for (const contract of CONTRACTS)
    yield { kind: 'mark', at: at++, coin: contract.coin, price: priceText(contract, 0, contract.level) };
  // A scripted start, so every run liquidates both kinds and pays a funding round: the risky trader buys
  // 400 lots at 50× in cross and 201 buys 20 at 50× isolated, from the house; the mark drops 6 % (both are
  // liquidated) and comes back; the house bids low, so the book's mid is under the mark, and 8 hours on a
  // mark pays the round.
  const btc = CONTRACTS[0];
  const quote = { price: priceText(btc, 1, btc.level) };
  yield { kind: 'command', at: at++, command: open(HOUSE_TRADER, 1, 'sell', 'limit', '450', 50, quote) };
  yield { kind: 'command', at: at++, command: open(userTrader(RISKY), 1, 'buy', 'market', '400', 50) };
  const isolated = { tdMode: 'lsolate' as const };
  yield { kind: 'command', at: at++, command: open(userTrader(201), 1, 'buy', 'market', '20', 50, isolated) };
  yield { kind: 'mark', at: at++, coin: btc.coin, price: priceText(btc, 0, btc.level * 0.94) };
  yield { kind: 'mark', at: at++, coin: btc.coin, price: priceText(btc, 0, btc.level) };
  const bid = { price: priceText(btc, -10, btc.level) };
  yield { kind: 'command', at: at++, command: open(HOUSE_TRADER, 1, 'buy', 'limit', '10', 50, bid) };
  at += FUNDING_INTERVAL_MS;
  yield { kind: 'mark', at: at++, coin: btc.coin, price: priceText(btc, 0, btc.level) };
  let seen: Seen = yield { kind: 'prices', at: at++, prices: { HAL: HAL_PRICES[0]! } };
  for (let index = 0; index < count; index++) {
    at += 1 + random(5_000);
    const contractIndex = random(CONTRACTS.length);
    const contract = CONTRACTS[contractIndex]!;
    const contractId = contractIndex + 1;
    const level = levels.get(contract)!;
    const roll = random(100);
    if (roll < 3) {
      const user = USERS[random(USERS.length)]!;
      seen = yield fundingOf(at, userAccount(user, 'futures'), 'USDT', '3000');
    } else if (roll < 5) {
      // New index prices, or the referral payout sweep (the engine's by hand, the state's command).
      seen = chance(50)
        ? yield { kind: 'payout', at }
        : yield { kind: 'prices', at, prices: { HAL: HAL_PRICES[random(HAL_PRICES.length)]! } };
    } else if (roll < 7) {
      const profile = profiles.get(USERS[random(USERS.length)]!)!;
      const switched = { ...profile, feeDeduction: !profile.feeDeduction };
      profiles.set(switched.userId, switched);
      seen = yield { kind: 'profile', at, profile: switched };
    } else if (roll < 11) {
      // Mostly a few ticks; now and then a jump of 2-5 % (liquidations, TP/SL), or 8 hours on (a funding round).
      const jump = chance(20)
        ? (chance(50) ? 1 : -1) * (level / contract.step) * (0.02 + random(4) / 100)
        : 0;
      const moved = level + (Math.round(jump) + random(41) - 20) * contract.step;
      levels.set(contract, moved);
      if (chance(8)) at += FUNDING_INTERVAL_MS;
      seen = yield { kind: 'mark', at, coin: contract.coin, price: priceText(contract, 0, moved) };
    } else if (roll < 16 && seen.positions.length > 0) {
      const target = seen.positions[random(seen.positions.length)]!;
      const existing = seen.triggers.filter((trigger) => trigger.positionId === target.autoid);
      if (existing.length > 0 && chance(30)) {
        const trigger = existing[random(existing.length)]!;
        const userId = chance(90) ? trigger.userId : USERS[random(USERS.length)]!;
        seen = yield {
          kind: 'command',
          at,
          command: {
            kind: 'cancelTrigger',
            userId,
            triggerId: chance(85) ? trigger.autoid : 900 + random(50),
          },
        };
        continue;
      }
      // A TP/SL a few ticks to a few percent away (now and then on the wrong side, refused), for some lots or all.
      const away = (target.long ? 1 : -1) * (5 + random(200));
      const command: FuturesCommand = {
        kind: 'setTrigger',
        userId: chance(92) ? target.userId : USERS[random(USERS.length)]!,
        positionId: target.autoid,
        ...(chance(8)
          ? { triggerId: 800 + random(50) }
          : existing.length > 0 && chance(40)
            ? { triggerId: existing[0]!.autoid }
            : {}),
        ...(chance(80) ? { profitPrice: priceText(contract, chance(90) ? away : -away, level) } : {}),
        ...(chance(70) ? { lossPrice: priceText(contract, -away, level) } : {}),
        ...(chance(40) ? { number: String(1 + random(3)) } : {}),
      };
      seen = yield { kind: 'command', at, command };
    } else if (roll < 30) {
      // The house quotes one level on each side, now and then it crosses at market.
      if (chance(15)) {
        const command = open(HOUSE_TAKER_TRADER, contractId, chance(50) ? 'buy' : 'sell', 'market', '2', 50);
        seen = yield { kind: 'command', at, command };
      } else {
        const side = chance(50) ? 'buy' : 'sell';
        const offset = (1 + random(4)) * (side === 'buy' ? -1 : 1);
        const lots = chance(20) ? 100 + random(200) : 2 + random(8);
        const command = open(HOUSE_TRADER, contractId, side, 'limit', String(lots), 50, {
          price: priceText(contract, offset, level),
        });
        seen = yield { kind: 'command', at, command };
      }
    } else if (roll < 42 && seen.orders.length > 0) {
      const target = seen.orders[random(seen.orders.length)]!;
      const owner = chance(85) ? target.owner : String(USERS[random(USERS.length)]!);
      const autoid = chance(92) ? target.autoid : 10_000 + random(100);
      seen = yield { kind: 'command', at, command: { kind: 'cancel', owner, autoid } };
    } else if (roll < 54 && seen.positions.length > 0) {
      const target = seen.positions[random(seen.positions.length)]!;
      const userId = chance(90) ? target.userId : USERS[random(USERS.length)]!;
      const lots = Dec.parse(target.number);
      const number = chance(40)
        ? null
        : chance(8)
          ? lots.add(Dec.ONE).toString()
          : chance(5)
            ? '0.5'
            : String(1 + random(Math.max(1, Number(lots.toString()))));
      seen = yield {
        kind: 'command',
        at,
        command: { kind: 'close', userId, positionId: target.autoid, number },
      };
    } else {
      const trader = userTrader(chance(25) ? RISKY : USERS[random(USERS.length)]!);
      const side = chance(50) ? 'buy' : 'sell';
      const style = chance(70) ? 'limit' : 'market';
      if (trader.userId === RISKY) {
        // Always 50× cross (one leverage per position), big, crossing the book.
        const crossing = priceText(contract, side === 'buy' ? 6 : -6, level);
        const command = open(trader, contractId, side, style, String(30 + random(120)), 50, {
          tdMode: 'cross',
          ...(style === 'limit' ? { price: crossing } : {}),
        });
        seen = yield { kind: 'command', at, command };
        continue;
      }
      let number = String(1 + random(12));
      if (chance(3)) number = '0';
      if (chance(3)) number = '1.5';
      if (chance(3)) number = '900';
      const all = chance(5);
      // More than a wallet holds: 450 lots at 1× (27,000 USDT of BTC margin).
      if (all) number = '450';
      const lever = all ? 1 : chance(4) ? 7 : LEVERS[random(LEVERS.length)]!;
      const offset = random(9) - 4 + (side === 'buy' ? -1 : 1);
      let price = priceText(contract, offset, level);
      if (chance(3)) price = `${price}3`;
      const withTpSl = chance(25);
      const long = side === 'buy';
      const options = {
        ...(style === 'limit' ? { price } : {}),
        tdMode: chance(60) ? ('cross' as const) : ('lsolate' as const),
        ...(withTpSl ? { profitPrice: priceText(contract, long ? 40 : -40, level) } : {}),
        ...(withTpSl && chance(60) ? { lossPrice: priceText(contract, long ? -40 : 40, level) } : {}),
      };
      seen = yield {
        kind: 'command',
        at,
        command: open(trader, contractId, side, style, number, lever, options),
      };
    }
  }
  // A last sweep: what was accrued since the previous one is credited too.
  yield { kind: 'payout', at: at + 1 };
}

function open(
  trader: Trader,
  contractId: number,
  side: 'buy' | 'sell',
  style: 'limit' | 'market',
  number: string,
  lever: number,
  options: { price?: string; tdMode?: 'cross' | 'lsolate'; profitPrice?: string; lossPrice?: string } = {},
): FuturesCommand {
  return {
    kind: 'open',
    trader,
    contractId,
    side,
    style,
    price: options.price,
    number,
    lever,
    tdMode: options.tdMode ?? 'cross',
    profitPrice: options.profitPrice,
    lossPrice: options.lossPrice,
  };
}

// ── (a) the engine ────────────────────────────────────────────────────────

class EngineSide {
  private constructor(
    readonly h: Harness,
    readonly engine: FuturesEngine,
    private readonly referral: ReferralFees,
    private readonly index: SetPriceIndex,
  ) {}

  static async start(): Promise<EngineSide> {
    const h = await startHarness({ demo: false });
    h.clock.set(TIME_ZERO);
    expect(await selectContracts(h.store.db)).toEqual([]);
    await insertContracts(h.store.db);
    await insertProfiledUsers(h.store.db, PROFILES, TIME_ZERO, 'FQ');
    const index = new SetPriceIndex();
    const referral = new ReferralFees(h.store.db, h.clock, index);
    const engine = new FuturesEngine({
      db: h.store.db,
      ledger: h.app.ledger,
      now: () => h.clock.now(),
      fundingIntervalMs: FUNDING_INTERVAL_MS,
      referral,
      onCommitted: () => {},
      onError: (error) => {
        throw error;
      },
    });
    await engine.restore();
    return new EngineSide(h, engine, referral, index);
  }

  /** One step, or several commands submitted together at one time (the engine groups them). */
  async runGroup(group: readonly Step[]): Promise<Answer[]> {
    if (group.length === 1) return [await this.run(group[0]!)];
    this.h.clock.set(group[0]!.at);
    return Promise.all(group.map((step) => this.run(step)));
  }

  async run(step: Step): Promise<Answer> {
    this.h.clock.set(step.at);
    switch (step.kind) {
      case 'fund':
        await this.h.app.ledger.execute(step.batch);
        return { ok: true, applied: true };
      case 'mark':
        // An index tick: the mark, then one risk pass per contract of the coin.
        await this.engine.applyMark(step.coin, Dec.parse(step.price));
        return { ok: true, applied: true };
      case 'profile':
        await saveProfile(this.h.store.db, step.profile, step.at);
        this.referral.forget(step.profile.userId);
        return { ok: true, applied: true };
      case 'settings':
        await this.h.app.referral.service.saveSettings(SETTINGS);
        await this.referral.loadSettings();
        return { ok: true, applied: true };
      case 'prices':
        for (const [coin, price] of Object.entries(step.prices))
          this.index.prices.set(coin, Dec.parse(price));
        return { ok: true, applied: true };
      case 'payout':
        await this.engine.idle();
        await this.h.app.referral.payCommissions();
        return { ok: true, applied: true };
      case 'command':
        try {
          return answerOf(await this.engine.submit(step.command));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          return Object.keys(error.params).length === 0
            ? { ok: false, error: error.key }
            : { ok: false, error: error.key, params: error.params };
        }
    }
  }
}

function answerOf(result: CommandResult): Answer {
  return {
    ok: true,
    orders: result.orders.map((row) => row.autoid),
    positions: result.positions.map((row) => row.autoid),
    triggers: result.triggers.map((row) => row.autoid),
  };
}

// ── (b) the money state and the writers ──────────────────────────────────

class StateSide extends ProjectedState {
  private constructor(store: Store) {
    super(store, [ledgerProjection, futuresProjection, referralProjection]);
  }

  static async start(): Promise<StateSide> {
    const store = await openTestStore();
    const side = new StateSide(store);
    const contracts = await insertContracts(store.db);
    await insertProfiledUsers(store.db, PROFILES, TIME_ZERO, 'FQ');
    for (const contract of contracts)
      expect(
        side.apply({
          kind: 'futuresContract',
          at: TIME_ZERO,
          contract,
          fundingSlot: fundingSlot(TIME_ZERO, FUNDING_INTERVAL_MS),
        }),
      ).toEqual({ ok: true });
    return side;
  }

  run(step: Step): Answer {
    const result = this.apply(this.commandOf(step));
    if (!result.ok) return result.params === undefined ? result : { ...result };
    if (step.kind !== 'command') return { ok: true, applied: true };
    return { ok: true, ...result.futures! };
  }

  private commandOf(step: Step): MoneyCommand {
    const { at } = step;
    switch (step.kind) {
      case 'fund':
        return { kind: 'transfer', at, batch: step.batch };
      case 'mark':
        return markCommandOf(step.coin, Dec.parse(step.price), at, FUNDING_INTERVAL_MS);
      case 'profile':
        return { kind: 'referralUser', at, ...step.profile };
      case 'settings':
        return { kind: 'referralSettings', at, ...SETTINGS };
      case 'prices':
        return { kind: 'indexPrices', at, prices: step.prices };
      case 'payout':
        return { kind: 'referralPayout', at };
      case 'command':
        // The module's own mapping (core-futures.ts), as the server sends it on the core.
        return moneyCommandOf(step.command, at, FUNDING_INTERVAL_MS);
    }
  }

  seen(): Seen {
    const { book } = this.state.futures;
    return {
      orders: [...book.open.values()].map((row) => ({ autoid: row.autoid, owner: row.owner })),
      positions: [...book.positions.values()]
        .filter((row) => row.user_id !== 0)
        .map((row) => ({
          autoid: row.autoid,
          userId: row.user_id,
          number: row.number,
          long: row.type === 'buy',
        })),
      triggers: [...book.triggers.values()].map((row) => ({
        autoid: row.autoid,
        userId: row.user_id,
        positionId: row.position_id,
      })),
    };
  }
}

// ── what is compared ──────────────────────────────────────────────────────

/** A table's rows by id, every numeric column canonical (PostgreSQL's numeric text keeps trailing zeros). */
async function rowsOf(
  db: Executor,
  table: 'futures_orders' | 'futures_positions' | 'futures_triggers' | 'futures_trades',
) {
  const rows = await db.selectFrom(table).selectAll().orderBy('autoid').execute();
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, String(value)])),
  );
}

async function fundingRows(db: Executor) {
  const rows = await db.selectFrom('futures_funding').selectAll().orderBy('autoid').execute();
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, String(value)])),
  );
}

function comparable(snapshot: ReturnType<typeof futuresContent>) {
  return {
    ...snapshot,
    marks: [],
    trades: snapshot.trades.map(([id, rows]) => [id, rows.map((row) => ({ ...row, autoid: 0 }))]),
  };
}

// ── the test ──────────────────────────────────────────────────────────────

let engineSide: EngineSide;
let stateSide: StateSide;

beforeEach(async () => {
  engineSide = await EngineSide.start();
  stateSide = await StateSide.start();
});

afterEach(async () => {
  await engineSide.engine.idle();
  await engineSide.h.close();
  await stateSide.store.close();
});

/**
 * Runs the stream through both sides, comparing every answer, then what
 * both databases and the state hold. With `groupMax` > 1, runs of commands
 * are submitted to the engine together at one time (the engine commits
 * them in groups), and applied one by one to the state.
 */
async function expectEquivalent(seed: number, groupMax: number): Promise<void> {
  const writeEvery = prng(seed + 1);
  const grouping = prng(seed + 2);
  const tally = { refused: new Set<string>(), closes: 0, cancels: 0, mostPositions: 0 };
  const steps = stream(seed, COMMANDS);
  let seen = stateSide.seen();
  let next = steps.next();
  while (!next.done) {
    const first = next.value;
    const group: Step[] = [first];
    next = steps.next(seen);
    const size = first.kind === 'command' ? 1 + grouping(groupMax) : 1;
    while (group.length < size && !next.done && next.value.kind === 'command') {
      group.push({ ...next.value, at: first.at });
      next = steps.next(seen);
    }
    const fromEngine = await engineSide.runGroup(group);
    group.forEach((step, index) => {
      const fromState = stateSide.run(step);
      expect(fromState, JSON.stringify(step)).toEqual(fromEngine[index]);
      if (!fromState.ok) tally.refused.add(fromState.error);
      else if (step.kind === 'command' && step.command.kind === 'close') tally.closes += 1;
      else if (step.kind === 'command' && step.command.kind === 'cancel') tally.cancels += 1;
    });
    if (writeEvery(4) === 0) await stateSide.write();
    seen = stateSide.seen();
    tally.mostPositions = Math.max(tally.mostPositions, seen.positions.length);
  }
  await stateSide.write();

  const [a, b] = [engineSide.h.store.db, stateSide.store.db];
  for (const table of ['futures_orders', 'futures_positions', 'futures_triggers', 'futures_trades'] as const)
    expect(await rowsOf(b, table), table).toEqual(await rowsOf(a, table));
  const commissions = await commissionRowsCredited(a);
  expect(await commissionRowsCredited(b)).toEqual(commissions);
  await expectLedgerEquivalent(a, b, stateSide.state, { accountTimes: true });
  await expectHealthyLedger(a);
  await expectHealthyLedger(b);
  // Snapshot 0 from the engine's SQL (state-from-sql.ts) holds the futures state that ran all along, but for
  // the marks (the edge sends them after a start) and the trades' ids (the state's are the table's to give).
  const fromSql = moneyMachine().initialState();
  await loadFuturesState(a, fromSql, fundingSlot(TIME_ZERO, FUNDING_INTERVAL_MS));
  expect(comparable(futuresContent(fromSql.futures))).toEqual(
    comparable(futuresContent(stateSide.state.futures)),
  );

  // The stream must exercise what it claims to.
  const trades = await rowsOf(a, 'futures_trades');
  const positions = await rowsOf(a, 'futures_positions');
  const triggers = await rowsOf(a, 'futures_triggers');
  expect(trades.length).toBeGreaterThan(50);
  expect(tally.closes).toBeGreaterThan(10);
  expect(tally.cancels).toBeGreaterThan(10);
  expect(tally.mostPositions).toBeGreaterThan(3);
  expect(positions.some((row) => row.state === 'closed')).toBe(true);
  expect(positions.some((row) => row.td_mode === 'lsolate')).toBe(true);
  expect(triggers.some((row) => row.state === 'cancelled')).toBe(true);
  expect(triggers.some((row) => row.state === 'fired')).toBe(true);
  expect(positions.some((row) => row.state === 'liquidated' && row.td_mode === 'lsolate')).toBe(true);
  expect(positions.some((row) => row.state === 'liquidated' && row.td_mode === 'cross')).toBe(true);
  const funding = await fundingRows(a);
  expect(await fundingRows(b)).toEqual(funding);
  expect(funding.some((row) => !Dec.parse(row.rate!).isZero())).toBe(true);
  for (const key of [
    'futures.entrustNotOpen',
    'futures.positionNotFound',
    'futures.leverNotAllowed',
    'rules.insufficientBalance',
  ])
    expect(tally.refused).toContain(key);
  const orders = await rowsOf(a, 'futures_orders');
  expect(orders.some((row) => Dec.parse(row.fee_hal!).isPositive())).toBe(true);
  expect(commissions.some((row) => row.fee_coin === 'HAL')).toBe(true);
  expect(commissions.some((row) => row.fee_coin === 'USDT')).toBe(true);
  expect(commissions.some((row) => Dec.parse(String(row.kickback)).isPositive())).toBe(true);
  // Credited by several sweeps; the last one left nothing pending.
  expect(commissions.every((row) => row.credited_at !== null)).toBe(true);
  expect(new Set(commissions.map((row) => row.credited_at)).size).toBeGreaterThan(2);
}

describe('the money state in place of the futures engine’s SQL path (orders)', () => {
  it(
    `writes the rows and balances the engine writes, one command a group (${COMMANDS} steps, seed ${SEED})`,
    async () => {
      await expectEquivalent(SEED, 1);
    },
    TIME_BOUND_MS,
  );

  it(
    `writes the rows and balances the engine writes, up to 6 commands a group (${COMMANDS} steps, seed ${SEED + 3})`,
    async () => {
      await expectEquivalent(SEED + 3, 6);
    },
    TIME_BOUND_MS,
  );
});
