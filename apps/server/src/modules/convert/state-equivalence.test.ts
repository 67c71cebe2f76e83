import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prng } from '../../core/state/command-stream.ts';
import type { ConvertQuote, MoneyResult } from '../../core/state/index.ts';
import { AppError } from '../../http/errors.ts';
import { systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { SetPriceIndex } from '../../market/test-support.ts';
import { expectLedgerEquivalent, ProjectedState } from '../../projection/equivalence-support.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import { type Harness, startHarness } from '../identity/test-support.ts';
import { convertProjection } from './projection.ts';
import { ConvertService } from './service.ts';
import { type QuoteRow, convertStore as sql } from './store.ts';

/**
 * The proof that the money state's `convert` command can replace
 * ConvertService.convert (`/flash/addFlash`): one seeded stream of quote
 * requests, converts and deposits is run
 *
 *   (a) through ConvertService on a test app's database and ledger, the
 *       clock set to each step's time;
 *   (b) through the money state, its events written to a fresh database by
 *       the ledger's writer and the convert writer (projection.ts).
 *
 * Quotes move no money: the pairs request writes them straight to the quote
 * table, on both sides here (the test copies the module's rows, as one
 * database would hold them), and the edge reads the quote a convert names
 * and stamps it on the command. Converts use the user's fresh quote, or an
 * expired one, one already used, another user's or an unknown id, with
 * amounts inside and outside the pair's limits and the balance. Every answer
 * (the order's id, or the same refusal), the order rows, the used quotes, the
 * transfers, every account's totals and the state's balances must be equal.
 */

const SEED = Number(process.env.CONVERT_EQUIVALENCE_SEED ?? 19_2026);
const COMMANDS = Number(process.env.CONVERT_EQUIVALENCE_COMMANDS ?? 400);
const TIME_ZERO = Date.UTC(2026, 10, 26);
const USERS = [101, 102, 103];
const QUOTE_TTL_MS = 10_000;
const PRICES: Record<string, string[]> = { BTC: ['60000', '61234.5'], ETH: ['3000', '2987.25'] };

type Step =
  | { kind: 'fund'; at: number; batch: TransferInput[] }
  | { kind: 'quote'; at: number; userId: number }
  | { kind: 'prices'; at: number; prices: Record<string, string> }
  | { kind: 'convert'; at: number; userId: number; pick: QuotePick; amount: AmountPick };

/** Which quote a convert names. */
type QuotePick = 'fresh' | 'used' | 'old' | 'other' | 'unknown';
/** Which amount it asks: a fair one, or one that breaks a limit. */
type AmountPick = 'fair' | 'belowMin' | 'aboveMax' | 'beyondBalance' | 'empty' | 'junk' | 'precise';

type Answer =
  | { ok: true; orderId: number }
  | { ok: true; applied: true }
  | { ok: false; error: string; params?: unknown };

function* stream(seed: number, count: number): Generator<Step> {
  const random = prng(seed);
  const pick = <T>(from: readonly T[]): T => from[random(from.length)]!;
  let at = TIME_ZERO;
  yield { kind: 'prices', at: at++, prices: { BTC: PRICES.BTC![0]!, ETH: PRICES.ETH![0]! } };
  for (const userId of USERS) yield fundingOf(userId, at++, { USDT: '30000', BTC: '1.5', ETH: '20' });
  for (let index = 0; index < count; index++) {
    // Often within a quote's life, now and then well past it.
    at += random(100) < 5 ? QUOTE_TTL_MS + random(5_000) : 1 + random(800);
    const userId = pick(USERS);
    const roll = random(100);
    if (roll < 3) yield fundingOf(userId, at, { USDT: '2000', BTC: '0.1' });
    else if (roll < 6)
      yield { kind: 'prices', at, prices: { BTC: pick(PRICES.BTC!), ETH: pick(PRICES.ETH!) } };
    else if (roll < 35) yield { kind: 'quote', at, userId };
    else {
      const quote = random(100);
      const amount = random(100);
      yield {
        kind: 'convert',
        at,
        userId,
        pick:
          quote < 70 ? 'fresh' : quote < 80 ? 'used' : quote < 88 ? 'old' : quote < 95 ? 'other' : 'unknown',
        amount:
          amount < 65
            ? 'fair'
            : amount < 70
              ? 'belowMin'
              : amount < 75
                ? 'aboveMax'
                : amount < 85
                  ? 'beyondBalance'
                  : amount < 90
                    ? 'empty'
                    : amount < 95
                      ? 'junk'
                      : 'precise',
      };
    }
  }
}

function fundingOf(userId: number, at: number, amounts: Record<string, string>): Step {
  return {
    kind: 'fund',
    at,
    batch: Object.entries(amounts).map(([asset, amount]) => ({
      id: `equivalence:fund:${userId}:${asset}:${at}`,
      debit: systemAccount('treasury'),
      credit: userAccount(userId, 'spot'),
      asset,
      amount: Dec.parse(amount),
      code: 'test_funding',
    })),
  };
}

/** The amount a pick asks, from the quote's limits (FlashPair) and the seeded draw. */
function amountOf(pick: AmountPick, limits: { min: string; max: string }, draw: number): string {
  const min = Dec.parse(limits.min);
  switch (pick) {
    case 'fair':
      return min.mul(Dec.fromInt(1 + (draw % 40))).toString();
    case 'belowMin':
      return min.div(Dec.fromInt(2)).toString();
    case 'aboveMax':
      return Dec.parse(limits.max).add(min).toString();
    case 'beyondBalance':
      return min.mul(Dec.fromInt(3_000 + draw)).toString();
    case 'empty':
      return '';
    case 'junk':
      return 'lots';
    case 'precise':
      return `${limits.min}000000000000000000001`;
  }
}

function quoteOf(row: QuoteRow): ConvertQuote {
  return {
    id: row.id,
    userId: Number(row.user_id),
    from: row.from_coin,
    to: row.to_coin,
    rate: row.rate,
    expiresAt: Number(row.expires_at),
  };
}

// ── both sides ────────────────────────────────────────────────────────────

/** The quotes handed out, as the stream's converts pick them. */
interface Quotes {
  fresh: Map<number, { id: string; min: string; max: string }[]>;
  used: string[];
  all: { id: string; userId: number; min: string; max: string }[];
}

class StateSide extends ProjectedState {
  constructor(store: Store) {
    super(store, [ledgerProjection, convertProjection]);
  }
}

function answerOf(error: unknown): Answer {
  if (!(error instanceof AppError)) throw error;
  return Object.keys(error.params).length === 0
    ? { ok: false, error: error.key }
    : { ok: false, error: error.key, params: error.params };
}

function stateAnswer(result: MoneyResult): Answer {
  if (!result.ok) return result.params === undefined ? result : { ...result };
  return result.convertOrderId === undefined
    ? { ok: true, applied: true }
    : { ok: true, orderId: result.convertOrderId };
}

// ── what is compared ──────────────────────────────────────────────────────

function orderRows(db: Executor) {
  return db.selectFrom('convert_orders').selectAll().orderBy('id').execute();
}

function usedQuoteRows(db: Executor) {
  return db.selectFrom('convert_quotes').selectAll().where('used_at', 'is not', null).orderBy('id').execute();
}

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

describe('the money state in place of flash convert', () => {
  it(`writes the orders, quotes, transfers and balances the module writes (${COMMANDS} steps, seed ${SEED})`, async () => {
    const index = new SetPriceIndex();
    const service = new ConvertService({
      db: h.store.db,
      ledger: h.app.ledger,
      clock: h.clock,
      index,
      identity: h.app.identity.service,
      spread: Dec.parse('0.002'),
      quoteTtlMs: QUOTE_TTL_MS,
    });
    const quotes: Quotes = { fresh: new Map(), used: [], all: [] };
    const draw = prng(SEED + 7);
    const writeEvery = prng(SEED + 1);
    const tally = new Map<string, number>();

    /** One step on both sides; the answers. */
    async function run(next: Step): Promise<[Answer, Answer]> {
      h.clock.set(next.at);
      switch (next.kind) {
        case 'fund':
          await h.app.ledger.execute(next.batch);
          return [
            { ok: true, applied: true },
            stateAnswer(stateSide.apply({ kind: 'transfer', at: next.at, batch: next.batch })),
          ];
        case 'prices':
          for (const [coin, price] of Object.entries(next.prices)) index.prices.set(coin, Dec.parse(price));
          return [
            { ok: true, applied: true },
            { ok: true, applied: true },
          ];
        case 'quote': {
          const pairs = await service.pairs(next.userId);
          // The pairs request writes the quotes where the edge reads them: the same rows on the state's side.
          const rows = await Promise.all(
            pairs.map(async (pair) => (await sql.quote(h.store.db, pair.quoteId))!),
          );
          await sql.insertQuotes(stateSide.store.db, rows);
          quotes.fresh.set(
            next.userId,
            pairs.map((pair) => ({ id: pair.quoteId, min: pair.min, max: pair.max })),
          );
          for (const pair of pairs)
            quotes.all.push({ id: pair.quoteId, userId: next.userId, min: pair.min, max: pair.max });
          return [
            { ok: true, applied: true },
            { ok: true, applied: true },
          ];
        }
        case 'convert': {
          const chosen = chooseQuote(next, quotes, draw);
          const amount = amountOf(next.amount, chosen, draw(1_000));
          let fromModule: Answer;
          try {
            fromModule = {
              ok: true,
              orderId: (await service.convert(next.userId, { quoteId: chosen.id, amount })).id,
            };
          } catch (error) {
            fromModule = answerOf(error);
          }
          // The edge reads the quote the request names (the module's rows: one database in production).
          const row = await sql.quote(h.store.db, chosen.id);
          const fromState = stateAnswer(
            stateSide.apply({
              kind: 'convert',
              at: next.at,
              userId: next.userId,
              quote: row ? quoteOf(row) : null,
              amount,
            }),
          );
          if (fromModule.ok) quotes.used.push(chosen.id);
          const outcome = fromModule.ok ? 'converted' : fromModule.error;
          tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
          return [fromModule, fromState];
        }
      }
    }

    for (const next of stream(SEED, COMMANDS)) {
      const [fromModule, fromState] = await run(next);
      expect(fromState, JSON.stringify(next)).toEqual(fromModule);
      if (writeEvery(4) === 0) await stateSide.write();
    }
    await stateSide.write();

    const [a, b] = [h.store.db, stateSide.store.db];
    const orders = await orderRows(a);
    expect(await orderRows(b)).toEqual(orders);
    expect(await usedQuoteRows(b)).toEqual(await usedQuoteRows(a));
    await expectLedgerEquivalent(a, b, stateSide.state, { accountTimes: false });
    // The stream must exercise what it claims to: converts, and each kind of refusal.
    expect(tally.get('converted') ?? 0).toBeGreaterThan(50);
    for (const key of [
      'wallet.quoteExpired',
      'wallet.quoteNotFound',
      'rules.belowMinimum',
      'rules.insufficientBalance',
    ])
      expect(tally.get(key) ?? 0, `${key} in ${JSON.stringify([...tally])}`).toBeGreaterThan(2);
    await expectHealthyLedger(a);
    await expectHealthyLedger(b);
  });
});

/** The quote a convert names: the user's fresh one mostly, else a used, old, foreign or unknown id. */
function chooseQuote(
  next: Extract<Step, { kind: 'convert' }>,
  quotes: Quotes,
  draw: (below: number) => number,
): { id: string; min: string; max: string } {
  const fallback = { id: `unknown-${next.at}`, min: '10', max: '100000' };
  const any = <T>(from: readonly T[]): T | undefined => from[draw(Math.max(from.length, 1))];
  switch (next.pick) {
    case 'fresh':
      return any(quotes.fresh.get(next.userId) ?? []) ?? fallback;
    case 'used': {
      const id = any(quotes.used);
      return quotes.all.find((quote) => quote.id === id) ?? fallback;
    }
    case 'old':
      return any(quotes.all.filter((quote) => quote.userId === next.userId)) ?? fallback;
    case 'other':
      return any(quotes.all.filter((quote) => quote.userId !== next.userId)) ?? fallback;
    case 'unknown':
      return fallback;
  }
}
