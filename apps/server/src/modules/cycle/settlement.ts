import { Dec } from '@halyard/money';
import type { Clock } from '../../clock.ts';
import {
  BATCH_MAX,
  type Ledger,
  systemAccount,
  type TransferInput,
  userAccount,
} from '../../ledger/index.ts';
import type { IndexPriceSource, IndexTick } from '../../market/index.ts';
import type { Db } from '../../store/database.ts';
import { type OrderRates, type Settlement, settle } from './outcome.ts';
import {
  insertSettlements,
  type OrderRow,
  type SettlementRow,
  selectDueOrders,
  selectStillOpen,
} from './store.ts';

/** Orders settled per transaction (one commit, one fsync); their transfers go in ledger batches of BATCH_MAX. */
export const SETTLE_CHUNK = 2000;
/** Chunks per call (TIGER_STYLE: every loop has a bound); what is left waits for the next call. */
const CHUNKS_MAX = 10_000;

/** Where cycle stakes go on a loss and payouts come from: the exchange's own money. */
export const HOUSE = systemAccount('treasury');
const FEES = systemAccount('fees');

/** The hold that reserves an order's stake; settlement ids derive from the order id too, so each happens once. */
export function stakeHoldId(orderid: number): string {
  return `cycle:${orderid}:stake`;
}

export function settleId(orderid: number, leg?: 'payout' | 'fee' | 'release'): string {
  return leg ? `cycle:${orderid}:settle:${leg}` : `cycle:${orderid}:settle`;
}

export function ratesOf(order: Pick<OrderRow, 'profit_gas' | 'loss_gas' | 'gas'>): OrderRates {
  return {
    profitGas: Dec.parse(order.profit_gas),
    lossGas: Dec.parse(order.loss_gas),
    gas: Dec.parse(order.gas),
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

/** What settling `order` at `close` stores and moves. */
export function settlementOf(order: OrderRow, close: IndexTick): Settlement {
  return settle(
    order.type,
    Dec.parse(order.number),
    ratesOf(order),
    Dec.parse(order.open_price),
    close.price,
  );
}

/** The ledger transfers of one settlement: release or take the stake, pay a win and its fee. */
export function settlementTransfers(order: OrderRow, outcome: Settlement): TransferInput[] {
  const id = order.orderid;
  const user = userAccount(order.user_id, 'spot');
  const reference = `cycle:${id}`;
  const pendingId = stakeHoldId(id);
  const asset = order.paycoin;
  if (outcome.result === 'loss' && outcome.loss.isPositive()) {
    const taken: TransferInput = {
      id: settleId(id),
      type: 'post_pending',
      pendingId,
      amount: outcome.loss,
      code: 'cycle_loss',
      reference,
    };
    if (outcome.loss.eq(Dec.parse(order.number))) return [taken];
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
  if (outcome.result !== 'win') return [release];
  const transfers: TransferInput[] = [release];
  if (outcome.payout.isPositive()) {
    transfers.push({
      id: settleId(id, 'payout'),
      debit: HOUSE,
      credit: user,
      asset,
      amount: outcome.payout,
      code: 'cycle_payout',
      reference,
    });
  }
  if (outcome.fee.isPositive()) {
    transfers.push({
      id: settleId(id, 'fee'),
      debit: user,
      credit: FEES,
      asset,
      amount: outcome.fee,
      code: 'cycle_fee',
      reference,
    });
  }
  return transfers;
}

/** Splits transfers into ledger batches, never splitting one order's transfers (they share a reference). */
function batchesOf(transfers: readonly TransferInput[]): TransferInput[][] {
  const batches: TransferInput[][] = [];
  let current: TransferInput[] = [];
  for (const transfer of transfers) {
    const startsOrder = current.length > 0 && transfer.reference !== current[current.length - 1]?.reference;
    if (current.length >= BATCH_MAX - 2 && startsOrder) {
      batches.push(current);
      current = [];
    }
    current.push(transfer);
  }
  if (current.length > 0) batches.push(current);
  return batches;
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
}

/**
 * Settles expired cycle orders from the recorded index history (AMENDMENTS A3).
 *
 * Nothing else decides an outcome: the closing price is the recorded tick at
 * or just before the expiry instant, the result follows from the two prices,
 * and the amounts from the rates the order copied when it was accepted.
 * Each chunk of orders is settled in one ledger transaction that re-reads which
 * of them are still open, writes their settlement rows (primary key: the order
 * id) and their transfers (ids derived from the order id), so a crash, a
 * retry or a second caller can never settle an order twice.
 */
export class SettlementEngine {
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SettlementEngineOptions) {}

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
    const closes = new Map<string, Promise<IndexTick | null>>();
    for (let chunk = 0; chunk < CHUNKS_MAX; chunk += 1) {
      const due = await selectDueOrders(this.options.db, cut, coin, SETTLE_CHUNK);
      if (due.length === 0) break;
      const planned = await Promise.all(
        due.map(async (order) => {
          const close = closingTick(order, await this.recordedClose(order, closes));
          return { order, close, outcome: settlementOf(order, close) };
        }),
      );
      settled.push(...(await this.commit(planned)));
      if (due.length < SETTLE_CHUNK) break;
    }
    return settled;
  }

  /** One lookup per coin and expiry instant: orders opened in the same second share it. */
  private recordedClose(
    order: OrderRow,
    closes: Map<string, Promise<IndexTick | null>>,
  ): Promise<IndexTick | null> {
    const key = `${order.tradcoin}|${order.expires_at}`;
    let close = closes.get(key);
    if (!close) {
      close = this.options.index.priceAt(order.tradcoin, order.expires_at);
      closes.set(key, close);
    }
    return close;
  }

  private commit(
    planned: { order: OrderRow; close: IndexTick; outcome: Settlement }[],
  ): Promise<SettledOrder[]> {
    const { ledger, clock } = this.options;
    return ledger.transaction(async (trx) => {
      const open = await selectStillOpen(
        trx,
        planned.map(({ order }) => order.orderid),
      );
      const now = clock.now();
      const chosen = planned
        .filter(({ order }) => open.has(order.orderid))
        .map(({ order, close, outcome }) => ({
          order,
          outcome,
          settlement: {
            orderid: order.orderid,
            pair_id: order.pair_id,
            user_id: order.user_id,
            result: outcome.result,
            close_price: close.price.toString(),
            close_ts: close.ts,
            close_source: close.source,
            last_profit: outcome.lastProfit.toString(),
            fee: outcome.fee.toString(),
            settled_at: now,
          },
        }));
      await insertSettlements(
        trx,
        chosen.map(({ settlement }) => settlement),
      );
      const batch = chosen.flatMap(({ order, outcome }) => settlementTransfers(order, outcome));
      for (const part of batchesOf(batch)) await ledger.execute(part, trx);
      return chosen.map(({ order, settlement }) => ({ order, settlement }));
    });
  }
}
