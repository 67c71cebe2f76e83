// The risk pass: everything a mark change sets off in one contract, in
// order: TP/SL triggers, liquidations (isolated, then cross accounts) and
// the funding round when one is due. Each index tick queues one pass per
// contract of its coin; the pure rules it applies are the money state's
// (core/state/futures-risk-rules.ts, futures-liquidation.ts,
// futures-margin.ts, futures-triggers.ts), its ledger legs futures-legs.ts.
import type { Dec } from '@halyard/money';
import type { ContractMarket } from '../../core/state/futures-book.ts';
import type { CommandResult } from '../../core/state/futures-commands.ts';
import { crossFreeLeg, fundingBatches, takeOverLeg } from '../../core/state/futures-legs.ts';
import { crossBreached, scanIsolated } from '../../core/state/futures-liquidation.ts';
import { fundingPayment, positionEquity } from '../../core/state/futures-margin.ts';
import { closeAtBankruptcy } from '../../core/state/futures-positions.ts';
import {
  crossOwnersIn,
  crossTakeOverOf,
  firedTrigger,
  fundingPayerOf,
  fundingRoundOf,
  fundPosition,
  isolatedBreach,
} from '../../core/state/futures-risk-rules.ts';
import type { PositionRow } from '../../core/state/futures-rows.ts';
import { type TransferInput, userAccount } from '../../ledger/index.ts';
import { fundingSlot } from './funding.ts';
import { cancelAllOf, placeClose } from './matching.ts';
import { endTrigger, houseFill, persistPosition } from './positions.ts';
import type { GroupContext } from './state.ts';
import { insertFunding } from './store.ts';

/** One contract's risk pass at its current mark; nothing without a mark. */
export async function riskPass(group: GroupContext, contractId: number): Promise<CommandResult> {
  const market = group.state.market(contractId);
  const mark = group.state.markOf(contractId);
  const result: CommandResult = { orders: [], positions: [], triggers: [] };
  if (mark === null) return result;
  await fireTriggers(group, market, mark, result);
  await liquidateIsolated(group, market, mark, result);
  await liquidateCross(group, market, result);
  await fundIfDue(group, market, mark);
  return result;
}

/** A trigger whose price the mark reached closes its lots (all when none given) at market. */
async function fireTriggers(group: GroupContext, market: ContractMarket, mark: Dec, result: CommandResult) {
  const { state } = group;
  for (const trigger of [...state.triggers.values()]) {
    const fired = firedTrigger(state, market, trigger, mark);
    if (fired === null) continue;
    const { position, lots } = fired;
    await endTrigger(group, trigger, group.now(), mark);
    result.triggers.push({ ...trigger });
    const closed = await placeClose(group, market, position, lots);
    result.orders.push(...closed.orders);
    result.positions.push(...closed.positions);
  }
}

/**
 * Isolated positions at or past their liquidation price (the scan compares
 * cached prices), re-checked from their figures, then taken over at the
 * bankruptcy price (see {@link takeOver}).
 */
async function liquidateIsolated(
  group: GroupContext,
  market: ContractMarket,
  mark: Dec,
  result: CommandResult,
) {
  const { state } = group;
  const ids = scanIsolated(state.isolatedRisk.values(), market.contract.autoid, mark.units);
  for (const positionId of ids) {
    const position = state.positions.get(positionId);
    if (!position) continue;
    const equity = isolatedBreach(state, market, position, mark);
    if (equity === null) continue;
    await takeOver(group, market, position, mark, equity, `futures:liq:${position.autoid}`);
    result.positions.push({ ...position });
  }
}

/**
 * Cross accounts with a position in this contract whose equity (free
 * balance + Σ margin + unrealised PnL) fell to their maintenance: their
 * resting orders are cancelled, then every cross position is taken over and
 * the free balance goes to the insurance fund with the remaining margin
 * (the account is closed at its bankruptcy point).
 */
async function liquidateCross(group: GroupContext, market: ContractMarket, result: CommandResult) {
  const { state, ledger, trx } = group;
  const owners = crossOwnersIn(state, market.contract.autoid);
  const asset = market.contract.maincoin;
  for (const owner of owners) {
    const userId = Number(owner);
    const account = { ...userAccount(userId, 'futures'), asset };
    const free = (await ledger.balance(account, trx)).available;
    if (!crossBreached(free, state.crossPositionsOf(owner))) continue;
    await cancelAllOf(group, owner);
    const freeAfterCancel = (await ledger.balance(account, trx)).available;
    const { rows, tag } = crossTakeOverOf(state, owner);
    if (freeAfterCancel.isPositive()) {
      await ledger.execute([crossFreeLeg(tag, userId, asset, freeAfterCancel)], trx);
    }
    for (const row of rows) {
      const rowMarket = state.market(row.contract_id);
      const mark = state.markOf(row.contract_id);
      if (mark === null) continue;
      const equity = positionEquity(state.positionFigures(row), mark);
      await takeOver(group, rowMarket, row, mark, equity, `${tag}:${row.autoid}`);
      result.positions.push({ ...row });
    }
  }
}

/**
 * Closes a position at its bankruptcy price into the insurance fund: the
 * owner's realised loss is exactly the margin; the position's equity at the
 * mark e + s·(mark − p) goes from the margin pool to the insurance fund when
 * positive (the remaining margin) or is paid by the insurance fund into the
 * pool when negative (the shortfall). The house takes the position over at
 * the mark, so longs stay equal to shorts.
 */
async function takeOver(
  group: GroupContext,
  market: ContractMarket,
  position: PositionRow,
  mark: Dec,
  equity: Dec,
  tag: string,
): Promise<void> {
  const now = group.now();
  const figures = group.state.positionFigures(position);
  const legs: TransferInput[] = [];
  const equityLeg = takeOverLeg(tag, equity, market.contract.maincoin, position.autoid);
  if (equityLeg) legs.push(equityLeg);
  const house = await houseFill(group, market, position.type, figures.lots, mark, legs, `${tag}:house`, now);
  if (legs.length > 0) await group.ledger.execute(legs, group.trx);
  await persistPosition(group, house, now);
  closeAtBankruptcy(position, figures, market.contract.price_accuracy, now);
  await persistPosition(group, position, now);
  group.effects.contracts.add(market.contract.autoid);
}

/**
 * Funding once per interval (FUNDING_INTERVAL_MS): rate from the book's mid
 * over the index (risk.fundingRate), payment |s| × mark × |rate| per
 * position. Payers pay into clearing first — cross from the free balance,
 * then the margin; isolated from the margin; the house from its account;
 * any part a position cannot pay is covered by the insurance fund — then
 * receivers are paid out of clearing (isolated into their margin). Longs
 * and shorts are equal in size, so clearing ends at zero.
 */
async function fundIfDue(group: GroupContext, market: ContractMarket, mark: Dec): Promise<void> {
  const { state, ledger, trx } = group;
  const { autoid: contractId, maincoin: asset } = market.contract;
  const round = fundingRoundOf(
    state,
    market,
    mark,
    fundingSlot(group.now(), group.fundingIntervalMs),
    group.now(),
  );
  if (round === null) return;
  await insertFunding(trx, round.row);
  if (round.rate.isZero()) return;
  const payers: TransferInput[] = [];
  const receivers: TransferInput[] = [];
  const touched: PositionRow[] = [];
  for (const position of state.positions.values()) {
    if (position.contract_id !== contractId) continue;
    const payment = fundingPayment(state.positionFigures(position), mark, round.rate);
    if (payment.isZero()) continue;
    const payer = fundingPayerOf(position, asset);
    const free = payer.readsFree ? (await ledger.balance(payer.account, trx)).available : null;
    fundPosition(position, round.slot, asset, payment, free, payers, receivers);
    touched.push(position);
  }
  for (const batch of fundingBatches(payers, receivers)) await ledger.execute(batch, trx);
  for (const position of touched) await persistPosition(group, position, group.now());
}
