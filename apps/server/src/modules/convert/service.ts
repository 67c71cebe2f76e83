import { randomBytes } from 'node:crypto';
import { Dec } from '@halyard/money';
import { checkConvert, type RuleError } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { type Ledger, systemAccount, userAccount } from '../../ledger/index.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { Db } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import { type ConvertOrderRow, convertStore as sql } from './store.ts';

/** Per consumed coin, the smallest and largest amount one exchange may consume (spec §5, §9; demo figures). */
export const FLASH_LIMITS: Record<string, { min: string; max: string }> = {
  USDT: { min: '10', max: '100000' },
  BTC: { min: '0.0001', max: '2' },
  ETH: { min: '0.005', max: '50' },
  BNB: { min: '0.02', max: '200' },
  SOL: { min: '0.1', max: '1000' },
  HAL: { min: '10', max: '1000000' },
};

/** Rates keep 12 decimals (1 USDT is about 0.00001 BTC); what the user receives keeps 8 (spec §9). */
const RATE_DIGITS = 12;
const RECEIVED_DIGITS = 8;
/** Expired quotes are kept this long (an answer to a late addFlash says "expired", not "unknown"). */
const QUOTE_KEEP_MS = 10 * 60_000;

export interface FlashPair {
  /** The coin consumed and the coin received. */
  from: string;
  to: string;
  min: string;
  max: string;
  /** How much `to` one `from` buys: the index price less the spread. */
  rate: string;
  /** The spread, as a fraction: the fee the rate already takes (shown before the user confirms). */
  feeRate: string;
  quoteId: string;
  expiresAt: number;
}

export interface ExchangeRecord {
  id: number;
  from: string;
  to: string;
  consumed: string;
  received: string;
  rate: string;
  time: number;
}

export interface ConvertServiceOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  index: IndexPriceSource;
  identity: IdentityService;
  /** The rate is the index price less this fraction. */
  spread: Dec;
  quoteTtlMs: number;
}

function throwIf(error: RuleError | null): void {
  if (error) throw badRequest(error.key, error.params);
}

function recordOf(row: ConvertOrderRow): ExchangeRecord {
  return {
    id: Number(row.id),
    from: row.from_coin,
    to: row.to_coin,
    consumed: Dec.parse(row.consumed).toString(),
    received: Dec.parse(row.received).toString(),
    rate: Dec.parse(row.rate).toString(),
    time: Number(row.created_at),
  };
}

/**
 * Flash exchange (spec §2 /coinConvert, §7 Flash): each priced coin against
 * the quote coin, both ways, at the index price less a configured spread. A
 * quote locks its rate for a few seconds; the exchange is two ledger legs
 * through the treasury (the user's coin in, the other coin out) committed
 * with the record and the quote's single use.
 */
export class ConvertService {
  constructor(private readonly options: ConvertServiceOptions) {
    if (options.spread.isNegative() || options.spread.gte(Dec.ONE))
      throw new Error('spread must be in [0, 1)');
  }

  /** Every pair with a current price, each with a fresh quote for this user. */
  async pairs(userId: number): Promise<FlashPair[]> {
    const { db, clock, quoteTtlMs } = this.options;
    const now = clock.now();
    const expiresAt = now + quoteTtlMs;
    const pairs = this.pricedPairs().map((pair) => ({
      ...pair,
      quoteId: randomBytes(16).toString('hex'),
      expiresAt,
    }));
    await sql.pruneQuotes(db, now - QUOTE_KEEP_MS);
    await sql.insertQuotes(
      db,
      pairs.map((pair) => ({
        id: pair.quoteId,
        user_id: userId,
        from_coin: pair.from,
        to_coin: pair.to,
        rate: pair.rate,
        expires_at: expiresAt,
        used_at: null,
      })),
    );
    return pairs;
  }

  private pricedPairs(): Omit<FlashPair, 'quoteId' | 'expiresAt'>[] {
    const { index, spread } = this.options;
    const keep = Dec.ONE.sub(spread);
    const quote = index.quote;
    const pairs: Omit<FlashPair, 'quoteId' | 'expiresAt'>[] = [];
    for (const coin of index.coins()) {
      const price = index.current(coin)?.price;
      const sell = FLASH_LIMITS[coin];
      const buy = FLASH_LIMITS[quote];
      if (!price?.isPositive() || !sell || !buy) continue;
      const feeRate = spread.toString();
      pairs.push({
        from: coin,
        to: quote,
        ...sell,
        rate: price.mul(keep).floorTo(RATE_DIGITS).toString(),
        feeRate,
      });
      pairs.push({
        from: quote,
        to: coin,
        ...buy,
        rate: keep.div(price).floorTo(RATE_DIGITS).toString(),
        feeRate,
      });
    }
    return pairs;
  }

  /**
   * Spec §5 "Transfer and exchange": an amount, covered, within the pair's
   * minimum and maximum; and a quote of this user that has not expired or
   * been used. A refusal changes nothing.
   */
  async convert(userId: number, input: { quoteId: string; amount: string }): Promise<ExchangeRecord> {
    const { db, ledger, clock, identity } = this.options;
    const quote = await sql.quote(db, input.quoteId);
    if (!quote || Number(quote.user_id) !== userId) throw notFound('wallet.quoteNotFound');
    const now = clock.now();
    if (quote.used_at !== null || now > Number(quote.expires_at)) throw badRequest('wallet.quoteExpired');
    const limits = FLASH_LIMITS[quote.from_coin];
    if (!limits) throw badRequest('wallet.pairUnavailable');
    const source = await ledger.balance({ ...userAccount(userId, 'spot'), asset: quote.from_coin });
    throwIf(checkConvert({ amount: input.amount, usable: source.available.toString(), ...limits }));
    await identity.assertNotFrozen(userId);
    const consumed = Dec.parse(input.amount);
    const rate = Dec.parse(quote.rate);
    const received = consumed.mul(rate).floorTo(RECEIVED_DIGITS);
    if (!received.isPositive()) throw badRequest('rules.amountNotPositive');
    const row = await ledger.transaction(async (trx) => {
      if (!(await sql.useQuote(trx, quote.id, now))) throw badRequest('wallet.quoteExpired');
      const order = await sql.insertOrder(trx, {
        user_id: userId,
        quote_id: quote.id,
        from_coin: quote.from_coin,
        to_coin: quote.to_coin,
        consumed: consumed.toString(),
        received: received.toString(),
        rate: rate.toString(),
        created_at: now,
      });
      const reference = `convert:${order.id}`;
      await ledger.execute(
        [
          {
            id: `${reference}:in`,
            code: 'convert',
            reference,
            debit: userAccount(userId, 'spot'),
            credit: systemAccount('treasury'),
            asset: quote.from_coin,
            amount: consumed,
          },
          {
            id: `${reference}:out`,
            code: 'convert',
            reference,
            debit: systemAccount('treasury'),
            credit: userAccount(userId, 'spot'),
            asset: quote.to_coin,
            amount: received,
          },
        ],
        trx,
      );
      return order;
    });
    return recordOf(row);
  }

  async records(userId: number, page: number, limit: number): Promise<ExchangeRecord[]> {
    return (await sql.userOrders(this.options.db, userId, (page - 1) * limit, limit)).map(recordOf);
  }
}
