import { Dec } from '@halyard/money';
import type { CycleSide } from '@halyard/protocol';
import { CYCLE_AMOUNT_DIGITS, checkCycleOrder } from '@halyard/rules';
import { userAccount } from '../../ledger/index.ts';
import { isLedgerRefusal } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult } from './commands.ts';
import { OpenOrders } from './cycle-open-orders.ts';
import {
  type CycleOrderRecord,
  type CycleTick,
  type InstantClose,
  NO_CLOSE,
  orderReference,
  SETTLE_CHUNK,
  type SettledCycleOrder,
  settleChunk,
  stakePayment,
} from './cycle-rules.ts';
import { applyTransfers, available, type MoneyState, tryApplyTransfers } from './money-state.ts';
import { CommissionBatch } from './referral-rules.ts';
import { commissionOf } from './spot-fees.ts';

/**
 * Cycle contracts (fixed-duration up/down) in the money state, as
 * modules/cycle accepts and settles them, with its own rules
 * (cycle-rules.ts): the same checks, order fields, transfers and ids, and
 * the same settlement chunks. What the module reads from its tables, its
 * index and its clock, the edge reads and puts in the command.
 */

/**
 * An up (buy) or down (sell) contract. The edge has checked what the state
 * cannot know (the pair and duration are listed, the pay coin accepted, the
 * user neither frozen nor in a refused region, the opening tick fresh) and
 * copies the duration option's terms and the opening tick into the command.
 */
export interface CycleOpenCommand {
  kind: 'cycleOpen';
  id?: string;
  at: number;
  userId: number;
  /** The user's bound email; none is refused (spec §5). */
  email: string | null;
  pairId: number;
  tradcoin: string;
  maincoin: string;
  paycoin: string;
  side: CycleSide;
  /** The stake, as typed. */
  number: string;
  /** The duration option: its seconds, stake bounds and rates. */
  seconds: number;
  minnumber: string;
  maxnumber: string;
  profitGas: string;
  lossGas: string;
  gas: string;
  /** The index tick the order opens at. */
  openPrice: string;
  openTs: number;
  openSource: string;
}

/**
 * An index tick of `coin`: every open order of the coin expiring at or
 * before `ts` settles. The edge sends the recorded ticks in time order (the
 * module settles on every tick too): an instant between two ticks closes at
 * the earlier one, which the state remembers. `toleranceMs` is how far
 * before its instant a close may lie (closeToleranceMs of the index's tick
 * interval); further, the order is void.
 *
 * Without `price` and `source`, a cut with no new tick: the record up to `ts`
 * is final and holds nothing after the state's latest tick (the module's
 * settlement at start, after the server was down, and by hand), so the
 * orders due by `ts` close at that tick, or are void.
 */
export interface CycleSettleCommand {
  kind: 'cycleSettle';
  id?: string;
  at: number;
  coin: string;
  price?: string;
  ts: number;
  source?: string;
  toleranceMs: number;
}

/** The open cycle orders, the next order's id, and each coin's latest tick. */
export interface CycleState {
  open: OpenOrders;
  nextOrderId: number;
  lastTicks: Map<string, CycleTick>;
}

export function createCycleState(): CycleState {
  return { open: new OpenOrders(), nextOrderId: 1, lastTicks: new Map() };
}

type Outcome = Applied<MoneyResult, MoneyEvent>;

/** Checks the order and pays its stake in; a refusal changes nothing. `emit`: Machine.apply. */
export function openCycleOrder(
  state: MoneyState,
  command: CycleOpenCommand,
  seq: number,
  emit = true,
): Outcome {
  const malformed = malformedOpen(command);
  if (malformed !== null) return refused('ledger.invalidTransfer', { field: malformed });
  const { cycle } = state;
  const account = userAccount(command.userId, 'spot');
  const refusal = checkCycleOrder({
    quantity: command.number,
    usable: available(state, account, command.paycoin).toString(),
    min: command.minnumber,
    max: command.maxnumber,
    email: command.email,
  });
  if (refusal) return refused(refusal.key, refusal.params);
  const stake = Dec.parse(command.number);
  if (!stake.hasAtMostDigits(CYCLE_AMOUNT_DIGITS))
    return refused('rules.tooManyDecimals', { digits: CYCLE_AMOUNT_DIGITS });
  if (cycle.open.full) return refused('cycle.busy');
  const order = orderOf(command, cycle.nextOrderId, stake);
  const plan = tryApplyTransfers(state, [stakePayment(order)], command.at, seq);
  if (isLedgerRefusal(plan)) {
    return plan.transferId === null
      ? refused(plan.refused)
      : refused(plan.refused, { transferId: plan.transferId });
  }
  cycle.nextOrderId += 1;
  cycle.open.add(order);
  const result: MoneyResult = { ok: true, order: { orderId: order.orderid, filled: '0', open: true } };
  if (!emit) return { result, events: [] };
  return {
    result,
    events: [
      { type: 'transfers', transfers: plan.newTransfers },
      { type: 'cycleOrderOpened', order },
    ],
  };
}

/** The order's row as the module inserts it: the stake normalised, the rates as the option holds them. */
function orderOf(command: CycleOpenCommand, orderid: number, stake: Dec): CycleOrderRecord {
  return {
    orderid,
    user_id: command.userId,
    pair_id: command.pairId,
    tradcoin: command.tradcoin,
    maincoin: command.maincoin,
    paycoin: command.paycoin,
    type: command.side,
    number: stake.toString(),
    seconds: command.seconds,
    profit_gas: command.profitGas,
    loss_gas: command.lossGas,
    gas: command.gas,
    open_price: command.openPrice,
    open_ts: command.openTs,
    open_source: command.openSource,
    wdate: command.at,
    expires_at: command.at + command.seconds * 1000,
  };
}

/** The first field a command from outside gets wrong, or null. */
function malformedOpen(command: CycleOpenCommand): string | null {
  const integers = { userId: command.userId, pairId: command.pairId, openTs: command.openTs };
  for (const [field, value] of Object.entries(integers)) if (!Number.isSafeInteger(value)) return field;
  if (!(Number.isSafeInteger(command.seconds) && command.seconds > 0)) return 'seconds';
  if (command.side !== 'buy' && command.side !== 'sell') return 'side';
  if (command.email !== null && typeof command.email !== 'string') return 'email';
  const texts = {
    tradcoin: command.tradcoin,
    maincoin: command.maincoin,
    paycoin: command.paycoin,
    openSource: command.openSource,
  };
  for (const [field, value] of Object.entries(texts)) if (typeof value !== 'string') return field;
  const decimals = {
    minnumber: command.minnumber,
    maxnumber: command.maxnumber,
    profitGas: command.profitGas,
    lossGas: command.lossGas,
    gas: command.gas,
    openPrice: command.openPrice,
  };
  for (const [field, value] of Object.entries(decimals)) {
    if (typeof value !== 'string' || Dec.tryParse(value) === null) return field;
  }
  return null;
}

/**
 * Settles every open order of the tick's coin expiring at or before its
 * time, in the module's chunks of SETTLE_CHUNK orders: per chunk its
 * settlement rows, its transfers (one ledger batch) and the commission
 * rows of its wins' fees, accrued unpaid. A refusal of a chunk's batch would be a
 * bug (the stakes are in the stakes account since each order opened): it
 * throws and stops the sequencer.
 */
export function settleCycleOrders(
  state: MoneyState,
  command: CycleSettleCommand,
  seq: number,
  emit = true,
): Outcome {
  if (!Number.isSafeInteger(command.ts)) return refused('ledger.invalidTransfer', { field: 'ts' });
  if (!(Number.isSafeInteger(command.toleranceMs) && command.toleranceMs >= 0))
    return refused('ledger.invalidTransfer', { field: 'toleranceMs' });
  if (typeof command.coin !== 'string') return refused('ledger.invalidTransfer', { field: 'coin' });
  const tick = newTickOf(command);
  if (typeof tick === 'string') return refused('ledger.invalidTransfer', { field: tick });
  const { cycle } = state;
  const closes = instantCloses(cycle.lastTicks.get(command.coin) ?? null, tick, command.toleranceMs);
  const events: MoneyEvent[] = [];
  // Bounded: each round takes at least one order, and there are at most OPEN_ORDERS_MAX.
  for (;;) {
    const due = cycle.open.take(command.ts, command.coin, SETTLE_CHUNK);
    if (due.length === 0) break;
    const chunk = settleChunk(due, closes, command.at, command.toleranceMs);
    const commissions = commissionsOf(state, chunk.settled, command.at);
    const transfers = applyTransfers(state, chunk.transfers, command.at, seq, true).newTransfers;
    if (!emit) continue;
    events.push({ type: 'cycleSettled', atCloses: chunk.atCloses }, { type: 'transfers', transfers });
    if (commissions.rows.length > 0) events.push({ type: 'referralCommissions', rows: commissions.rows });
  }
  // A tick older than the one remembered (sent late) settles nothing new: the later one stays the earlier instants' close.
  if (tick !== null && (cycle.lastTicks.get(command.coin)?.ts ?? Number.NEGATIVE_INFINITY) <= command.ts)
    cycle.lastTicks.set(command.coin, tick);
  return { result: { ok: true }, events };
}

/** The command's new tick, null for a cut with no new tick, or the field it gets wrong. */
function newTickOf(command: CycleSettleCommand): CycleTick | null | string {
  if (command.price === undefined && command.source === undefined) return null;
  const price = typeof command.price === 'string' ? Dec.tryParse(command.price) : null;
  if (price === null || !price.isPositive()) return 'price';
  if (typeof command.source !== 'string') return 'source';
  return { coin: command.coin, price, ts: command.ts, source: command.source };
}

/**
 * An instant's close as the module's `priceAt` answers it: the recorded tick
 * at or before the instant. The due instants lie after the previous tick
 * (what expired by then settled then) and at or before this one, so it is
 * this tick at its own instant and the previous one before it (always the
 * previous one for a cut with no new tick).
 */
function instantCloses(
  previous: CycleTick | null,
  tick: CycleTick | null,
  toleranceMs: number,
): (instant: { expiresAt: number }) => InstantClose {
  return ({ expiresAt }) => {
    const recorded =
      tick !== null && tick.ts <= expiresAt
        ? tick
        : previous !== null && previous.ts <= expiresAt
          ? previous
          : null;
    if (recorded === null) return NO_CLOSE;
    return { recorded, void: expiresAt - recorded.ts > toleranceMs };
  };
}

/** The commission rows of a chunk's wins' fees, in its order, accrued unpaid (modules/referral's `plan`). */
function commissionsOf(
  state: MoneyState,
  settled: readonly SettledCycleOrder[],
  at: number,
): CommissionBatch {
  const batch = new CommissionBatch();
  const { users } = state.referral;
  for (const { order, fee } of settled) {
    // Most winners have no inviter: skip them before building the charge's ids (commissionOf would skip them after).
    if (!fee.isPositive() || (users.get(order.user_id)?.parentId ?? null) === null) continue;
    const reference = orderReference(order.orderid);
    commissionOf(
      state,
      {
        product: 'cycle',
        tradeId: reference,
        legId: `${reference}:fee`,
        payerId: order.user_id,
        counterpartyId: null,
        coin: order.paycoin,
        fee,
        time: at,
      },
      batch,
    );
  }
  return batch;
}

function refused(error: string, params?: Record<string, string | number>): Outcome {
  return { result: params === undefined ? { ok: false, error } : { ok: false, error, params }, events: [] };
}

// ── the snapshot ──────────────────────────────────────────────────────────

/** The cycle part of a snapshot's header: few enough to copy at once for now (see docs/core.md). */
export interface CycleSnapshot {
  nextOrderId: number;
  /** In the order settlement takes them: chunks are cut at the same places after a load. */
  orders: CycleOrderRecord[];
  lastTicks: { coin: string; price: string; ts: number; source: string }[];
}

export function encodeCycle(cycle: CycleState): CycleSnapshot {
  return {
    nextOrderId: cycle.nextOrderId,
    orders: cycle.open.orders(),
    lastTicks: [...cycle.lastTicks.values()]
      .sort((a, b) => (a.coin < b.coin ? -1 : 1))
      .map((tick) => ({ ...tick, price: tick.price.toString() })),
  };
}

export function decodeCycle(snapshot: CycleSnapshot): CycleState {
  const cycle = createCycleState();
  cycle.nextOrderId = snapshot.nextOrderId;
  for (const order of snapshot.orders) cycle.open.add(order);
  for (const tick of snapshot.lastTicks)
    cycle.lastTicks.set(tick.coin, { ...tick, price: Dec.parse(tick.price) });
  return cycle;
}
