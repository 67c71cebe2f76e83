import { Dec } from '@halyard/money';
import { userAccount } from '../../ledger/index.ts';
import type { Applied } from '../sequencer/index.ts';
import type { MoneyEvent, MoneyResult } from './commands.ts';
import {
  check,
  type FuturesCancelTriggerCommand,
  type FuturesMarkCommand,
  type FuturesSetTriggerCommand,
  invalid,
} from './futures.ts';
import type { ContractMarket } from './futures-book.ts';
import { crossFreeLeg, fundingBatches } from './futures-legs.ts';
import { crossBreached, scanIsolated } from './futures-liquidation.ts';
import { fundingPayment, positionEquity } from './futures-margin.ts';
import {
  crossOwnersIn,
  crossTakeOverOf,
  firedTrigger,
  fundingPayerOf,
  fundingRoundOf,
  fundPosition,
  isolatedBreach,
} from './futures-risk-rules.ts';
import type { PositionRow } from './futures-rows.ts';
import { Work } from './futures-work.ts';
import { available, type MoneyState } from './money-state.ts';

/**
 * What a mark sets off on the money state, as modules/futures' risk pass
 * (risk-pass.ts) does it per contract of the coin: TP/SL triggers fired,
 * isolated positions then cross accounts liquidated, and the funding round
 * when its slot is due; and the TP/SL orders users place on positions. The
 * rules are the ones the module's pass applies too (futures-risk-rules.ts,
 * futures-liquidation.ts, futures-margin.ts, futures-triggers.ts,
 * futures-legs.ts), carried through in memory by futures-work.ts's Work, in the
 * module's order, so its ledger batches come in the same order.
 */

const NOTHING = { orders: [], positions: [], triggers: [] };

/** The mark recorded, then each contract of the coin's risk pass, in the order of the contracts. */
export function applyFuturesMark(
  state: MoneyState,
  command: FuturesMarkCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  const price = typeof command.price === 'string' ? Dec.tryParse(command.price) : null;
  if (typeof command.coin !== 'string' || !price?.isPositive() || !Number.isSafeInteger(command.fundingSlot))
    return invalid();
  const { book } = state.futures;
  book.marks.set(command.coin, price);
  const work = new Work(state, command.at, seq);
  for (const market of [...book.markets.values()])
    if (market.contract.tradcoin === command.coin) riskPass(work, market, command.fundingSlot);
  return work.finish(NOTHING, emit);
}

/** risk-pass.ts's `riskPass` for one contract at its mark. */
function riskPass(work: Work, market: ContractMarket, slot: number): void {
  const mark = work.book.markOf(market.contract.autoid);
  if (mark === null) return;
  fireTriggers(work, market, mark);
  liquidateIsolated(work, market, mark);
  liquidateCross(work, market);
  fundIfDue(work, market, mark, slot);
}

function fireTriggers(work: Work, market: ContractMarket, mark: Dec): void {
  for (const trigger of [...work.book.triggers.values()]) {
    const fired = firedTrigger(work.book, market, trigger, mark);
    if (fired === null) continue;
    work.endTrigger(trigger, mark);
    work.close(market, fired.position, fired.lots);
  }
}

function liquidateIsolated(work: Work, market: ContractMarket, mark: Dec): void {
  const { book } = work;
  for (const positionId of scanIsolated(book.isolatedRisk.values(), market.contract.autoid, mark.units)) {
    const position = book.positions.get(positionId);
    if (!position) continue;
    const equity = isolatedBreach(book, market, position, mark);
    if (equity === null) continue;
    work.takeOver(market, position, mark, equity, `futures:liq:${position.autoid}`);
  }
}

function liquidateCross(work: Work, market: ContractMarket): void {
  const { book, state } = work;
  const asset = market.contract.maincoin;
  for (const owner of crossOwnersIn(book, market.contract.autoid)) {
    const userId = Number(owner);
    const account = userAccount(userId, 'futures');
    if (!crossBreached(available(state, account, asset), book.crossPositionsOf(owner))) continue;
    work.cancelAllOf(owner);
    const freeAfterCancel = available(state, account, asset);
    const { rows, tag } = crossTakeOverOf(book, owner);
    if (freeAfterCancel.isPositive()) work.apply([crossFreeLeg(tag, userId, asset, freeAfterCancel)]);
    for (const row of rows) {
      const mark = book.markOf(row.contract_id);
      if (mark === null) continue;
      const equity = positionEquity(book.positionFigures(row), mark);
      work.takeOver(book.market(row.contract_id), row, mark, equity, `${tag}:${row.autoid}`);
    }
  }
}

function fundIfDue(work: Work, market: ContractMarket, mark: Dec, slot: number): void {
  const { book, state } = work;
  const round = fundingRoundOf(book, market, mark, slot, work.at);
  if (round === null) return;
  work.noteFunding(round.row);
  if (round.rate.isZero()) return;
  const asset = market.contract.maincoin;
  const payers: Parameters<typeof fundingBatches>[0][number][] = [];
  const receivers: typeof payers = [];
  const touched: PositionRow[] = [];
  for (const position of book.positions.values()) {
    if (position.contract_id !== market.contract.autoid) continue;
    const payment = fundingPayment(book.positionFigures(position), mark, round.rate);
    if (payment.isZero()) continue;
    const payer = fundingPayerOf(position, asset);
    const free = payer.readsFree ? available(state, payer.account, asset) : null;
    book.positions.beforeChange(position.autoid);
    fundPosition(position, round.slot, asset, payment, free, payers, receivers);
    touched.push(position);
  }
  for (const batch of fundingBatches(payers, receivers)) work.apply(batch);
  for (const position of touched) work.persist(position);
}

/** positions.ts's `writeTrigger`: the checked TP/SL edits the trigger named, or a new one. */
export function applyFuturesSetTrigger(
  state: MoneyState,
  command: FuturesSetTriggerCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  const optionalText = (value: unknown) => value === undefined || typeof value === 'string';
  if (
    !Number.isSafeInteger(command.userId) ||
    !Number.isSafeInteger(command.positionId) ||
    (command.triggerId !== undefined && !Number.isSafeInteger(command.triggerId)) ||
    !optionalText(command.profitPrice) ||
    !optionalText(command.lossPrice) ||
    !optionalText(command.number)
  )
    return invalid();
  const plan = check(
    state,
    {
      kind: 'setTrigger',
      userId: command.userId,
      positionId: command.positionId,
      triggerId: command.triggerId,
      profitPrice: command.profitPrice,
      lossPrice: command.lossPrice,
      number: command.number,
    },
    command.at,
  );
  if ('error' in plan) return { result: plan, events: [] };
  if (plan.kind !== 'setTrigger') throw new Error('futures state: a trigger check planned something else');
  const work = new Work(state, command.at, seq);
  const { existing, fields } = plan;
  if (existing) {
    state.futures.book.triggers.beforeChange(existing.autoid);
    Object.assign(existing, fields);
    work.noteTrigger(existing, false);
    return work.finish({ ...NOTHING, triggers: [existing] }, emit);
  }
  const { profit_price, loss_price, number } = fields;
  const trigger = work.newTrigger({
    position_id: plan.position.autoid,
    user_id: plan.userId,
    profit_price,
    loss_price,
    number,
  });
  return work.finish({ ...NOTHING, triggers: [trigger] }, emit);
}

export function applyFuturesCancelTrigger(
  state: MoneyState,
  command: FuturesCancelTriggerCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  if (!Number.isSafeInteger(command.userId) || !Number.isSafeInteger(command.triggerId)) return invalid();
  const plan = check(
    state,
    { kind: 'cancelTrigger', userId: command.userId, triggerId: command.triggerId },
    command.at,
  );
  if ('error' in plan) return { result: plan, events: [] };
  if (plan.kind !== 'cancelTrigger') throw new Error('futures state: a trigger check planned something else');
  const work = new Work(state, command.at, seq);
  work.endTrigger(plan.trigger, null);
  return work.finish({ ...NOTHING, triggers: [plan.trigger] }, emit);
}
