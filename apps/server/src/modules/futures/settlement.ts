// Settlement: a book's events become ledger batches and rows. Per trade one
// batch with both sides' legs (opening legs first, so the margin pool is
// credited before a closing side is paid from it) and the referral
// commissions on both fees; per ended order its unused hold released. The
// touched orders and positions are written, the trades inserted.
import type { BookEvent, TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { type TransferInput, userAccount } from '../../ledger/index.ts';
import { CommissionBatch, insertCommissions } from '../referral/index.ts';
import { type CommandResult, isHouse } from './commands.ts';
import { chargeHal, halFee, planCommissions } from './fees.ts';
import { closeFillLegs, type LegId, openFillLegs, orderReference, releaseTransfer } from './ledger-plan.ts';
import { attachOrderTrigger, houseFill, persistPosition, positionFor, reducePosition } from './positions.ts';
import { closeFigures, feeOf, marginOf, notionalOf } from './risk.ts';
import type { ContractMarket, FuturesState, GroupContext } from './state.ts';
import {
  type EntrustRow,
  type EntrustState,
  type FuturesTradeRow,
  insertTrades,
  type PositionRow,
  saveEntrust,
  type TriggerRow,
} from './store.ts';

/** Answers the touched orders and positions as written (`subject`: the order being placed, touched even unfilled). */
export async function settle(
  group: GroupContext,
  market: ContractMarket,
  events: readonly BookEvent[],
  subject: number | null = null,
): Promise<CommandResult> {
  const { state, trx, effects } = group;
  const now = group.now();
  const touched = new Map<number, EntrustRow>();
  const positions = new Map<number, PositionRow>();
  const triggers: TriggerRow[] = [];
  const touch = (orderId: string): EntrustRow => {
    const row = state.open.get(Number(orderId));
    if (!row) throw new Error(`futures: order ${orderId} is in the book but not open`);
    touched.set(row.autoid, row);
    return row;
  };
  if (subject !== null) touch(String(subject));
  const trades: FuturesTradeRow[] = [];
  for (const event of events) {
    if (event.type === 'trade') {
      const maker = touch(event.makerOrderId);
      const taker = touch(event.takerOrderId);
      const tradeId = `futures:${taker.autoid}:t${trades.length}`;
      const id: LegId = (leg) => `${tradeId}:${leg}`;
      if (isHouse(maker.owner) && isHouse(taker.owner)) {
        // The house's two roles share one net position and one account: a
        // trade between them (its demo crossing) prints, and moves neither.
        recordFill(maker, event);
        recordFill(taker, event);
      } else {
        const legs: TransferInput[] = [];
        const work: TradeWork = { group, market, legs, id, triggers, now };
        const sides = [maker, taker].sort((a, b) => actionRank(a) - actionRank(b));
        const commissions = new CommissionBatch();
        for (const row of sides) {
          const feeBefore = Dec.parse(row.fee);
          const halBefore = Dec.parse(row.fee_hal);
          const position = await fill(work, row, event);
          positions.set(position.autoid, position);
          if (isHouse(row.owner)) continue;
          const counterparty = row === maker ? taker : maker;
          const legId = id(`fee-${row.autoid}`);
          await planCommissions(group, commissions, {
            market,
            row,
            counterparty,
            tradeId,
            legId,
            feeBefore,
            halBefore,
            now,
          });
        }
        // The commission rows with the trade or not at all; the payout sweep credits them (referral/payouts.ts).
        await group.ledger.execute(legs, trx);
        await insertCommissions(trx, commissions.rows);
      }
      trades.push(tradeRow(market, maker, taker, event, now));
    } else if (event.type === 'done') {
      await endOrder(group, touch(event.orderId), event, now);
    } else if (event.type === 'rejected') {
      throw new Error(`futures: the book rejected a checked order (${event.reason})`);
    }
  }
  for (const row of touched.values()) {
    stampOrder(row, now);
    await saveEntrust(trx, row);
    if (!isOpenState(row.state)) state.open.delete(row.autoid);
  }
  for (const position of positions.values()) await persistPosition(group, position, now);
  await insertTrades(
    trx,
    trades.map(({ autoid: _autoid, ...trade }) => trade),
  );
  // The latest trades at once, not after the group: a later command of the group reads the latest price
  // (a market order's hold), and the money state, which knows no groups, reads it after each command.
  state.refreshMarkets({ contracts: new Set([market.contract.autoid]), trades });
  effects.trades.push(...trades);
  effects.contracts.add(market.contract.autoid);
  return {
    orders: [...touched.values()].map((row) => ({ ...row })),
    positions: [...positions.values()].map((row) => ({ ...row })),
    triggers,
  };
}

/** A touched order about to be written: an open one is `section` once it traded, stamped `now`. */
export function stampOrder(row: EntrustRow, now: number): void {
  if (isOpenState(row.state))
    row.state = Dec.parse(row.unfilled).lt(Dec.parse(row.number)) ? 'section' : 'unfilled';
  row.updated_at = now;
}

/** One trade being settled: its market, the batch its legs go into, its leg ids, the triggers its fills attach. */
interface TradeWork {
  group: GroupContext;
  market: ContractMarket;
  legs: TransferInput[];
  id: LegId;
  triggers: TriggerRow[];
  now: number;
}

/** One side of a trade: the house nets its one position, a user opens or closes. */
async function fill(work: TradeWork, row: EntrustRow, trade: TradeEvent): Promise<PositionRow> {
  const { group, market, legs, id, now } = work;
  recordFill(row, trade);
  if (isHouse(row.owner)) {
    return houseFill(group, market, row.type, trade.amount, trade.price, legs, id(`house-${row.type}`), now);
  }
  if (row.action === 'open') return openFill(work, row, trade);
  return closeFill(work, row, trade.price, trade.amount);
}

/**
 * An opening fill: margin = notional / lever and fee = notional × gas are
 * posted from the order's hold (ledger-plan.openFillLegs). The first fill
 * attaches the order's TP/SL to the position as a trigger for the order's lots.
 */
async function openFill(work: TradeWork, row: EntrustRow, trade: TradeEvent): Promise<PositionRow> {
  const { group, market, legs, id, now } = work;
  const hal = await halFee(group, row, market, openFillFee(market, trade));
  const figures = openFillLegsOf(market, row, trade, hal, id, legs);
  const position = await positionFor(group, market, row, trade.price, now);
  const firstFill = addOpenFill(row, position, trade, figures);
  if (firstFill && (row.profit_price !== null || row.loss_price !== null)) {
    work.triggers.push(await attachOrderTrigger(group, row, position, now));
  }
  return position;
}

/** An opening fill's fee in the margin coin: notional × gas. */
export function openFillFee(market: ContractMarket, trade: TradeEvent): Dec {
  return feeOf(notionalOf(trade.price, trade.amount, market.unit), market.gas);
}

/** What an opening fill adds to its order and position. */
export interface OpenFillFigures {
  notional: Dec;
  margin: Dec;
  fee: Dec;
  /** The fee in the margin coin: none when it was paid in HAL. */
  feeInCoin: Dec;
}

/**
 * An opening fill's legs into `legs` (the fee in HAL, `hal`, after them) and
 * the order's HAL fee recorded; answers its figures.
 */
export function openFillLegsOf(
  market: ContractMarket,
  row: EntrustRow,
  trade: TradeEvent,
  hal: Dec | null,
  id: LegId,
  legs: TransferInput[],
): OpenFillFigures {
  const notional = notionalOf(trade.price, trade.amount, market.unit);
  const margin = marginOf(notional, row.lever);
  const fee = feeOf(notional, market.gas);
  const leg = `${row.type}-open`;
  legs.push(
    ...openFillLegs({
      id,
      leg,
      autoid: row.autoid,
      userId: row.user_id,
      asset: market.contract.maincoin,
      margin,
      fee,
      feeInHal: !!hal,
    }),
  );
  if (hal) chargeHal(legs, id(`${leg}-fee-hal`), row, hal, orderReference(row.autoid));
  return { notional, margin, fee, feeInCoin: hal ? Dec.ZERO : fee };
}

/** The fill's figures added to its order and its position; answers whether it was the order's first fill. */
export function addOpenFill(
  row: EntrustRow,
  position: PositionRow,
  trade: TradeEvent,
  figures: OpenFillFigures,
): boolean {
  const { notional, margin, fee, feeInCoin } = figures;
  row.hold_spent = Dec.parse(row.hold_spent).add(margin).add(fee).toString();
  row.fee = Dec.parse(row.fee).add(feeInCoin).toString();
  row.margin = Dec.parse(row.margin).add(margin).toString();
  position.number = Dec.parse(position.number).add(trade.amount).toString();
  position.cost = Dec.parse(position.cost).add(notional).toString();
  position.margin = Dec.parse(position.margin).add(margin).toString();
  position.fees = Dec.parse(position.fees).add(feeInCoin).toString();
  const firstFill = row.position_id === null;
  row.position_id = position.autoid;
  return firstFill;
}

/** A closing fill of `lots` at `price`: the payout, loss and fee legs (ledger-plan.closeFillLegs), the position reduced. */
async function closeFill(work: TradeWork, row: EntrustRow, price: Dec, lots: Dec): Promise<PositionRow> {
  const { group, market, legs, id } = work;
  const { state } = group;
  const position = closingPosition(state, row);
  const hal = await halFee(group, row, market, feeOf(notionalOf(price, lots, market.unit), market.gas));
  const account = userAccount(position.user_id, 'futures');
  const free = (await group.ledger.balance({ ...account, asset: market.contract.maincoin }, group.trx))
    .available;
  closeFillInto(state, market, row, position, price, lots, hal, free, id, legs);
  return position;
}

/** The open position a closing order closes. */
export function closingPosition(state: FuturesState, row: EntrustRow): PositionRow {
  const position = state.positions.get(row.position_id ?? -1);
  if (!position) throw new Error(`futures: close order ${row.autoid} has no open position`);
  return position;
}

/**
 * A closing fill's legs into `legs`, given the fee in HAL (`hal`, or null)
 * and the owner's free futures balance before the trade (`free`); the
 * order's fee and the position reduced.
 */
export function closeFillInto(
  state: FuturesState,
  market: ContractMarket,
  row: EntrustRow,
  position: PositionRow,
  price: Dec,
  lots: Dec,
  hal: Dec | null,
  free: Dec,
  id: LegId,
  legs: TransferInput[],
): void {
  const figures = closeFigures(state.positionFigures(position), lots, price);
  const notional = notionalOf(price, lots, market.unit);
  // Paid in HAL, nothing of the fee comes out of the position or the wallet.
  const fee = hal ? Dec.ZERO : feeOf(notional, market.gas);
  const account = userAccount(position.user_id, 'futures');
  const asset = market.contract.maincoin;
  const leg = `${row.type}-close`;
  const cross = position.td_mode === 'cross';
  const gross = figures.marginReleased.add(figures.realised);
  const close = closeFillLegs({ id, leg, autoid: row.autoid, account, asset, cross, gross, fee, free });
  legs.push(...close.legs);
  if (hal) chargeHal(legs, id(`${leg}-fee-hal`), row, hal, orderReference(row.autoid));
  row.fee = Dec.parse(row.fee).add(close.feePaid).toString();
  reducePosition(state, position, lots, price, figures, close.feePaid);
}

/**
 * An order left the book: filled, or cancelled (by its owner, for want of
 * liquidity, by self-trade prevention). What its hold still reserves is released.
 */
async function endOrder(
  group: GroupContext,
  row: EntrustRow,
  done: Extract<BookEvent, { type: 'done' }>,
  now: number,
): Promise<void> {
  const release = endedOrder(row, done, now);
  if (release) await group.ledger.execute([release], group.trx);
}

/** An ended order's row (filled, or cancelled with or without fills); answers the release of its hold's rest, if any. */
export function endedOrder(
  row: EntrustRow,
  done: Extract<BookEvent, { type: 'done' }>,
  now: number,
): TransferInput | null {
  const filled = Dec.parse(row.unfilled).lt(Dec.parse(row.number));
  row.state = done.status === 'filled' ? 'all' : filled ? 'uncancel' : 'cancel';
  row.cancel_reason = done.cancelReason;
  row.updated_at = now;
  const rest = Dec.parse(row.held).sub(Dec.parse(row.hold_spent));
  return rest.isPositive() ? releaseTransfer(row.autoid) : null;
}

/** An order's filled figures after one of its trades. */
export function recordFill(row: EntrustRow, trade: TradeEvent): void {
  row.unfilled = Dec.parse(row.unfilled).sub(trade.amount).toString();
  row.deal_money = Dec.parse(row.deal_money).add(trade.quoteAmount).toString();
}

/** Opening sides settle first, then the house, then closing sides (paid from the pool the openings fund). */
export function actionRank(row: EntrustRow): number {
  if (isHouse(row.owner)) return 1;
  return row.action === 'open' ? 0 : 2;
}

export function isOpenState(state: EntrustState): boolean {
  return state === 'unfilled' || state === 'section';
}

export function tradeRow(
  market: ContractMarket,
  maker: EntrustRow,
  taker: EntrustRow,
  trade: TradeEvent,
  now: number,
): FuturesTradeRow {
  return {
    autoid: 0,
    contract_id: market.contract.autoid,
    maker_order_id: maker.autoid,
    taker_order_id: taker.autoid,
    taker_side: trade.takerSide,
    price: trade.price.toString(),
    number: trade.amount.toString(),
    wdate: now,
  };
}
