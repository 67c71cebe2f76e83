import { Dec } from '@halyard/money';
import type { Clock } from '../../clock.ts';
import { BULK_MAX, type Ledger, systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
import type { IndexPriceSource, IndexTick } from '../../market/index.ts';
import type { Db } from '../../store/database.ts';
import { type OrderRates, type Settlement, settle } from './outcome.ts';
import {
  type DueInstant,
  insertSettlements,
  type OrderRow,
  type SettlementRow,
  selectDueInstants,
  selectDueOrders,
} from './store.ts';

/**
 * Orders settled per ledger transaction: one commit, a few dozen statements.
 * The bound keeps other ledger writers (spot orders) waiting for at most one
 * chunk: queued batches run between two chunks.
 */
export const SETTLE_CHUNK = 10_000;
/** Expiry instants priced per round; the orders of later instants wait for the next round. */
const INSTANTS_MAX = 1000;
/** Rounds and chunks per call (TIGER_STYLE: every loop has a bound); what is left waits for the next call. */
const ROUNDS_MAX = 100;
const CHUNKS_MAX = 1000;

/** Where cycle stakes go on a loss and payouts come from: the exchange's own money. */
export const HOUSE = systemAccount('treasury');
const FEES = systemAccount('fees');

/** The hold that reserves an order's stake; settlement ids derive from the order id too, so each happens once. */
export function stakeHoldId(orderid: number): string {
  return `cycle:${orderid}:stake`;
}

/**
 * A settlement's transfer ids. `fees` is the one transfer per chunk (and pay
 * coin) that moves its wins' fees, named after the chunk's lowest order id:
 * that order is settled once, so the id is used once.
 */
export function settleId(orderid: number, leg?: 'payout' | 'release' | 'fees'): string {
  return leg ? `cycle:${orderid}:settle:${leg}` : `cycle:${orderid}:settle`;
}

export function ratesOf(
  order: Pick<OrderRow, 'profit_gas' | 'loss_gas' | 'gas'>,
  parse: (text: string) => Dec = Dec.parse,
): OrderRates {
  return {
    profitGas: parse(order.profit_gas),
    lossGas: parse(order.loss_gas),
    gas: parse(order.gas),
  };
}

/** The closing tick: the recorded price at or just before expiry, never one older than the opening price. */
export function closingTick(order: OrderRow, recorded: IndexTick | null): IndexTick {
  if (recorded && recorded.ts >= order.open_ts) return recorded;
  // History before the opening tick was pruned (an order left unsettled past the retention):
  // the opening tick is then the latest known price at or before expiry.
  return {
    coin: order.tradcoin,
    price: Dec.parse(order.open_price),
    ts: order.open_ts,
    source: order.open_source,
  };
}

/**
 * What settling `order` (its stake read already) at `close` stores and moves.
 * `parse` reads the order's rates and opening price: a chunk passes a cached
 * one, as its orders share a few rates and opening prices.
 */
export function settlementOf(
  order: OrderRow,
  stake: Dec,
  close: IndexTick,
  parse: (text: string) => Dec = Dec.parse,
): Settlement {
  return settle(order.type, stake, ratesOf(order, parse), parse(order.open_price), close.price);
}

/**
 * The ledger transfers of one settlement, the fewest that do it: a loss posts
 * the taken part of the stake's hold (and voids the rest, if any); a draw
 * voids the hold; a win voids it and the house pays the payout less its fee.
 * The fee itself goes from the house to the fee account in one transfer per
 * chunk (`feesTransfers`): the user, the house and the fee account end where
 * a payout and a fee paid by the user would leave them.
 */
export function settlementTransfers(order: OrderRow, stake: Dec, outcome: Settlement): TransferInput[] {
  const id = order.orderid;
  const reference = `cycle:${id}`;
  const pendingId = stakeHoldId(id);
  if (outcome.result === 'loss' && outcome.loss.isPositive()) {
    const taken: TransferInput = {
      id: settleId(id),
      type: 'post_pending',
      pendingId,
      amount: outcome.loss,
      code: 'cycle_loss',
      reference,
    };
    if (outcome.loss.eq(stake)) return [taken];
    return [
      taken,
      { id: settleId(id, 'release'), type: 'void_pending', pendingId, code: 'cycle_release', reference },
    ];
  }
  const release: TransferInput = {
    id: settleId(id),
    type: 'void_pending',
    pendingId,
    code: 'cycle_release',
    reference,
  };
  const net = outcome.payout.sub(outcome.fee);
  if (outcome.result !== 'win' || !net.isPositive()) return [release];
  return [
    release,
    {
      id: settleId(id, 'payout'),
      debit: HOUSE,
      credit: userAccount(order.user_id, 'spot'),
      asset: order.paycoin,
      amount: net,
      code: 'cycle_payout',
      reference,
    },
  ];
}

/**
 * The fees of a chunk's wins, one transfer per pay coin from the house to the
 * fee account, named after the chunk's lowest order id.
 */
export function feesTransfers(settled: readonly { order: OrderRow; outcome: Settlement }[]): TransferInput[] {
  let lowest = Number.POSITIVE_INFINITY;
  const perCoin = new Map<string, Dec>();
  for (const { order, outcome } of settled) {
    lowest = Math.min(lowest, order.orderid);
    if (!outcome.fee.isPositive()) continue;
    perCoin.set(order.paycoin, (perCoin.get(order.paycoin) ?? Dec.ZERO).add(outcome.fee));
  }
  return [...perCoin].map(([asset, amount]) => ({
    id: `${settleId(lowest, 'fees')}:${asset}`,
    debit: HOUSE,
    credit: FEES,
    asset,
    amount,
    code: 'cycle_fee',
    reference: `cycle-settlement:${lowest}`,
  }));
}

export interface SettledOrder {
  order: OrderRow;
  settlement: SettlementRow;
}

export interface SettlementEngineOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  index: IndexPriceSource;
  /** Orders per ledger transaction; SETTLE_CHUNK unless a test wants several chunks. */
  chunkMax?: number;
}

/** The key of an expiry instant of one coin. */
const instantKey = (coin: string, expiresAt: number) => `${coin}|${expiresAt}`;

/**
 * The last expiry up to which every due instant was read: all of them, or,
 * when the read stopped at its limit, those before the last instant's expiry
 * (other coins may share that one; they come in the next round).
 */
function pricedUntil(instants: readonly DueInstant[], more: boolean): number {
  const last = instants[instants.length - 1]!.expires_at;
  if (!more) return last;
  const earlier = instants.findLast((instant) => instant.expires_at < last);
  return earlier?.expires_at ?? last;
}

/** `Dec.parse` remembering what it read: a chunk's orders share a few rates and opening prices. */
function cachedParse(): (text: string) => Dec {
  const parsed = new Map<string, Dec>();
  return (text) => {
    let value = parsed.get(text);
    if (!value) {
      value = Dec.parse(text);
      parsed.set(text, value);
    }
    return value;
  };
}

/**
 * Settles expired cycle orders from the recorded index history (AMENDMENTS A3).
 *
 * Nothing else decides an outcome: the closing price is the recorded tick at
 * or just before the expiry instant, the result follows from the two prices,
 * and the amounts from the rates the order copied when it was accepted.
 * The recorded prices of the due instants are read first; then each chunk of
 * orders is settled in one ledger transaction that reads which orders are
 * due (and so still open) under the ledger's lock, writes their settlement
 * rows (primary key: the order id), closes them and writes their transfers
 * (ids derived from the order ids) in one bulk, so a crash, a retry or a
 * second caller can never settle an order twice.
 */
export class SettlementEngine {
  private running: Promise<unknown> = Promise.resolve();

  private readonly chunkMax: number;

  constructor(private readonly options: SettlementEngineOptions) {
    this.chunkMax = options.chunkMax ?? SETTLE_CHUNK;
    // A chunk's transfers go in one bulk: at most two per order and one fee transfer per pay coin.
    if (!(this.chunkMax >= 1 && this.chunkMax * 3 <= BULK_MAX)) {
      throw new Error(`cycle: chunkMax ${this.chunkMax} does not fit a ledger bulk`);
    }
  }

  /**
   * Settles every open order (of `coin`, or of every coin) whose expiry is at
   * or before `cut`. Callers pass a cut up to which the price history is
   * final: the time of a just-recorded tick, or the start time after a restart.
   * Calls run one after another; answers the orders this call settled.
   */
  settleDue(cut: number, coin: string | null = null): Promise<SettledOrder[]> {
    const run = this.running.then(() => this.settleAll(cut, coin));
    this.running = run.catch(() => undefined);
    return run;
  }

  /** Waits for the calls in progress. */
  async idle(): Promise<void> {
    await this.running;
  }

  private async settleAll(cut: number, coin: string | null): Promise<SettledOrder[]> {
    const settled: SettledOrder[] = [];
    for (let round = 0; round < ROUNDS_MAX; round += 1) {
      const instants = await selectDueInstants(this.options.db, cut, coin, INSTANTS_MAX);
      if (instants.length === 0) break;
      const more = instants.length === INSTANTS_MAX;
      const closes = await this.recordedCloses(instants);
      const until = pricedUntil(instants, more);
      for (let chunk = 0; chunk < CHUNKS_MAX; chunk += 1) {
        const { part, full } = await this.settleChunk(until, coin, closes);
        settled.push(...part);
        if (!full || part.length === 0) break;
      }
      if (!more) break;
    }
    return settled;
  }

  /** The recorded tick at or just before each instant: one lookup per coin and instant. */
  private async recordedCloses(instants: readonly DueInstant[]): Promise<Map<string, IndexTick | null>> {
    const { index } = this.options;
    const closes = await Promise.all(
      instants.map((instant) => index.priceAt(instant.tradcoin, instant.expires_at)),
    );
    return new Map(
      instants.map((instant, at) => [instantKey(instant.tradcoin, instant.expires_at), closes[at]!]),
    );
  }

  /**
   * Settles up to `chunkMax` orders due by `until` whose instants are priced,
   * in one ledger transaction; `full` when there may be more.
   */
  private settleChunk(
    until: number,
    coin: string | null,
    closes: ReadonlyMap<string, IndexTick | null>,
  ): Promise<{ part: SettledOrder[]; full: boolean }> {
    const { ledger, clock } = this.options;
    return ledger.transaction(async (trx) => {
      const due = await selectDueOrders(trx, until, coin, this.chunkMax);
      const now = clock.now();
      const parse = cachedParse();
      const closePrices = new Map<IndexTick, string>();
      const chosen: { order: OrderRow; stake: Dec; outcome: Settlement; settlement: SettlementRow }[] = [];
      for (const order of due) {
        const recorded = closes.get(instantKey(order.tradcoin, order.expires_at));
        if (recorded === undefined) continue;
        const close = closingTick(order, recorded);
        const stake = Dec.parse(order.number);
        const outcome = settlementOf(order, stake, close, parse);
        let closePrice = closePrices.get(close);
        if (closePrice === undefined) {
          closePrice = close.price.toString();
          closePrices.set(close, closePrice);
        }
        chosen.push({
          order,
          stake,
          outcome,
          settlement: {
            orderid: order.orderid,
            pair_id: order.pair_id,
            user_id: order.user_id,
            result: outcome.result,
            close_price: closePrice,
            close_ts: close.ts,
            close_source: close.source,
            last_profit: outcome.lastProfit.toString(),
            fee: outcome.fee.toString(),
            settled_at: now,
          },
        });
      }
      const full = due.length === this.chunkMax;
      if (chosen.length === 0) return { part: [], full };
      await insertSettlements(
        trx,
        chosen.map(({ settlement }) => settlement),
      );
      const transfers = chosen.flatMap(({ order, stake, outcome }) =>
        settlementTransfers(order, stake, outcome),
      );
      transfers.push(...feesTransfers(chosen));
      await ledger.executeBulk(transfers, trx);
      return { part: chosen.map(({ order, settlement }) => ({ order, settlement })), full };
    });
  }
}
