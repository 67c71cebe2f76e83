// Positions and their TP/SL triggers as rows and in the state, as the engine
// and the money state both change them: the position a fill adds to, what a
// close or a liquidation takes off it, the house's one net position, and the
// caches kept in step when a position or a trigger ends.
import { Dec } from '@halyard/money';
import type { TransferInput } from '../../ledger/index.ts';
import type { ContractMarket, FuturesState } from './futures-book.ts';
import { HOUSE_OWNER } from './futures-commands.ts';
import { housePnlLeg } from './futures-legs.ts';
import { bankruptcyPrice, closeFigures, notionalOf, type PositionFigures } from './futures-margin.ts';
import type { EntrustRow, PositionRow, TdMode, TriggerRow } from './futures-rows.ts';

/** Who a position belongs to and how it is held: one open position per owner, contract, direction and margin mode. */
export interface PositionKey {
  owner: string;
  user_id: number;
  type: 'buy' | 'sell';
  td_mode: TdMode;
  lever: number;
}

/** The open position a fill of `key` adds to, if there is one. */
export function findPosition(
  state: FuturesState,
  contractId: number,
  key: PositionKey,
): PositionRow | undefined {
  for (const row of state.positions.ofOwner(key.owner)) {
    if (row.contract_id === contractId && row.type === key.type && row.td_mode === key.td_mode) {
      return row;
    }
  }
  return undefined;
}

/** A new position's row before its first fill adds to it, opened at `price` (the engine and the money state alike). */
export function newPositionFields(contractId: number, key: PositionKey, price: Dec, now: number) {
  return {
    contract_id: contractId,
    user_id: key.user_id,
    owner: key.owner,
    type: key.type,
    td_mode: key.td_mode,
    lever: key.lever,
    number: '0',
    cost: '0',
    margin: '0',
    open_price: price.toString(),
    realised: '0',
    fees: '0',
    funding: '0',
    closed_number: '0',
    close_money: '0',
    close_price: null,
    state: 'open' as const,
    wdate: now,
    closedate: null,
    updated_at: now,
  };
}

/** What a closing fill of `lots` at `price` takes off a position (see risk.closeFigures). */
export function reducePosition(
  state: FuturesState,
  position: PositionRow,
  lots: Dec,
  price: Dec,
  figures: { marginReleased: Dec; costReleased: Dec; realised: Dec },
  feePaid: Dec,
): void {
  const accuracy = state.market(position.contract_id).contract.price_accuracy;
  position.number = Dec.parse(position.number).sub(lots).toString();
  position.cost = Dec.parse(position.cost).sub(figures.costReleased).toString();
  position.margin = Dec.parse(position.margin).sub(figures.marginReleased).toString();
  position.realised = Dec.parse(position.realised).add(figures.realised).toString();
  position.fees = Dec.parse(position.fees).add(feePaid).toString();
  const closedNumber = Dec.parse(position.closed_number).add(lots);
  position.closed_number = closedNumber.toString();
  position.close_money = Dec.parse(position.close_money).add(price.mul(lots)).toString();
  position.close_price = Dec.parse(position.close_money).div(closedNumber).floorTo(accuracy).toString();
}

/**
 * A liquidated position, closed at its bankruptcy price: the owner's
 * realised loss is exactly its margin.
 */
export function closeAtBankruptcy(
  position: PositionRow,
  figures: PositionFigures,
  accuracy: number,
  now: number,
): void {
  const bankruptcy = bankruptcyPrice(figures, figures.margin).floorTo(accuracy);
  position.realised = Dec.parse(position.realised).sub(figures.margin).toString();
  position.closed_number = Dec.parse(position.closed_number).add(figures.lots).toString();
  position.close_money = Dec.parse(position.close_money).add(bankruptcy.mul(figures.lots)).toString();
  position.close_price = bankruptcy.toString();
  position.number = '0';
  position.cost = '0';
  position.margin = '0';
  position.state = 'liquidated';
  position.closedate = now;
}

/** A position about to be written: closed once it holds no lots, stamped `now`. */
export function stampPosition(position: PositionRow, now: number): void {
  if (position.state === 'open' && Dec.parse(position.number).isZero()) {
    position.state = 'closed';
    position.closedate = now;
  }
  position.updated_at = now;
}

/**
 * The caches after a position was written: an open one re-priced for the
 * liquidation scan; an ended one out of them, its active triggers cancelled
 * (answered, to be written).
 */
export function keepPositionCaches(state: FuturesState, position: PositionRow, now: number): TriggerRow[] {
  if (position.state === 'open') {
    state.refreshRisk(position);
    return [];
  }
  state.positions.delete(position.autoid);
  state.isolatedRisk.delete(position.autoid);
  const ended: TriggerRow[] = [];
  for (const trigger of [...state.triggers.values()]) {
    if (trigger.position_id !== position.autoid) continue;
    endTriggerRow(state, trigger, now);
    ended.push(trigger);
  }
  return ended;
}

/** The house's one net position in a contract, if it holds one. */
export function housePositionOf(state: FuturesState, contractId: number): PositionRow | undefined {
  for (const row of state.positions.ofOwner(HOUSE_OWNER)) if (row.contract_id === contractId) return row;
  return undefined;
}

/** The house's key: one cross position per contract, at 1×. */
export function houseKey(side: 'buy' | 'sell'): PositionKey {
  return { owner: HOUSE_OWNER, user_id: 0, type: side, td_mode: 'cross', lever: 1 };
}

/**
 * What a house fill of `lots` takes off its opposite position first (its
 * realised PnL a leg added to `legs`); answers the lots left to add.
 */
export function houseCloses(
  state: FuturesState,
  market: ContractMarket,
  existing: PositionRow,
  lots: Dec,
  price: Dec,
  legs: TransferInput[],
  id: string,
): Dec {
  const held = Dec.parse(existing.number);
  const closing = Dec.min(held, lots);
  const figures = closeFigures(state.positionFigures(existing), closing, price);
  const pnl = housePnlLeg(`${id}-pnl`, figures.realised, market.contract.maincoin);
  if (pnl) legs.push(pnl);
  reducePosition(state, existing, closing, price, figures, Dec.ZERO);
  return lots.sub(closing);
}

/** The lots a house fill adds to its position on the fill's side, at cost. */
export function houseAdds(market: ContractMarket, position: PositionRow, lots: Dec, price: Dec): void {
  position.number = Dec.parse(position.number).add(lots).toString();
  position.cost = Dec.parse(position.cost)
    .add(notionalOf(price, lots, market.unit))
    .toString();
}

// ── TP/SL triggers ────────────────────────────────────────────────────────

/** The TP/SL sent with an order, for the order's lots, on the position of its first fill. */
export function orderTriggerOf(row: EntrustRow, position: PositionRow): NewTrigger {
  const { profit_price, loss_price, number } = row;
  return { position_id: position.autoid, user_id: row.user_id, profit_price, loss_price, number };
}

/** What a new trigger names: its position, user, prices and lots. */
export type NewTrigger = Pick<
  TriggerRow,
  'position_id' | 'user_id' | 'profit_price' | 'loss_price' | 'number'
>;

/** A new trigger's row fields: active, stamped `now`. */
export function newTriggerFields(trigger: NewTrigger, now: number) {
  return { ...trigger, state: 'active' as const, fired_price: null, wdate: now, updated_at: now };
}

/** A trigger's row as it leaves the active ones, and out of the cache. */
export function endTriggerRow(
  state: FuturesState,
  trigger: TriggerRow,
  now: number,
  firedAt: Dec | null = null,
): void {
  // Every trigger that ends comes here (fired, cancelled, or its position ended): an open snapshot keeps it first.
  state.triggers.beforeChange(trigger.autoid);
  trigger.state = firedAt === null ? 'cancelled' : 'fired';
  if (firedAt !== null) trigger.fired_price = firedAt.toString();
  trigger.updated_at = now;
  state.triggers.delete(trigger.autoid);
}
