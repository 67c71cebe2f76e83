import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { prng } from '../../core/state/command-stream.ts';
import { closeToleranceMs } from '../../core/state/cycle-rules.ts';
import { AppError } from '../../http/errors.ts';
import {
  createLedger,
  type Ledger,
  systemAccount,
  type TransferInput,
  userAccount,
} from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import type { IndexPriceSource, IndexTick, MarketModule } from '../../market/index.ts';
import { expectLedgerEquivalent, ProjectedState } from '../../projection/equivalence-support.ts';
import type { Publisher } from '../../realtime/publisher.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import { ReferralFees } from '../referral/fees.ts';
import { payAllCommissions } from '../referral/payouts.ts';
import { referralProjection } from '../referral/projection.ts';
import { commissionRowsCredited } from '../referral/test-support.ts';
import { cycleProjection } from './projection.ts';
import { CycleService } from './service.ts';
import { insertPair, selectSettledPage } from './store.ts';

/**
 * The proof that the money state can replace modules/cycle's SQL path: one
 * seeded stream of cycle orders (several users, both pairs, every duration,
 * up and down, some refused) and index ticks (each one settling what
 * expired, with stalls long enough to make contracts void, and cuts with no
 * tick during a stall, as at a restart or by hand) is run
 *
 *   (a) through the module: CycleService.place and its SettlementEngine on a
 *       fresh database, the clock set to each step's time;
 *   (b) through the money state (cycleOpen, cycleSettle) and its events
 *       written to another fresh database by the ledger, cycle and referral
 *       writers, a few commands per transaction.
 *
 * Every order gets the same answer (its id, or the same refusal), and at the
 * end the order, settlement and close rows, the commissions, the ledger
 * transfers and every account's totals are equal, and the state holds the
 * balances the module's SQL holds. What only the edge can check (pair,
 * duration, pay coin, freeze, region, a fresh tick) is not in the stream.
 */

const SEED = Number(process.env.CYCLE_EQUIVALENCE_SEED ?? 19_2027);
const STEPS = Number(process.env.CYCLE_EQUIVALENCE_STEPS ?? 500);
const TIME_ZERO = Date.UTC(2026, 10, 26);
const TICK_MS = 1000;
const TOLERANCE_MS = closeToleranceMs(TICK_MS);
const SOURCE = 'test-index';
const TREASURY = systemAccount('treasury');
/** 205 has no email bound: every order of theirs is refused. 201 and 202 were invited by 206, 203 by 201. */
const USERS = [
  { id: 201, email: 'a@example.com', parentId: 206 },
  { id: 202, email: 'b@example.com', parentId: 206 },
  { id: 203, email: 'c@example.com', parentId: 201 },
  { id: 204, email: 'd@example.com', parentId: null },
  { id: 205, email: null, parentId: null },
  { id: 206, email: 'f@example.com', parentId: null },
] as const;
const TRADERS = USERS.filter((user) => user.id !== 206);

interface TestLever {
  seconds: number;
  minnumber: string;
  maxnumber: string;
  profit_gas: string;
  loss_gas: string;
  gas: string;
}
const PAIRS = [
  {
    tradcoin: 'BTC',
    levers: [
      { seconds: 5, minnumber: '1', maxnumber: '500', profit_gas: '0.85', loss_gas: '1', gas: '0.02' },
      { seconds: 12, minnumber: '2', maxnumber: '300', profit_gas: '0.7', loss_gas: '0.9', gas: '0.05' },
    ],
  },
  {
    tradcoin: 'ETH',
    levers: [{ seconds: 8, minnumber: '1', maxnumber: '1000', profit_gas: '0.9', loss_gas: '1', gas: '0.1' }],
  },
] as const;
type TestPair = (typeof PAIRS)[number];
/** Stakes as typed: ordinary ones, one below every minimum, one with too many decimals, one above the maxima. */
const STAKES = ['10', '25.5', '3', '0.5', '7.123456789', '2000', '40'];

// ── the stream ────────────────────────────────────────────────────────────

type Step =
  | {
      kind: 'open';
      at: number;
      user: (typeof USERS)[number];
      pair: TestPair;
      pairId: number;
      lever: TestLever;
      side: 'buy' | 'sell';
      number: string;
      tick: IndexTick;
    }
  | { kind: 'tick'; tick: IndexTick }
  /** A settlement at `ts` with nothing recorded since the coin's latest tick (the module's settleDue(cut)). */
  | { kind: 'cut'; coin: string; ts: number }
  | { kind: 'payout'; at: number };

/** How often (stream time) the referral payout sweep runs: the module's by hand, the state's `referralPayout`. */
const PAYOUT_EVERY_MS = 15_000;

/**
 * Ticks every second per coin (prices on a coarse grid, so draws happen),
 * each coin stalling now and then for 3–4 s (its orders expiring then are
 * void), and orders between them; after the last order, ticks until every
 * order has expired. A referral payout sweep every PAYOUT_EVERY_MS, and a
 * last one at the end.
 */
function* stream(seed: number, steps: number, pairIds: readonly number[]): Generator<Step> {
  const random = prng(seed);
  const price = new Map<string, number>(PAIRS.map((pair) => [pair.tradcoin, 100]));
  const latest = new Map<string, IndexTick>();
  const stalledUntil = new Map<string, number>();
  let now = TIME_ZERO;
  function* ticksUpTo(time: number): Generator<Step> {
    for (let second = Math.floor(now / TICK_MS) + 1; second * TICK_MS <= time; second += 1) {
      const ts = second * TICK_MS;
      for (const { tradcoin } of PAIRS) {
        if ((stalledUntil.get(tradcoin) ?? 0) > ts) {
          yield { kind: 'cut', coin: tradcoin, ts };
          continue;
        }
        if (random(40) === 0) {
          stalledUntil.set(tradcoin, ts + 3000 + random(2) * 1000);
          continue;
        }
        const next = Math.max(1, price.get(tradcoin)! + (random(5) - 2) * 0.5);
        price.set(tradcoin, next);
        const tick: IndexTick = { coin: tradcoin, price: Dec.parse(String(next)), ts, source: SOURCE };
        latest.set(tradcoin, tick);
        yield { kind: 'tick', tick };
      }
      if (ts % PAYOUT_EVERY_MS === 0) yield { kind: 'payout', at: ts };
    }
    now = time;
  }
  yield* ticksUpTo(TIME_ZERO + 2 * TICK_MS);
  for (let count = 0; count < steps; count += 1) {
    yield* ticksUpTo(now + 50 + random(600));
    const index = random(PAIRS.length);
    const pair = PAIRS[index]!;
    const tick = latest.get(pair.tradcoin)!;
    // An order waits for a fresh tick (the edge refuses a stale one: not the state's business).
    if (now - tick.ts > 2000) continue;
    yield {
      kind: 'open',
      at: now,
      user: TRADERS[random(TRADERS.length)]!,
      pair,
      pairId: pairIds[index]!,
      lever: pair.levers[random(pair.levers.length)]!,
      side: random(2) === 0 ? 'buy' : 'sell',
      number: STAKES[random(STAKES.length)]!,
      tick,
    };
  }
  stalledUntil.clear();
  yield* ticksUpTo(now + 20_000);
  yield { kind: 'payout', at: now + 1 };
}

/** What a step answered, the same shape on both sides. */
type Answer = { ok: true; orderId?: number } | { ok: false; error: string; params?: unknown };

function fundings(): TransferInput[] {
  return TRADERS.map((user, index) => ({
    id: `cycle-eq-fund:${user.id}`,
    debit: TREASURY,
    credit: userAccount(user.id, 'spot'),
    asset: 'USDT',
    // 204 starts short: its larger stakes are refused for the balance.
    amount: Dec.parse(index === 3 ? '60' : '5000'),
    code: 'test_funding',
  }));
}

async function prepare(db: Executor): Promise<number[]> {
  await db
    .insertInto('users')
    .values(
      USERS.map((user) => ({
        id: user.id,
        email: user.email,
        area_code: null,
        phone: null,
        wallet_address: null,
        password_hash: null,
        pay_password_hash: null,
        invitation_code: `CY${user.id}`,
        parent_id: user.parentId,
        locked_until: null,
        created_at: TIME_ZERO,
      })),
    )
    .execute();
  const ids: number[] = [];
  for (const [sort, pair] of PAIRS.entries()) {
    ids.push(
      await insertPair(
        db,
        { tradcoin: pair.tradcoin, maincoin: 'USDT', price_accuracy: 2, paycoins: 'USDT', sort },
        pair.levers,
      ),
    );
  }
  return ids;
}

// ── (a) the module ────────────────────────────────────────────────────────

/** The recorded index history the module reads: what the stream ticked so far. */
class TestIndex implements IndexPriceSource {
  readonly name = SOURCE;
  readonly quote = 'USDT';
  readonly tickMs = TICK_MS;
  private readonly history = new Map<string, IndexTick[]>();
  coins(): readonly string[] {
    return PAIRS.map((pair) => pair.tradcoin);
  }
  priceAccuracy(): number {
    return 2;
  }
  record(tick: IndexTick): void {
    const ticks = this.history.get(tick.coin) ?? [];
    ticks.push(tick);
    this.history.set(tick.coin, ticks);
  }
  current(coin: string): IndexTick | null {
    return this.history.get(coin)?.at(-1) ?? null;
  }
  async priceAt(coin: string, ts: number): Promise<IndexTick | null> {
    return (this.history.get(coin) ?? []).findLast((tick) => tick.ts <= ts) ?? null;
  }
  subscribe(): () => void {
    return () => {};
  }
}

class ModuleSide {
  private constructor(
    readonly store: Store,
    private readonly clock: ManualClock,
    private readonly index: TestIndex,
    private readonly service: CycleService,
    private readonly ledger: Ledger,
  ) {}

  static async start(): Promise<{ side: ModuleSide; pairIds: number[] }> {
    const store = await openTestStore();
    const clock = new ManualClock(TIME_ZERO);
    const pairIds = await prepare(store.db);
    const ledger = createLedger(store, clock);
    await ledger.execute(fundings());
    const index = new TestIndex();
    const byId = new Map<number, (typeof USERS)[number]>(USERS.map((user) => [user.id, user]));
    // The identity and market the service reads: a user's email, nobody frozen or in a refused region.
    const identity = {
      assertNotFrozen: async () => {},
      getUser: async (userId: number) => ({ email: byId.get(userId)!.email, areaCode: null }),
    } as unknown as IdentityService;
    const market = { index, data: { ticker: () => null } } as unknown as MarketModule;
    const publisher = { publish: () => {} } as unknown as Publisher;
    const referral = new ReferralFees(store.db, clock, index);
    const service = new CycleService({
      db: store.db,
      ledger,
      clock,
      identity,
      market,
      publisher,
      refusedAreaCodes: [],
      referral,
    });
    await service.load();
    await service.settlement.load();
    return { side: new ModuleSide(store, clock, index, service, ledger), pairIds };
  }

  async run(next: Step): Promise<Answer> {
    if (next.kind === 'cut') {
      this.clock.set(next.ts);
      await this.service.settlement.settleDue(next.ts, next.coin);
      return { ok: true };
    }
    if (next.kind === 'payout') {
      this.clock.set(next.at);
      await payAllCommissions(this.ledger, next.at);
      return { ok: true };
    }
    if (next.kind === 'tick') {
      this.clock.set(next.tick.ts);
      this.index.record(next.tick);
      await this.service.settlement.settleDue(next.tick.ts, next.tick.coin);
      return { ok: true };
    }
    this.clock.set(next.at);
    try {
      const position = await this.service.place(next.user.id, {
        tradcoin: next.pair.tradcoin,
        maincoin: 'USDT',
        side: next.side,
        number: next.number,
        paycoin: 'USDT',
        lever: next.lever.seconds,
      });
      return { ok: true, orderId: position.autoid };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return Object.keys(error.params).length === 0
        ? { ok: false, error: error.key }
        : { ok: false, error: error.key, params: error.params };
    }
  }
}

// ── (b) the money state and the writers ──────────────────────────────────

class StateSide extends ProjectedState {
  private constructor(store: Store) {
    super(store, [ledgerProjection, cycleProjection, referralProjection]);
  }

  static async start(): Promise<StateSide> {
    const store = await openTestStore();
    await prepare(store.db);
    const side = new StateSide(store);
    side.apply({ kind: 'transfer', at: TIME_ZERO, batch: fundings() });
    for (const user of USERS) {
      side.apply({
        kind: 'referralUser',
        at: TIME_ZERO,
        userId: user.id,
        parentId: user.parentId,
        feeDeduction: false,
        kickbackRate: '0',
        idNumbers: [],
      });
    }
    return side;
  }

  run(next: Step): Answer {
    if (next.kind === 'cut') {
      const { coin, ts } = next;
      const result = this.apply({ kind: 'cycleSettle', at: ts, coin, ts, toleranceMs: TOLERANCE_MS });
      return result.ok ? { ok: true } : result;
    }
    if (next.kind === 'payout') {
      const result = this.apply({ kind: 'referralPayout', at: next.at });
      return result.ok ? { ok: true } : result;
    }
    if (next.kind === 'tick') {
      const { coin, price, ts, source } = next.tick;
      const result = this.apply({
        kind: 'cycleSettle',
        at: ts,
        coin,
        price: price.toString(),
        ts,
        source,
        toleranceMs: TOLERANCE_MS,
      });
      return result.ok ? { ok: true } : result;
    }
    const result = this.apply({
      kind: 'cycleOpen',
      at: next.at,
      userId: next.user.id,
      email: next.user.email,
      pairId: next.pairId,
      tradcoin: next.pair.tradcoin,
      maincoin: 'USDT',
      paycoin: 'USDT',
      side: next.side,
      number: next.number,
      seconds: next.lever.seconds,
      minnumber: next.lever.minnumber,
      maxnumber: next.lever.maxnumber,
      profitGas: next.lever.profit_gas,
      lossGas: next.lever.loss_gas,
      gas: next.lever.gas,
      openPrice: next.tick.price.toString(),
      openTs: next.tick.ts,
      openSource: next.tick.source,
    });
    return result.ok ? { ok: true, orderId: result.order!.orderId } : result;
  }
}

// ── what is compared ──────────────────────────────────────────────────────

function orderRows(db: Executor) {
  return db.selectFrom('cycle_orders').selectAll().orderBy('orderid').execute();
}

function openRows(db: Executor) {
  return db.selectFrom('cycle_open').selectAll().orderBy('orderid').execute();
}

function closeRows(db: Executor) {
  return db.selectFrom('cycle_closes').selectAll().orderBy('id').execute();
}

function settlementRows(db: Executor) {
  return db.selectFrom('cycle_settlements').selectAll().orderBy('orderid').execute();
}

// ── the test ──────────────────────────────────────────────────────────────

let moduleSide: ModuleSide;
let stateSide: StateSide;
let pairIds: number[];

beforeEach(async () => {
  ({ side: moduleSide, pairIds } = await ModuleSide.start());
  stateSide = await StateSide.start();
});

afterEach(async () => {
  await moduleSide.store.close();
  await stateSide.store.close();
});

describe('the money state in place of the cycle SQL path', () => {
  it(`writes the rows and balances the module writes (${STEPS} orders, seed ${SEED})`, async () => {
    const writeEvery = prng(SEED + 1);
    const tally = { opened: 0, refused: new Set<string>(), ticks: 0, cuts: 0 };
    for (const next of stream(SEED, STEPS, pairIds)) {
      const fromModule = await moduleSide.run(next);
      const fromState = stateSide.run(next);
      expect(fromState, JSON.stringify(next)).toEqual(fromModule);
      if (next.kind === 'tick') tally.ticks += 1;
      else if (next.kind === 'cut') tally.cuts += 1;
      else if (next.kind === 'payout') continue;
      else if (fromState.ok) tally.opened += 1;
      else tally.refused.add(fromState.error);
      if (writeEvery(6) === 0) await stateSide.write();
    }
    await stateSide.write();

    const [a, b] = [moduleSide.store.db, stateSide.store.db];
    const orders = await orderRows(a);
    expect(await orderRows(b)).toEqual(orders);
    expect(await openRows(b)).toEqual(await openRows(a));
    expect(await closeRows(b)).toEqual(await closeRows(a));
    const settlements = await settlementRows(a);
    expect(await settlementRows(b)).toEqual(settlements);
    expect(await selectSettledPage(b, 0, 100_000)).toEqual(await selectSettledPage(a, 0, 100_000));
    const commissions = await commissionRowsCredited(a);
    expect(await commissionRowsCredited(b)).toEqual(commissions);
    await expectLedgerEquivalent(a, b, stateSide.state, { accountTimes: false });
    // The stream must exercise what it claims: every outcome, refusals of each kind the state decides, commissions.
    expect(orders.length).toBe(tally.opened);
    expect(tally.opened).toBeGreaterThan(150);
    expect(new Set(settlements.map((row) => row.result))).toEqual(new Set(['win', 'loss', 'draw', 'void']));
    expect(settlements.length).toBe(orders.length);
    expect(tally.refused).toEqual(
      new Set([
        'rules.bindEmailFirst',
        'rules.insufficientBalance',
        'rules.belowMinimum',
        'rules.aboveMaximum',
        'rules.tooManyDecimals',
      ]),
    );
    expect(commissions.length).toBeGreaterThan(5);
    expect(tally.cuts).toBeGreaterThan(10);
    // Credited by several sweeps; the last one left nothing pending.
    expect(commissions.every((row) => row.credited_at !== null)).toBe(true);
    expect(new Set(commissions.map((row) => row.credited_at)).size).toBeGreaterThan(2);
    expect(stateSide.state.cycle.open.size).toBe(0);
    await expectHealthyLedger(a);
    await expectHealthyLedger(b);
  });
});
