// What a mark sets off in one contract, decided alike by the engine's risk
// pass (modules/futures/risk-pass.ts) and the money state's (futures-risk.ts):
// which trigger fires, an isolated position's breach, the cross accounts to
// check and a take-over's tag, a funding round's row and one position's
// payment. Nothing here reads a balance: the callers pass it.
import { Dec } from '@halyard/money';
import { accountKey, type TransferInput, userAccount } from '../../ledger/index.ts';
import type { ContractMarket, FuturesState } from './futures-book.ts';
import { HOUSE_OWNER } from './futures-commands.ts';
import { fundingPayerLegs, fundingReceiverLeg, HOUSE, positionReference } from './futures-legs.ts';
import { directionOf } from './futures-liquidation.ts';
import { isBelowMaintenance, maintenanceMargin, positionEquity, roundRate } from './futures-margin.ts';
import type { PositionRow, TriggerRow } from './futures-rows.ts';
import { parseOptionalPrice, triggerHit } from './futures-triggers.ts';

/**
 * Whether a trigger fires at `mark` (its position in this contract, the mark
 * past its TP or SL, a counterparty in the book; without one it waits for
 * the next tick): the position and the lots it closes (all when none given).
 */
export function firedTrigger(
  state: FuturesState,
  market: ContractMarket,
  trigger: TriggerRow,
  mark: Dec,
): { position: PositionRow; lots: Dec } | null {
  const position = state.positions.get(trigger.position_id);
  if (!position || position.contract_id !== market.contract.autoid) return null;
  const hit = triggerHit(
    directionOf(position.type),
    {
      profitPrice: parseOptionalPrice(trigger.profit_price),
      lossPrice: parseOptionalPrice(trigger.loss_price),
    },
    mark,
  );
  if (hit === null) return null;
  const { bestBid, bestAsk } = market.book.depth(1);
  if ((position.type === 'buy' ? bestBid : bestAsk) === null) return null;
  const held = Dec.parse(position.number);
  const lots = trigger.number === null ? held : Dec.min(Dec.parse(trigger.number), held);
  return { position, lots };
}

/** An isolated position's equity at the mark when it is at or below its maintenance, else null. */
export function isolatedBreach(
  state: FuturesState,
  market: ContractMarket,
  position: PositionRow,
  mark: Dec,
) {
  const figures = state.positionFigures(position);
  const equity = positionEquity(figures, mark);
  return isBelowMaintenance(equity, maintenanceMargin(figures, mark, market.mmf)) ? equity : null;
}

/** The users with a cross position in the contract, in the order their positions were opened. */
export function crossOwnersIn(state: FuturesState, contractId: number): Set<string> {
  const owners = new Set<string>();
  for (const row of state.positions.values()) {
    if (row.contract_id === contractId && row.td_mode === 'cross' && row.owner !== HOUSE_OWNER) {
      owners.add(row.owner);
    }
  }
  return owners;
}

/** A liquidated cross account's positions and the tag its legs are named by. */
export function crossTakeOverOf(state: FuturesState, owner: string): { rows: PositionRow[]; tag: string } {
  const rows = [...state.positions.ofOwner(owner)].filter((row) => row.td_mode === 'cross');
  return { rows, tag: `futures:liq:cross:${owner}:${rows.map((row) => row.autoid).join('-')}` };
}

/**
 * A contract's funding round when one is due at `slot`: its row (rate from
 * the book's mid over the mark), the contract's last round moved to it.
 * Null when the contract's last round is this slot or later.
 */
export function fundingRoundOf(
  state: FuturesState,
  market: ContractMarket,
  mark: Dec,
  slot: number,
  now: number,
) {
  const contractId = market.contract.autoid;
  const last = state.lastFunding.get(contractId) ?? slot;
  if (slot <= last) return null;
  const { rate, mid } = roundRate(market.book.depth(1), mark);
  state.lastFunding.set(contractId, slot);
  const row = {
    contract_id: contractId,
    slot,
    rate: rate.toString(),
    mark: mark.toString(),
    mid: mid.toString(),
    wdate: now,
  };
  return { slot, rate, row };
}

/** Whose account a position's funding moves, and whether a payment reads its free balance (the house and cross pay from it first). */
export function fundingPayerOf(position: PositionRow, asset: string) {
  const house = position.owner === HOUSE_OWNER;
  const account = house ? HOUSE : userAccount(position.user_id, 'futures');
  return { house, account: accountKey(account, asset), readsFree: house || position.td_mode === 'cross' };
}

/**
 * One position's funding `payment` (signed: negative pays): its leg among the
 * receivers (isolated into its margin) or its legs among the payers (from
 * `free` first when it reads it, then the margin, then the insurance fund);
 * its margin and funding total changed.
 */
export function fundPosition(
  position: PositionRow,
  slot: number,
  asset: string,
  payment: Dec,
  free: Dec | null,
  payers: TransferInput[],
  receivers: TransferInput[],
): void {
  const id = `futures:funding:${position.contract_id}:${slot}:${position.autoid}`;
  const reference = positionReference(position.autoid);
  const { house } = fundingPayerOf(position, asset);
  const owner = house ? HOUSE : userAccount(position.user_id, 'futures');
  if (payment.isPositive()) {
    const toMargin = position.td_mode === 'lsolate';
    receivers.push(fundingReceiverLeg({ id, reference, owner, toMargin, asset, amount: payment }));
    if (toMargin) position.margin = Dec.parse(position.margin).add(payment).toString();
  } else {
    const margin = Dec.parse(position.margin);
    const paid = fundingPayerLegs({
      id,
      reference,
      owner,
      house,
      free,
      margin,
      asset,
      amount: payment.neg(),
    });
    payers.push(...paid.legs);
    position.margin = margin.sub(paid.fromMargin).toString();
  }
  position.funding = Dec.parse(position.funding).add(payment).toString();
}
