// Settlement: a book's events become ledger batches and rows. Per trade one
// batch with both sides' legs (opening legs first, so the margin pool is
// credited before a closing side is paid from it) and the referral
// commissions on both fees; per ended order its unused hold released. The
// touched orders and positions are written, the trades inserted.
import type { BookEvent, TradeEvent } from '@halyard/matching';
import { Dec } from '@halyard/money';
import type { ContractMarket } from '../../core/state/futures-book.ts';
import { type CommandResult, isHouse } from '../../core/state/futures-commands.ts';
import {
  addOpenFill,
  closeFillInto,
  closingPosition,
  openFillFee,
  openFillLegsOf,
} from '../../core/state/futures-fills.ts';
import type { LegId } from '../../core/state/futures-legs.ts';
import { feeOf, notionalOf } from '../../core/state/futures-margin.ts';
import {
  actionRank,
  endedOrder,
  isOpenState,
  recordFill,
  stampOrder,
  tradeRow,
} from '../../core/state/futures-orders.ts';
import type { EntrustRow, FuturesTradeRow, PositionRow, TriggerRow } from '../../core/state/futures-rows.ts';
import { accountKey, type TransferInput, userAccount } from '../../ledger/index.ts';
import { CommissionBatch, insertCommissions } from '../referral/index.ts';
import { halFee, planCommissions } from './fees.ts';
import { attachOrderTrigger, houseFill, persistPosition, positionFor } from './positions.ts';
import type { GroupContext } from './state.ts';
import { insertTrades, saveEntrust } from './store.ts';

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
 * posted from the order's hold (futures-legs.ts, `openFillLegs`). The first fill
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

/** A closing fill of `lots` at `price`: the payout, loss and fee legs (futures-legs.ts, `closeFillLegs`), the position reduced. */
async function closeFill(work: TradeWork, row: EntrustRow, price: Dec, lots: Dec): Promise<PositionRow> {
  const { group, market, legs, id } = work;
  const { state } = group;
  const position = closingPosition(state, row);
  const hal = await halFee(group, row, market, feeOf(notionalOf(price, lots, market.unit), market.gas));
  const account = userAccount(position.user_id, 'futures');
  const free = (await group.ledger.balance(accountKey(account, market.contract.maincoin), group.trx))
    .available;
  closeFillInto(state, market, row, position, price, lots, hal, free, id, legs);
  return position;
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
