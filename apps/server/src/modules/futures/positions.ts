// Positions and their TP/SL triggers as rows and in the state: the position
// a fill adds to, what a close or a liquidation takes off it, the house's one
// net position, and the writes that keep rows and caches in step.
import type { Dec } from '@halyard/money';
import type { ContractMarket } from '../../core/state/futures-book.ts';
import type { SetTriggerPlan } from '../../core/state/futures-checks.ts';
import type { CommandResult } from '../../core/state/futures-commands.ts';
import {
  endTriggerRow,
  findPosition,
  houseAdds,
  houseCloses,
  houseKey,
  housePositionOf,
  keepPositionCaches,
  type NewTrigger,
  newPositionFields,
  newTriggerFields,
  orderTriggerOf,
  type PositionKey,
  stampPosition,
} from '../../core/state/futures-positions.ts';
import type { EntrustRow, PositionRow, TriggerRow } from '../../core/state/futures-rows.ts';
import type { TransferInput } from '../../ledger/index.ts';
import type { GroupContext } from './state.ts';
import { insertPosition, insertTrigger, savePosition, saveTrigger } from './store.ts';

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

/** The TP/SL sent with an order, attached to the position of its first fill for the order's lots. */
export function attachOrderTrigger(
  group: GroupContext,
  row: EntrustRow,
  position: PositionRow,
  now: number,
): Promise<TriggerRow> {
  return addTrigger(group, orderTriggerOf(row, position), now);
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
