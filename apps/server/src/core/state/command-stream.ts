import { Dec } from '@halyard/money';
import { custodyWallet, systemAccount, userAccount } from '../../ledger/accounts.ts';
import type { TransferInput } from '../../ledger/index.ts';
import {
  cycleOpenCommand,
  cycleTick,
  fiatCommand,
  fiatFunding,
  futuresCommand,
  futuresHouseFunding,
  ieoCommand,
  referralCommand,
  STREAM_ASSETS,
  TEST_CONTRACTS,
  walletFlowCommand,
} from './command-stream-modules.ts';
import type { MoneyCommand, PairConfig } from './commands.ts';

/**
 * The seeded command streams of the core's tests, kill -9 child and bench
 * (no vitest here: the child and the bench import it).
 */

/** mulberry32: small, fast, and the same numbers on every machine. */
export function prng(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % below) >>> 0;
  };
}

export const TEST_PAIRS: PairConfig[] = ['BTC', 'ETH', 'SOL', 'HAL'].map((coin) => ({
  symbol: `${coin}/USDT`,
  tradcoin: coin,
  maincoin: 'USDT',
  priceAccuracy: 2,
  amountAccuracy: 4,
  minNumber: '0.001',
  maxNumber: '1000',
  makerFee: '0.001',
  takerFee: '0.002',
}));
const TIME_ZERO = Date.UTC(2026, 10, 26);

export interface StreamOptions {
  /**
   * Also futures (two contracts listed first): deposits into futures wallets,
   * marks, users' and the house's opening orders, closes and cancels, now and
   * then refused. Off, the stream is the same as before.
   */
  futures?: boolean;
  seed: number;
  /** Users who deposit and transfer; the first `traders` of them also trade. */
  users: number;
  traders: number;
  /** Prefix of every id, so streams of several runs never collide. */
  idPrefix?: string;
  /**
   * Also referral commands (profiles with inviters and fee deduction, index
   * prices, the operator's settings) and now and then a jump of hours, so
   * fees are paid in HAL, commissions planned and tiers fixed across UTC
   * days; and every PAYOUT_EVERY commands a payout sweep of the commissions
   * accrued (an extra command, drawing nothing: the rest of the stream is
   * as it was). Off, the stream is the same as before they existed (benches).
   */
  referral?: boolean;
  /**
   * Also cycle contracts: opens (now and then refused) and index ticks that
   * settle what expired, the clock jumping a second at each tick so they
   * expire. Off, the stream is the same as before.
   */
  cycle?: boolean;
  /**
   * Also token launches: sales created and edited (FCFS and commit mode),
   * subscriptions (now and then refused), the clock's advances and rebates,
   * cancels. Off, the stream is the same as before.
   */
  ieo?: boolean;
  /**
   * Also fiat escrow: the house's ads set (now and then offline), orders of
   * users who hold coin in their fiat wallets, payments, appeals, releases
   * and refunds on recent orders, each now and then out of turn (refused).
   * Off, the stream is the same as before.
   */
  fiat?: boolean;
  /**
   * Also deposits credited (some repeated, some conflicting), withdrawals
   * requested, reviewed and reported on by the sender (ids guessed, so some
   * are unknown or in another step), and operators' adjustments (some
   * repeated). Off, the stream is the same as before.
   */
  walletFlows?: boolean;
}

/** How many commands apart the referral stream's payout sweeps are. */
const PAYOUT_EVERY = 400;

/**
 * A seeded random stream of money commands: the pairs opened first, then
 * deposits, transfers between users, holds posted in parts or voided, retries
 * (the same request, and a conflicting one), spot limit and market orders
 * and cancels, some carrying an idempotency id and some repeating one. It
 * never reads the state: the same seed gives the same commands.
 */
export function* commandStream(options: StreamOptions): Generator<MoneyCommand> {
  const random = prng(options.seed);
  const prefix = options.idPrefix ?? 's';
  const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
  const user = () => 1 + random(options.users);
  const trader = () => 1 + random(options.traders);
  const amount = (whole: number) => `${random(whole)}.${String(1 + random(9999)).padStart(4, '0')}`;
  const holds: string[] = [];
  const recentTransfers: TransferInput[] = [];
  const commandIds: string[] = [];
  let placed = 0;
  let at = TIME_ZERO;
  /** The IEO sales created so far, by project id. */
  const ieoSales: number[] = [];
  /** How many fiat orders the stream tried to open. */
  const fiatOrders = { opened: 0 };
  /** How many withdrawals were asked for so far: the ids the state may have given. */
  const flows = { requested: 0 };

  for (const pair of TEST_PAIRS) yield { kind: 'openPair', at, pair };
  if (options.futures === true) {
    for (const contract of TEST_CONTRACTS) yield { kind: 'futuresContract', at, contract, fundingSlot: 0 };
    yield { kind: 'transfer', at, batch: futuresHouseFunding(prefix) };
  }
  if (options.fiat === true) yield { kind: 'transfer', at, batch: fiatFunding(prefix, options.users) };
  for (let n = 0; ; n++) {
    if (options.referral === true && n % PAYOUT_EVERY === PAYOUT_EVERY - 1)
      yield { kind: 'referralPayout', at };
    at += random(3);
    const roll = random(100);
    const commandId = random(4) === 0 ? `${prefix}:c${n}` : undefined;
    const base = { at, ...(commandId ? { id: commandId } : {}) };
    if (commandId) commandIds.push(commandId);
    const transferId = `${prefix}:t${n}`;
    let batch: TransferInput[] | null = null;
    if (roll < 22) {
      batch = [
        {
          id: transferId,
          debit: systemAccount(custodyWallet('bsc')),
          credit: userAccount(user(), 'spot'),
          asset: pick(STREAM_ASSETS),
          amount: Dec.parse(amount(5000)),
          code: 'deposit',
        },
      ];
    } else if (roll < 32) {
      const from = user();
      batch = [
        {
          id: transferId,
          debit: userAccount(from, 'spot'),
          credit: userAccount((from % options.users) + 1, 'spot'),
          asset: pick(STREAM_ASSETS),
          amount: Dec.parse(amount(50)),
          code: 'transfer',
        },
      ];
    } else if (roll < 40) {
      holds.push(transferId);
      batch = [
        {
          id: transferId,
          type: 'pending',
          debit: userAccount(user(), 'spot'),
          credit: systemAccount('fiat_ads'),
          asset: pick(STREAM_ASSETS),
          amount: Dec.parse(amount(20)),
          code: 'hold',
        },
      ];
    } else if (roll < 46 && holds.length > 0) {
      const pendingId = holds[random(holds.length)]!;
      batch = [
        random(2) === 0
          ? { id: transferId, type: 'void_pending', pendingId, code: 'release' }
          : { id: transferId, type: 'post_pending', pendingId, amount: Dec.parse(amount(5)), code: 'settle' },
      ];
    } else if (roll < 50 && recentTransfers.length > 0) {
      // A retry: the same request, or (one time in three) a different one under the same id.
      const earlier = recentTransfers[random(recentTransfers.length)]!;
      batch = [random(3) === 0 ? { ...earlier, code: 'changed' } : earlier];
    } else if (roll < 52 && commandIds.length > 1) {
      const repeated = commandIds[random(commandIds.length - 1)]!;
      yield { at, id: repeated, kind: 'cancel', pair: TEST_PAIRS[0]!.symbol, owner: '1', orderId: 1 };
      continue;
    } else if (options.referral === true && roll < 54) {
      if (random(40) === 0) at += 6 * 60 * 60 * 1000;
      yield referralCommand(random, options.users, base);
      continue;
    } else if (options.cycle === true && roll < 58) {
      if (random(3) === 0) {
        at += 500 + random(1000);
        yield { ...base, at, kind: 'cycleSettle', ...cycleTick(random, at) };
      } else yield cycleOpenCommand(random, user(), { ...base }, at);
      continue;
    } else if (options.ieo === true && roll < 61) {
      yield ieoCommand(random, user(), base, ieoSales);
      continue;
    } else if (options.fiat === true && roll >= 72 && roll < 75) {
      yield fiatCommand(random, user(), base, fiatOrders);
      continue;
    } else if (options.futures === true && roll >= 62 && roll < 68) {
      yield futuresCommand(random, base, `${prefix}:f${n}`);
      continue;
    } else if (options.walletFlows === true && roll >= 68 && roll < 72) {
      yield walletFlowCommand(random, user(), base, flows, n);
      continue;
    } else if (roll < 86) {
      const pair = pick(TEST_PAIRS);
      const side = random(2) === 0 ? 'buy' : 'sell';
      const who = trader();
      const market = random(10) === 0;
      const price = `${95 + random(10)}.${String(random(100)).padStart(2, '0')}`;
      placed += 1;
      yield {
        ...base,
        kind: 'place',
        pair: pair.symbol,
        owner: String(who),
        account: userAccount(who, 'spot'),
        email: random(50) === 0 ? null : `u${who}@example.com`,
        side,
        style: market ? 'market' : 'limit',
        ...(market ? {} : { price }),
        amount: `${random(3)}.${String(1 + random(999)).padStart(3, '0')}`,
      };
      continue;
    } else {
      yield {
        ...base,
        kind: 'cancel',
        pair: pick(TEST_PAIRS).symbol,
        owner: String(trader()),
        orderId: Math.max(1, placed - random(40)),
      };
      continue;
    }
    if (batch.length > 0 && batch[0]!.id === transferId) {
      recentTransfers.push(batch[0]!);
      if (recentTransfers.length > 200) recentTransfers.shift();
    }
    yield { ...base, kind: 'transfer', batch };
  }
}

/** The first `count` commands of a stream. */
export function takeCommands(options: StreamOptions, count: number): MoneyCommand[] {
  const commands: MoneyCommand[] = [];
  for (const command of commandStream(options)) {
    if (commands.length >= count) break;
    commands.push(command);
  }
  return commands;
}
