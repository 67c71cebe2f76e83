import type { Clock } from '../../clock.ts';
import { type DueInstant, OpenOrders } from '../../core/state/cycle-open-orders.ts';
import {
  type CycleChunk,
  closeToleranceMs,
  type InstantClose,
  NO_CLOSE,
  orderReference,
  SETTLE_CHUNK,
  type SettledCycleOrder,
  settleChunk,
  stakePayment,
  stakeTransferId,
} from '../../core/state/cycle-rules.ts';

export type { SettledOrder } from './store.ts';

import { BULK_MAX, type Ledger, type TransferInput } from '../../ledger/index.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { Db, Trx } from '../../store/database.ts';
import { CommissionBatch, insertCommissions, type ReferralFees } from '../referral/index.ts';
import {
  deleteHeldStakes,
  insertSettlements,
  type OrderRow,
  type SettledOrder,
  selectHeldStakes,
  selectOpenOrders,
} from './store.ts';

/** Held stakes paid in per transaction at start (migration 012). */
// The rules are core/state/cycle-rules.ts's, shared with the money state; the module's callers read them here.
export {
  closeToleranceMs,
  HOUSE,
  orderReference,
  ratesOf,
  SETTLE_CHUNK,
  STAKES,
  stakePayment,
  stakeTransferId,
} from '../../core/state/cycle-rules.ts';

const HELD_STAKES_CHUNK = 1000;
/** Chunks per call (TIGER_STYLE: every loop has a bound); what is left waits for the next call. */
const CHUNKS_MAX = 1000;

/**
 * Pays in the stake of an order accepted while stakes were holds (migration
 * 012): the hold is voided and the same amount moved to the stakes account,
 * in one linked batch, so the user's available balance does not change.
 */
export function heldStakePayment(order: OrderRow): TransferInput[] {
  const pendingId = stakeTransferId(order.orderid);
  return [
    {
      id: `${pendingId}:release`,
      type: 'void_pending',
      pendingId,
      code: 'cycle_release',
      reference: orderReference(order.orderid),
    },
    stakePayment(order, `${pendingId}:paid`),
  ];
}

/**
 * Settlement as the service and the module drive it: the SQL engine below,
 * or the sequenced core's (core-settlement.ts), which holds the open orders
 * in the money state.
 */
export interface CycleSettlement {
  /** Reads what it keeps in memory (at start). */
  load(): Promise<void>;
  /** Whether as many orders are open as may be: new orders wait until some settle. */
  readonly full: boolean;
  /** How many open orders wait for their settlement (the back office's dashboard). */
  readonly openCount: number;
  /** A user's open orders, of one pair or all, newest first. */
  openOf(userId: number, pairId: number | null): OrderRow[];
  /**
   * Settles every open order (of `coin`, or of every coin) whose expiry is at
   * or before `cut`, the price history up to `cut` being final. Calls run one
   * after another; answers the orders this call settled.
   */
  settleDue(cut: number, coin?: string | null): Promise<SettledOrder[]>;
  /** Waits for the calls in progress. */
  idle(): Promise<void>;
  /** Waits for the calls in progress and stops. */
  close(): Promise<void>;
}

export interface SettlementEngineOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  index: IndexPriceSource;
  /** Referral commissions on the wins' fees, paid in the chunk's own transaction (modules/referral). */
  referral: ReferralFees;
  /** Orders per ledger transaction; SETTLE_CHUNK unless a test wants several chunks. */
  chunkMax?: number;
}

/** The key of an expiry instant of one coin. */
const instantKey = (coin: string, expiresAt: number) => `${coin}|${expiresAt}`;

/**
 * Settles expired cycle orders from the recorded index history (AMENDMENTS A3).
 *
 * Nothing else decides an outcome: the closing price is the recorded tick at
 * or just before the expiry instant, the result follows from the two prices,
 * and the amounts from the rates the order copied when it was accepted.
 * The engine keeps the open orders in memory (`OpenOrders`, loaded from the
 * store at start); each chunk of due orders is settled in one ledger
 * transaction that writes their settlement rows (primary key: the order id),
 * closes them in the store (refusing any that is not open there) and writes
 * their transfers (ids derived from the order ids) in one bulk, so a crash, a
 * retry or a second process can never settle an order twice.
 */
export class SettlementEngine implements CycleSettlement {
  private running: Promise<unknown> = Promise.resolve();

  private readonly chunkMax: number;

  private readonly closeToleranceMs: number;

  private readonly open = new OpenOrders();

  constructor(private readonly options: SettlementEngineOptions) {
    this.chunkMax = options.chunkMax ?? SETTLE_CHUNK;
    this.closeToleranceMs = closeToleranceMs(options.index.tickMs);
    // A chunk's transfers go in one bulk: at most one per order and two per pay coin (no more pay coins than orders).
    if (!(this.chunkMax >= 1 && this.chunkMax * 3 <= BULK_MAX)) {
      throw new Error(`cycle: chunkMax ${this.chunkMax} does not fit a ledger bulk`);
    }
  }

  /**
   * Reads the open orders from the store: at start, and after a settlement
   * the store refused. Any stake still held (migration 012) is paid in first.
   */
  async load(): Promise<void> {
    // Cleared first: an order accepted while this runs is added by `opened`, and at most read again (added once).
    this.open.clear();
    await this.payHeldStakes();
    for (const order of await selectOpenOrders(this.options.db)) this.open.add(order);
  }

  /** Pays in the held stakes listed by migration 012, a thousand per transaction, and forgets them. */
  private async payHeldStakes(): Promise<void> {
    const { db, ledger } = this.options;
    for (let round = 0; round < CHUNKS_MAX; round += 1) {
      const held = await selectHeldStakes(db, HELD_STAKES_CHUNK);
      if (held.length === 0) return;
      await ledger.transaction(async (trx) => {
        await ledger.executeBulk(held.flatMap(heldStakePayment), trx);
        await deleteHeldStakes(
          trx,
          held.map((order) => order.orderid),
        );
      });
    }
  }

  /** Whether the engine holds as many open orders as it may: new orders wait until some settle. */
  get full(): boolean {
    return this.open.full;
  }

  /** How many open orders wait for their settlement (the back office's dashboard). */
  get openCount(): number {
    return this.open.size;
  }

  /** Takes an order whose acceptance has committed. */
  opened(order: OrderRow): void {
    this.open.add(order);
  }

  /** A user's open orders, of one pair or all, newest first. */
  openOf(userId: number, pairId: number | null): OrderRow[] {
    return this.open.ofUser(userId, pairId);
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

  /** Nothing to stop: waits for the calls in progress. */
  close(): Promise<void> {
    return this.idle();
  }

  private async settleAll(cut: number, coin: string | null): Promise<SettledOrder[]> {
    const settled: SettledOrder[] = [];
    const closes = new Map<string, InstantClose>();
    try {
      for (let chunk = 0; chunk < CHUNKS_MAX; chunk += 1) {
        const due = this.open.take(cut, coin, this.chunkMax);
        if (due.length === 0) break;
        await this.recordCloses(due, closes);
        const chunk = settleChunk(
          due,
          (instant) => closes.get(instantKey(instant.coin, instant.expiresAt)) ?? NO_CLOSE,
          this.options.clock.now(),
          this.closeToleranceMs,
        );
        await this.commit(chunk);
        for (const each of chunk.settled) settled.push(each);
      }
    } catch (error) {
      // The store refused (an order settled elsewhere, a ledger refusal): the next call starts from the record.
      await this.load();
      throw error;
    }
    return settled;
  }

  /**
   * Adds to `closes` the recorded tick at or just before each instant of
   * `due` not in it yet, and whether it is too old to settle (once per
   * instant, not per order).
   */
  private async recordCloses(due: readonly DueInstant[], closes: Map<string, InstantClose>): Promise<void> {
    const missing = due.filter((instant) => !closes.has(instantKey(instant.coin, instant.expiresAt)));
    const { index } = this.options;
    const recorded = await Promise.all(
      missing.map((instant) => index.priceAt(instant.coin, instant.expiresAt)),
    );
    for (const [at, instant] of missing.entries()) {
      const tick = recorded[at] ?? null;
      const tooOld = tick === null || instant.expiresAt - tick.ts > this.closeToleranceMs;
      closes.set(instantKey(instant.coin, instant.expiresAt), { recorded: tick, void: tooOld });
    }
  }

  /**
   * Stores a chunk's settlements, closes its orders and moves its money, in
   * one ledger transaction, with the referral commission rows of its wins'
   * fees (unpaid: the payout sweep credits them, referral/payouts.ts).
   */
  private commit({ settled, atCloses, transfers }: CycleChunk): Promise<void> {
    const { ledger } = this.options;
    return ledger.transaction(async (trx) => {
      await insertSettlements(trx, atCloses);
      const commissions = await this.commissionsOf(settled, trx);
      await ledger.executeBulk(transfers, trx);
      await insertCommissions(trx, commissions.rows);
    });
  }

  /** The commissions of a chunk's fees: its winners' profiles are read together, users without an inviter skipped. */
  private async commissionsOf(settled: readonly SettledCycleOrder[], trx: Trx): Promise<CommissionBatch> {
    const { referral } = this.options;
    const batch = new CommissionBatch();
    const paying = settled.filter(({ fee }) => fee.isPositive());
    await referral.preload(
      paying.map(({ order }) => order.user_id),
      trx,
    );
    const now = this.options.clock.now();
    for (const { order, fee } of paying) {
      if (referral.cachedProfile(order.user_id)?.parentId === null) continue;
      const rows = await referral.plan(
        {
          product: 'cycle',
          tradeId: orderReference(order.orderid),
          legId: `${orderReference(order.orderid)}:fee`,
          payerId: order.user_id,
          counterpartyId: null,
          coin: order.paycoin,
          fee,
          time: now,
        },
        trx,
      );
      batch.add(rows);
    }
    return batch;
  }
}
