import { randomBytes } from 'node:crypto';
import { Dec } from '@halyard/money';
import { CODE } from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import {
  type ConvertQuote,
  convertTransfers,
  FLASH_LIMITS,
  isConvertRefusal,
  planConvert,
} from '../../core/state/convert.ts';
import type { ConvertOrderRecord, MoneyEvent } from '../../core/state/index.ts';
import { badRequest } from '../../http/errors.ts';
import { type Ledger, userAccount } from '../../ledger/index.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { OwnEvents, refusalError } from '../../money-core/submit.ts';
import type { Db } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import { type ConvertOrderRow, type QuoteRow, convertStore as sql } from './store.ts';

export { FLASH_LIMITS };

/** Rates keep 12 decimals (1 USDT is about 0.00001 BTC). */
const RATE_DIGITS = 12;
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
  /**
   * The sequenced core, when convert runs on it (issue 19's cut-over, which
   * tests and benches drive until every money module is on it): an exchange
   * is the state's `convert` command instead of a SQL transaction.
   */
  core?: MoneyCoreHandle;
}

/** The refusal that names something missing: answered 404. */
const NOT_FOUND: ReadonlyMap<string, number> = new Map([['wallet.quoteNotFound', CODE.notFound]]);

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

type ConvertOrderEvent = Extract<MoneyEvent, { type: 'convertOrder' }>;

function isConvertOrder(event: MoneyEvent): event is ConvertOrderEvent {
  return event.type === 'convertOrder';
}

/** The order as the state wrote it (the row the projector will write): its decimals are canonical. */
function recordOfState(order: ConvertOrderRecord): ExchangeRecord {
  const { orderId, from, to, consumed, received, rate, at } = order;
  return { id: orderId, from, to, consumed, received, rate, time: at };
}

function recordOf(row: ConvertOrderRow): ExchangeRecord {
  return {
    id: Number(row.id),
    from: row.from_coin,
    to: row.to_coin,
    consumed: Dec.canonical(row.consumed),
    received: Dec.canonical(row.received),
    rate: Dec.canonical(row.rate),
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
  /** On the core: the orders the converts wrote, which their replies show. */
  private readonly orders: OwnEvents<ConvertOrderEvent> | null;

  constructor(private readonly options: ConvertServiceOptions) {
    if (options.spread.isNegative() || options.spread.gte(Dec.ONE))
      throw new Error('spread must be in [0, 1)');
    this.orders = options.core ? new OwnEvents(options.core, isConvertOrder) : null;
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
   *
   * The checks run here on both paths, on what SQL holds, so a refusal is the
   * same in the same order (the freeze after the money checks); on the core
   * the state makes them again on its own balances, and its answer decides.
   */
  async convert(userId: number, input: { quoteId: string; amount: string }): Promise<ExchangeRecord> {
    const { db, ledger, clock, identity } = this.options;
    const row = await sql.quote(db, input.quoteId);
    const quote = row ? quoteOf(row) : null;
    const now = clock.now();
    const usable = quote
      ? (await ledger.balance({ ...userAccount(userId, 'spot'), asset: quote.from })).available
      : Dec.ZERO;
    const planned = planConvert({
      quote,
      userId,
      at: now,
      used: row !== undefined && row.used_at !== null,
      amount: input.amount,
      usable,
    });
    if (isConvertRefusal(planned)) throw refusalError(planned.key, planned.params, NOT_FOUND);
    // Checked by planConvert: a quote of this user.
    const used = quote!;
    await identity.assertNotFrozen(userId);
    if (this.orders)
      return this.convertOnCore(this.orders, { userId, quote: used, amount: input.amount, at: now });
    const order = await ledger.transaction(async (trx) => {
      if (!(await sql.useQuote(trx, used.id, now))) throw badRequest('wallet.quoteExpired');
      const inserted = await sql.insertOrder(trx, {
        user_id: userId,
        quote_id: used.id,
        from_coin: used.from,
        to_coin: used.to,
        consumed: planned.consumed.toString(),
        received: planned.received.toString(),
        rate: planned.rate.toString(),
        created_at: now,
      });
      await ledger.execute(convertTransfers(Number(inserted.id), used, planned), trx);
      return inserted;
    });
    return recordOf(order);
  }

  /**
   * The `convert` command, answered as soon as it is durable with the order
   * it wrote; the user's next request waits until SQL holds it.
   */
  private async convertOnCore(
    orders: OwnEvents<ConvertOrderEvent>,
    exchange: { userId: number; quote: ConvertQuote; amount: string; at: number },
  ): Promise<ExchangeRecord> {
    const { events } = await orders.submit(exchange.userId, { kind: 'convert', ...exchange }, NOT_FOUND);
    const [written] = events;
    if (!written) throw new Error('convert: the command wrote no order');
    return recordOfState(written.order);
  }

  async records(userId: number, page: number, limit: number): Promise<ExchangeRecord[]> {
    return (await sql.userOrders(this.options.db, userId, (page - 1) * limit, limit)).map(recordOf);
  }
}
