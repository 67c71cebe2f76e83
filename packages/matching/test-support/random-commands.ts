/**
 * Seeded random command streams for the oracle test and the benchmarks. Test
 * code, outside the package source: the books themselves never draw a number.
 * The stream depends on the seed alone, never on a book's answers, so the same
 * seed replays the same commands.
 */
import { Dec } from '@halyard/money';
import type { BookCommand, PairPrecision, Side } from '../src/types.ts';

export const RANDOM_PAIR: PairPrecision = {
  priceAccuracy: 2,
  amountAccuracy: 3,
  minNumber: Dec.parse('0.01'),
};

/** mulberry32: a tiny, well-mixed 32-bit PRNG; `next()` is uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const USER_COUNT = 12;
const MID_PRICE_TICKS = 10_000n; // 100.00 at two decimals
const RECENT_IDS_MAX = 512;
const TICK_UNITS = Dec.step(RANDOM_PAIR.priceAccuracy).units;
const LOT_UNITS = Dec.step(RANDOM_PAIR.amountAccuracy).units;

/**
 * `count` commands: mostly limit orders near a fixed mid (some crossing it),
 * cancels of recent ids (some already gone, some by the wrong user), market
 * orders (half of the buys with a quote budget), an occasional cancel-all, and
 * a sprinkle of malformed orders so the rejections run too.
 */
export function* randomCommands(seed: number, count: number): Generator<BookCommand> {
  const random = mulberry32(seed);
  const int = (lowest: number, highest: number): number =>
    lowest + Math.floor(random() * (highest - lowest + 1));
  const recentIds: string[] = [];
  const ownerOf = new Map<string, string>();
  let sequence = 0;

  const pickRecent = (): string | undefined => recentIds[int(0, recentIds.length - 1)];
  const remember = (orderId: string, userId: string): void => {
    recentIds.push(orderId);
    ownerOf.set(orderId, userId);
    if (recentIds.length > RECENT_IDS_MAX) ownerOf.delete(recentIds.shift()!);
  };

  for (let index = 0; index < count; index++) {
    const roll = random();
    const userId = `u${int(0, USER_COUNT - 1)}`;
    const cancelled = pickRecent();
    if (roll < 0.3 && cancelled !== undefined) {
      // Mostly the owner; sometimes someone else, whose cancel must be refused.
      const owner = random() < 0.95 ? ownerOf.get(cancelled)! : userId;
      yield { kind: 'cancel', orderId: cancelled, userId: owner };
      continue;
    }
    if (roll < 0.32) {
      yield { kind: 'cancelAll', userId };
      continue;
    }
    sequence += 1;
    // A rare reused id: refused while that order still rests, accepted again once it is gone.
    const orderId = random() < 0.005 ? (pickRecent() ?? `o${sequence}`) : `o${sequence}`;
    const side: Side = random() < 0.5 ? 'buy' : 'sell';
    const amount = randomAmount(random, int);
    remember(orderId, userId);
    if (roll < 0.9) {
      yield { kind: 'limit', orderId, userId, side, price: randomPrice(random, int, side), amount, sequence };
      continue;
    }
    // Market takers often come from users who never rest an order, and now and then
    // a whale sweeps a whole side, so the book also runs out of liquidity.
    const takerId = random() < 0.5 ? userId : `taker${int(0, 1)}`;
    const takerAmount = random() < 0.03 ? Dec.fromInt(10_000) : amount;
    if (side === 'buy' && random() < 0.5) {
      const quoteBudget = Dec.fromUnits(BigInt(int(0, 400_000)) * TICK_UNITS);
      yield { kind: 'market', orderId, userId: takerId, side, amount: takerAmount, quoteBudget, sequence };
    } else {
      yield { kind: 'market', orderId, userId: takerId, side, amount: takerAmount, sequence };
    }
  }
}

function randomAmount(random: () => number, int: (lowest: number, highest: number) => number): Dec {
  const roll = random();
  if (roll < 0.005) return Dec.ZERO;
  // One digit too many for the pair: rejected for precision.
  if (roll < 0.01) return Dec.fromUnits(BigInt(int(1, 5000)) * LOT_UNITS + LOT_UNITS / 10n);
  return Dec.fromUnits(BigInt(int(1, 5000)) * LOT_UNITS);
}

/** Mostly behind the mid (resting), sometimes through it (taking), rarely malformed. */
function randomPrice(
  random: () => number,
  int: (lowest: number, highest: number) => number,
  side: Side,
): Dec {
  const roll = random();
  if (roll < 0.003) return Dec.ZERO;
  if (roll < 0.006) return Dec.fromUnits(MID_PRICE_TICKS * TICK_UNITS + TICK_UNITS / 10n);
  const ticksFromMid = BigInt(int(-8, 40));
  const ticks = side === 'buy' ? MID_PRICE_TICKS - ticksFromMid : MID_PRICE_TICKS + ticksFromMid;
  return Dec.fromUnits(ticks * TICK_UNITS);
}
