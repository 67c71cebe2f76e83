import { Dec } from '@halyard/money';
import type { CycleResult, CycleSide } from '@halyard/protocol';
import { CYCLE_AMOUNT_DIGITS, winIncome } from '@halyard/rules';
import { systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
import type { DueInstant } from './cycle-open-orders.ts';

/**
 * The rules of cycle contracts (spec §7 "Cycle", AMENDMENTS A3) that both
 * modules/cycle and the money state settle with: outcomes, the transfers an
 * order and a chunk of settlements write and their ids. Pure: the callers
 * bring the prices and the time.
 */

/**
 * Orders settled per ledger transaction (the module) or per ledger batch (the
 * state): a chunk's stakes and fees transfers are named after its lowest
 * order id, so both cut the due orders at the same places.
 */
export const SETTLE_CHUNK = 10_000;

/** Where the stakes of settled contracts go and payouts come from: the exchange's own money. */
export const HOUSE = systemAccount('treasury');
/** Where an open contract's stake waits for its outcome. */
export const STAKES = systemAccount('cycle_stakes');
export const CYCLE_FEES = systemAccount('fees');

/** A cycle order as its `cycle_orders` row holds it (plain data: it is an event and a snapshot record). */
export interface CycleOrderRecord {
  orderid: number;
  user_id: number;
  pair_id: number;
  tradcoin: string;
  maincoin: string;
  paycoin: string;
  type: CycleSide;
  number: string;
  seconds: number;
  profit_gas: string;
  loss_gas: string;
  gas: string;
  open_price: string;
  open_ts: number;
  open_source: string;
  wdate: number;
  expires_at: number;
}

/** An index price as recorded: what an order opens and closes at. */
export interface CycleTick {
  coin: string;
  price: Dec;
  ts: number;
  source: string;
}

/** The rates an order copied from its duration option when it was accepted. */
export interface OrderRates {
  /** Payout on a win, a fraction of the stake. */
  profitGas: Dec;
  /** What a loss costs, a fraction of the stake (1 = the whole stake). */
  lossGas: Dec;
  /** Fee, a fraction of the payout; charged on a win only. */
  gas: Dec;
}

/** What a settlement moves, all non-negative, and the signed profit it stores. */
export interface Settlement {
  result: CycleResult;
  /** From the house to the user (win). */
  payout: Dec;
  /** From the user to the fee account, out of the payout (win). */
  fee: Dec;
  /** From the stake to the house (loss). */
  loss: Dec;
  /** payout − fee on a win, −loss on a loss, 0 on a draw. */
  lastProfit: Dec;
}

/**
 * AMENDMENTS A3: the two published prices alone decide. Up wins when the close
 * is strictly above the open, down when strictly below; equal prices are a draw.
 */
export function decideResult(side: CycleSide, open: Dec, close: Dec): CycleResult {
  const move = close.cmp(open);
  if (move === 0) return 'draw';
  const rose = move > 0;
  return rose === (side === 'buy') ? 'win' : 'loss';
}

/**
 * A void contract (no index price at its expiry instant, see
 * closeToleranceMs): no outcome, the whole stake comes back, no fee.
 */
export const VOID_SETTLEMENT: Readonly<Settlement> = Object.freeze({
  result: 'void',
  payout: Dec.ZERO,
  fee: Dec.ZERO,
  loss: Dec.ZERO,
  lastProfit: Dec.ZERO,
});

/** The money of a settlement: a draw moves nothing and the whole stake comes back. */
export function settle(side: CycleSide, stake: Dec, rates: OrderRates, open: Dec, close: Dec): Settlement {
  const result = decideResult(side, open, close);
  if (result === 'win') {
    const { payout, fee, net } = winIncome(stake, rates);
    return { result, payout, fee, loss: Dec.ZERO, lastProfit: net };
  }
  if (result === 'loss') {
    // Never more than the stake, whatever the configured rate: the hold is all that is at risk.
    const loss = Dec.min(stake.mul(rates.lossGas).floorTo(CYCLE_AMOUNT_DIGITS), stake);
    return { result, payout: Dec.ZERO, fee: Dec.ZERO, loss, lastProfit: loss.neg() };
  }
  return { result, payout: Dec.ZERO, fee: Dec.ZERO, loss: Dec.ZERO, lastProfit: Dec.ZERO };
}

/** The transfer that pays an order's stake in; settlement ids derive from the order id too, so each happens once. */
export function stakeTransferId(orderid: number): string {
  return `cycle:${orderid}:stake`;
}

/**
 * The id of what an order's settlement pays back, and of the transfers of a
 * chunk (one per pay coin: its stakes to the house, its wins' fees), named
 * after the chunk's lowest order id: that order is settled once, so each id
 * is used once.
 */
export function settleId(orderid: number, chunkLeg?: 'stakes' | 'fees', asset?: string): string {
  return chunkLeg ? `cycle:${orderid}:settle:${chunkLeg}:${asset}` : `cycle:${orderid}:settle`;
}

export function ratesOf(
  order: Pick<CycleOrderRecord, 'profit_gas' | 'loss_gas' | 'gas'>,
  parse: (text: string) => Dec = Dec.parse,
): OrderRates {
  return {
    profitGas: parse(order.profit_gas),
    lossGas: parse(order.loss_gas),
    gas: parse(order.gas),
  };
}

/**
 * How far before its expiry instant an order's closing tick may lie
 * (AMENDMENTS A3: the outcome is the index price at the expiry instant).
 * Ticks are recorded every tick interval (PRICE_TICK_MS), a little late under
 * load: two intervals, and at least a second, let one late or lost tick pass,
 * while a gap in the record (the server down, the feed stalled) leaves no
 * tick that near the expiry, and the contract is void: its stake is returned.
 * With the default 1 s ticks the tolerance is 2 s.
 */
export function closeToleranceMs(tickMs: number): number {
  return Math.max(2 * tickMs, 1000);
}

/** The closing tick: the recorded price at or just before expiry, never one older than the opening price. */
export function closingTick<Tick extends CycleTick>(
  order: CycleOrderRecord,
  recorded: Tick | null,
): Tick | CycleTick {
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
  order: CycleOrderRecord,
  stake: Dec,
  close: CycleTick,
  parse: (text: string) => Dec = Dec.parse,
): Settlement {
  return settle(order.type, stake, ratesOf(order, parse), parse(order.open_price), close.price);
}

/** `Dec.parse` remembering what it read: a chunk's orders share a few rates and opening prices. */
export function cachedParse(): (text: string) => Dec {
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

/** The ledger reference of everything an order moves: its stake, and what its settlement pays back. */
export function orderReference(orderid: number): string {
  return `cycle:${orderid}`;
}

/** The transfer that pays an order's stake from the user's spot wallet into the stakes account. */
export function stakePayment(order: CycleOrderRecord, id = stakeTransferId(order.orderid)): TransferInput {
  return {
    id,
    debit: userAccount(order.user_id, 'spot'),
    credit: STAKES,
    asset: order.paycoin,
    amount: Dec.parse(order.number),
    code: 'cycle_stake',
    reference: orderReference(order.orderid),
  };
}

/**
 * What the house pays back to the user at settlement: the stake plus the
 * profit (a win: stake + payout − fee; a draw: the stake; a loss: what the
 * loss rate leaves of the stake). A whole loss pays nothing back, so it
 * writes no transfer of its own: its stake reaches the house in its chunk's
 * stakes transfer (`ChunkTotals`).
 */
export function settlementTransfer(
  order: CycleOrderRecord,
  stake: Dec,
  outcome: Settlement,
): TransferInput | null {
  const paidBack = stake.add(outcome.lastProfit);
  if (!paidBack.isPositive()) return null;
  return {
    id: settleId(order.orderid),
    debit: HOUSE,
    credit: userAccount(order.user_id, 'spot'),
    asset: order.paycoin,
    amount: paidBack,
    code: outcome.result === 'win' ? 'cycle_payout' : 'cycle_refund',
    reference: orderReference(order.orderid),
  };
}

/**
 * A chunk's transfers between the exchange's own accounts, per pay coin:
 * its stakes from the stakes account to the house (before the house pays
 * anything back), and its wins' fees from the house to the fee account.
 * The user, the house and the fee account end where a payout and a fee paid
 * by the user would leave them. Summed as the chunk's orders are settled.
 */
export class ChunkTotals {
  private lowest = Number.POSITIVE_INFINITY;
  private readonly byCoin = new Map<string, { stakes: Dec; fees: Dec }>();

  add(order: CycleOrderRecord, stake: Dec, outcome: Settlement): void {
    this.lowest = Math.min(this.lowest, order.orderid);
    let coin = this.byCoin.get(order.paycoin);
    if (!coin) {
      coin = { stakes: Dec.ZERO, fees: Dec.ZERO };
      this.byCoin.set(order.paycoin, coin);
    }
    coin.stakes = coin.stakes.add(stake);
    coin.fees = coin.fees.add(outcome.fee);
  }

  stakes(): TransferInput[] {
    return [...this.byCoin].map(([asset, { stakes }]) => ({
      id: settleId(this.lowest, 'stakes', asset),
      debit: STAKES,
      credit: HOUSE,
      asset,
      amount: stakes,
      code: 'cycle_stakes',
      reference: this.reference(),
    }));
  }

  fees(): TransferInput[] {
    return [...this.byCoin]
      .filter(([, { fees }]) => fees.isPositive())
      .map(([asset, { fees }]) => ({
        id: settleId(this.lowest, 'fees', asset),
        debit: HOUSE,
        credit: CYCLE_FEES,
        asset,
        amount: fees,
        code: 'cycle_fee',
        reference: this.reference(),
      }));
  }

  private reference(): string {
    return `cycle-settlement:${this.lowest}`;
  }
}

/** A close as `cycle_closes` stores it: the tick orders settled at, when, and for a void one the tolerance it missed. */
export interface CycleCloseRecord {
  close_price: string;
  close_ts: number;
  close_source: string;
  settled_at: number;
  void_tolerance_ms: number | null;
}

/** An order's outcome as the reads answer it: its `cycle_settlements` row with its close. */
export interface CycleSettlementRecord extends CycleCloseRecord {
  orderid: number;
  result: CycleResult;
  last_profit: string;
  fee: string;
}

export interface SettledCycleOrder {
  order: CycleOrderRecord;
  settlement: CycleSettlementRecord;
  /** The settlement's fee as the rules figured it (the row holds its text): commissions start from it, unparsed. */
  fee: Dec;
}

/** Settlements that share one close (migration 013). */
export interface CycleSettledAtClose {
  close: CycleCloseRecord;
  settlements: CycleSettlementRecord[];
}

/** An expiry instant's close: the recorded tick at or before it, and whether it is near enough to settle. */
export interface InstantClose {
  recorded: CycleTick | null;
  /** No tick within the tolerance before the instant: its orders are void. */
  void: boolean;
}

/** An instant nothing was recorded for: void, its close the opening tick. */
export const NO_CLOSE: Readonly<InstantClose> = Object.freeze({ recorded: null, void: true });

/** What settling a chunk of due orders writes, in one ledger transaction (the module) or batch (the state). */
export interface CycleChunk {
  settled: SettledCycleOrder[];
  atCloses: CycleSettledAtClose[];
  /** Its stakes to the house first, then what the house pays back, then the fees. */
  transfers: TransferInput[];
}

/** The stored close of orders settled at `close`, at `now`; a void one names the tolerance it missed. */
function closeRow(close: CycleTick, now: number, voidToleranceMs: number | null): CycleCloseRecord {
  return {
    close_price: close.price.toString(),
    close_ts: close.ts,
    close_source: close.source,
    settled_at: now,
    void_tolerance_ms: voidToleranceMs,
  };
}

/** An order's settlement as the reads answer it: its outcome with its close. */
function settlementRow(
  order: CycleOrderRecord,
  outcome: Settlement,
  close: CycleCloseRecord,
): CycleSettlementRecord {
  return {
    orderid: order.orderid,
    result: outcome.result,
    close_price: close.close_price,
    close_ts: close.close_ts,
    close_source: close.close_source,
    last_profit: outcome.lastProfit.toString(),
    fee: outcome.fee.toString(),
    settled_at: close.settled_at,
    void_tolerance_ms: close.void_tolerance_ms,
  };
}

/**
 * Settles a chunk of due orders at `now`: each one's outcome from its
 * instant's close (`closeOf`), the settlements grouped by the close they used
 * (the void ones after, as closes of their own naming `toleranceMs`), and the
 * transfers. Built in one pass, so an order's outcome is garbage once its row
 * and transfer are made.
 */
export function settleChunk(
  due: readonly DueInstant[],
  closeOf: (instant: DueInstant) => InstantClose,
  now: number,
  toleranceMs: number,
): CycleChunk {
  const parse = cachedParse();
  const settled: SettledCycleOrder[] = [];
  // Keyed by the closing tick; a void instant's close is a row of its own (it names the tolerance).
  const atCloses = new Map<CycleTick, CycleSettledAtClose>();
  const atVoidCloses = new Map<CycleTick, CycleSettledAtClose>();
  const totals = new ChunkTotals();
  const paidBack: TransferInput[] = [];
  for (const instant of due) {
    const { recorded, void: voided } = closeOf(instant);
    const byClose = voided ? atVoidCloses : atCloses;
    for (const order of instant.orders) {
      // A void order's close is the evidence: the latest tick before expiry, too old to settle on.
      const close = closingTick(order, recorded);
      let atClose = byClose.get(close);
      if (!atClose) {
        atClose = { close: closeRow(close, now, voided ? toleranceMs : null), settlements: [] };
        byClose.set(close, atClose);
      }
      const stake = parse(order.number);
      const outcome = voided ? VOID_SETTLEMENT : settlementOf(order, stake, close, parse);
      const settlement = settlementRow(order, outcome, atClose.close);
      atClose.settlements.push(settlement);
      settled.push({ order, settlement, fee: outcome.fee });
      totals.add(order, stake, outcome);
      const transfer = settlementTransfer(order, stake, outcome);
      if (transfer) paidBack.push(transfer);
    }
  }
  return {
    settled,
    atCloses: [...atCloses.values(), ...atVoidCloses.values()],
    transfers: totals.stakes().concat(paidBack, totals.fees()),
  };
}
