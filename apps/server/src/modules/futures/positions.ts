// Positions and their TP/SL triggers as rows and in the state: the position
// a fill adds to, what a close or a liquidation takes off it, the house's one
// net position, and the writes that keep rows and caches in step.
import { Dec } from '@halyard/money';
import type { TransferInput } from '../../ledger/index.ts';
import type { SetTriggerPlan } from './checks.ts';
import { type CommandResult, HOUSE_OWNER } from './commands.ts';
import { housePnlLeg } from './ledger-plan.ts';
import { bankruptcyPrice, closeFigures, notionalOf, type PositionFigures } from './risk.ts';
import type { ContractMarket, FuturesState, GroupContext } from './state.ts';
import {
  type EntrustRow,
  insertPosition,
  insertTrigger,
  type PositionRow,
  savePosition,
  saveTrigger,
  type TdMode,
  type TriggerRow,
} from './store.ts';

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

/** The open position a fill adds to: one per owner, contract, direction and margin mode. */
export async function positionFor(
  group: GroupContext,
  market: ContractMarket,
  key: PositionKey,
  price: Dec,
  now: number,
): Promise<PositionRow> {
  const found = findPosition(group.state, market.contract.autoid, key);
  if (found) return found;
  const row = await insertPosition(group.trx, newPositionFields(market.contract.autoid, key, price, now));
  group.state.positions.set(row.autoid, row);
  return row;
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

/**
 * Writes a position and keeps the caches in step: an open one with lots is
 * re-priced for the liquidation scan; one at zero lots is closed (or was
 * liquidated) and leaves the caches, its active triggers cancelled.
 */
export async function persistPosition(
  group: GroupContext,
  position: PositionRow,
  now: number,
): Promise<void> {
  stampPosition(position, now);
  await savePosition(group.trx, position);
  for (const trigger of keepPositionCaches(group.state, position, now)) await saveTrigger(group.trx, trigger);
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

/**
 * The house (market maker) holds one net position per contract, without
 * margin: a fill against its position realises PnL between the margin pool
 * and the house account (a leg added to `legs`), the rest opens or adds. It
 * is never liquidated; its account backs it. Keeping it as a position keeps
 * longs equal to shorts, which makes the margin pool balance and funding exact.
 */
export async function houseFill(
  group: GroupContext,
  market: ContractMarket,
  side: 'buy' | 'sell',
  lots: Dec,
  price: Dec,
  legs: TransferInput[],
  id: string,
  now: number,
): Promise<PositionRow> {
  const { state } = group;
  const existing = housePositionOf(state, market.contract.autoid);
  let rest = lots;
  if (existing && existing.type !== side) {
    rest = houseCloses(state, market, existing, lots, price, legs, id);
    if (!rest.isPositive()) return existing;
    await persistPosition(group, existing, now);
  }
  const position =
    existing && existing.type === side
      ? existing
      : await positionFor(group, market, houseKey(side), price, now);
  houseAdds(market, position, rest, price);
  return position;
}

// ── TP/SL triggers ────────────────────────────────────────────────────────

/** The TP/SL sent with an order, for the order's lots, on the position of its first fill. */
export function orderTriggerOf(row: EntrustRow, position: PositionRow): NewTrigger {
  const { profit_price, loss_price, number } = row;
  return { position_id: position.autoid, user_id: row.user_id, profit_price, loss_price, number };
}

/** The TP/SL sent with an order, attached to the position of its first fill for the order's lots. */
export function attachOrderTrigger(
  group: GroupContext,
  row: EntrustRow,
  position: PositionRow,
  now: number,
): Promise<TriggerRow> {
  return addTrigger(group, orderTriggerOf(row, position), now);
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

/** A checked TP/SL order on a position: the existing one edited, or a new one. */
export async function writeTrigger(group: GroupContext, plan: SetTriggerPlan): Promise<CommandResult> {
  const { existing, fields } = plan;
  if (existing) {
    Object.assign(existing, fields);
    await saveTrigger(group.trx, existing);
    return { orders: [], positions: [], triggers: [{ ...existing }] };
  }
  const { profit_price, loss_price, number, updated_at } = fields;
  const trigger = await addTrigger(
    group,
    { position_id: plan.position.autoid, user_id: plan.userId, profit_price, loss_price, number },
    updated_at,
  );
  return { orders: [], positions: [], triggers: [{ ...trigger }] };
}

/** A new active trigger, written and cached. */
async function addTrigger(group: GroupContext, trigger: NewTrigger, now: number): Promise<TriggerRow> {
  const row = await insertTrigger(group.trx, newTriggerFields(trigger, now));
  group.state.triggers.set(row.autoid, row);
  return row;
}

/** A trigger leaves the active ones: fired when the mark reached it (`firedAt`), else cancelled. */
export async function endTrigger(
  group: GroupContext,
  trigger: TriggerRow,
  now: number,
  firedAt: Dec | null = null,
): Promise<void> {
  endTriggerRow(group.state, trigger, now, firedAt);
  await saveTrigger(group.trx, trigger);
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
