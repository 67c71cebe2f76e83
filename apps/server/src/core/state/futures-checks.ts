// The first stage, pre-trade checks: every refusal a command can meet is
// decided here, against the state, before anything is written; what passes
// becomes a plan the later stages carry out. For an order that opens, this is
// the margin check: margin plus fee against the usable futures balance, and
// the hold it will take. Pure but for that one balance read. A refusal is a
// value: the money state answers it, modules/futures' engine throws it as the
// HTTP layer's error (engine.ts, `futuresError`).
import { Dec } from '@halyard/money';
import {
  checkFuturesOrder,
  checkPartialClose,
  checkPositionTpSl,
  futuresMarginEstimate,
  type RuleError,
} from '@halyard/rules';
import type { AccountRef } from '../../ledger/index.ts';
import type { ContractMarket, FuturesState } from './futures-book.ts';
import {
  type CancelCommand,
  type CancelTriggerCommand,
  type CloseCommand,
  type FuturesCommand,
  isHouse,
  type OpenCommand,
  type SetTriggerCommand,
} from './futures-commands.ts';
import { directionOf } from './futures-liquidation.ts';
import { openingCost } from './futures-margin.ts';
import type { ContractRow, EntrustRow, PositionRow, TriggerRow } from './futures-rows.ts';

/**
 * A market open holds latest price × lots × (1 + this) worth of margin and
 * fee (capped at the usable balance) and never spends more: the book may fill
 * at worse prices than the latest.
 */
export const MARKET_SLIPPAGE = Dec.parse('0.05');

export interface OpenPlan {
  kind: 'open';
  market: ContractMarket;
  command: OpenCommand;
  /** The limit price; null for a market order. */
  price: Dec | null;
  lots: Dec;
  /** Margin and fee at the worst price the order can fill at, held from the trader's account. */
  hold: Dec;
  /** A market buy's budget in the book's quote, keeping its fills inside the hold. */
  budget: Dec | null;
}

export interface ClosePlan {
  kind: 'close';
  market: ContractMarket;
  position: PositionRow;
  lots: Dec;
}

export interface CancelPlan {
  kind: 'cancel';
  market: ContractMarket;
  row: EntrustRow;
}

export interface SetTriggerPlan {
  kind: 'setTrigger';
  userId: number;
  position: PositionRow;
  /** The trigger edited; null creates one. */
  existing: TriggerRow | null;
  fields: Pick<TriggerRow, 'profit_price' | 'loss_price' | 'number' | 'updated_at'>;
}

export interface CancelTriggerPlan {
  kind: 'cancelTrigger';
  trigger: TriggerRow;
}

export interface SettingsPlan {
  kind: 'settings';
  contract: ContractRow;
  /** Whether the contract is in memory already (new settings), else it was just listed. */
  known: boolean;
}

export interface RiskPlan {
  kind: 'risk';
  contractId: number;
}

export type CommandPlan =
  | OpenPlan
  | ClosePlan
  | CancelPlan
  | SetTriggerPlan
  | CancelTriggerPlan
  | SettingsPlan
  | RiskPlan;

/**
 * A refused command: its message key and parameters, and what kind of
 * refusal it is (the engine answers `invalid` as a bad request, `notFound`
 * and `conflict` as such).
 */
export interface FuturesRefusal extends RuleError {
  refused: 'invalid' | 'notFound' | 'conflict';
}

export function isFuturesRefusal(checked: CommandPlan | FuturesRefusal): checked is FuturesRefusal {
  return 'refused' in checked;
}

/**
 * The refusals that are not a bad request, by key: the one place a refusal's
 * kind is decided. The SQL engine throws by it; on the core, where the state
 * answers only the key, the module's edge answers by it too (`refusalKindOf`).
 */
const REFUSAL_KINDS: ReadonlyMap<string, 'notFound' | 'conflict'> = new Map([
  ['futures.contractNotFound', 'notFound'],
  ['futures.positionNotFound', 'notFound'],
  ['futures.entrustNotOpen', 'notFound'],
  ['futures.triggerNotFound', 'notFound'],
  ['markets.precisionWithOpenOrders', 'conflict'],
]);

export function refusalKindOf(key: string): FuturesRefusal['refused'] {
  return REFUSAL_KINDS.get(key) ?? 'invalid';
}

function refusal(key: string, params?: RuleError['params']): FuturesRefusal {
  const refused = refusalKindOf(key);
  return params === undefined ? { refused, key } : { refused, key, params };
}

/** A rule of @halyard/rules broken: a bad request. */
function ruleRefusal(error: RuleError): FuturesRefusal {
  return refusal(error.key, error.params);
}

/** An account's usable balance of an asset, read before the checks (see {@link usableAccountOf}). */
export type Available = (account: AccountRef, asset: string) => Dec;

/** The one balance an open's checks read (the trader's usable margin coin), or null when none is read. */
export function usableAccountOf(
  state: FuturesState,
  command: FuturesCommand,
): { account: AccountRef; asset: string } | null {
  if (command.kind !== 'open' || isHouse(command.trader.owner)) return null;
  const market = state.markets.get(command.contractId);
  return market ? { account: command.trader.account, asset: market.contract.maincoin } : null;
}

/** A command's checks: its refusal, or its plan when it passes. `now` stamps a trigger's edit. */
export function checkCommand(
  state: FuturesState,
  command: FuturesCommand,
  available: Available,
  now: () => number,
): CommandPlan | FuturesRefusal {
  switch (command.kind) {
    case 'open':
      return checkOpen(state, command, available);
    case 'close':
      return checkClose(state, command);
    case 'cancel':
      return checkCancel(state, command);
    case 'setTrigger':
      return checkSetTrigger(state, command, now);
    case 'cancelTrigger':
      return checkCancelTrigger(state, command);
    case 'risk':
      return { kind: 'risk', contractId: command.contractId };
    case 'settings':
      return checkSettings(state, command.contract);
  }
}

/**
 * Spec §5 "Futures order" checks in order, then the contract's own limits
 * (leverage in the list, price on the tick, one leverage per position), then
 * margin plus fee against the usable futures balance; the hold is that sum
 * at the worst price the order can fill at (see {@link holdPrice}).
 */
function checkOpen(
  state: FuturesState,
  command: OpenCommand,
  available: Available,
): OpenPlan | FuturesRefusal {
  const market = state.markets.get(command.contractId);
  if (!market) return refusal('futures.contractNotFound');
  const { contract } = market;
  if (contract.state !== 1) return refusal('futures.contractClosed');
  const latest = state.latestPrice(contract.autoid);
  if (command.style === 'market' && latest === null) return refusal('futures.noPrice');
  const broken = checkFuturesOrder({
    side: command.side,
    style: command.style,
    ...(command.style === 'limit' ? { price: command.price ?? '' } : {}),
    latestPrice: (latest ?? Dec.ZERO).toString(),
    quantity: command.number,
    minNumber: contract.minnumber,
    maxNumber: contract.maxnumber,
    ...(command.profitPrice ? { takeProfit: command.profitPrice } : {}),
    ...(command.lossPrice ? { stopLoss: command.lossPrice } : {}),
    priceAccuracy: contract.price_accuracy,
  });
  if (broken !== null) return ruleRefusal(broken);
  if (!market.levers.includes(command.lever)) {
    return refusal('futures.leverNotAllowed', { levers: market.levers.join(', ') });
  }
  const price = command.style === 'limit' ? Dec.parse(command.price ?? '') : null;
  const mismatch = oneLeverRefusal(state, command);
  if (mismatch !== null) return mismatch;
  const lots = Dec.parse(command.number);
  const byHouse = isHouse(command.trader.owner);
  const worst = holdPrice(market, command.side, price, latest);
  if (worst === null) return refusal('futures.noLiquidity');
  let hold = byHouse ? Dec.ZERO : openingCost(worst, lots, market.unit, command.lever, market.gas);
  let budget: Dec | null = null;
  if (!byHouse) {
    const usable = available(command.trader.account, contract.maincoin);
    const estimate = futuresMarginEstimate({
      price: (price ?? latest ?? Dec.ZERO).toString(),
      quantity: command.number,
      unit: contract.unit,
      lever: command.lever,
      gas: contract.gas,
      usable: usable.toString(),
      minNumber: contract.minnumber,
    });
    if (estimate === null) return refusal('rules.insufficientBalance');
    if (price === null && command.side === 'buy') {
      // A market buy spends at most its hold: the budget below keeps its fills inside it.
      hold = Dec.min(hold, usable);
      budget = marketBudget(market, command.lever, hold);
      if (!budget.isPositive()) return refusal('rules.insufficientBalance');
    } else if (hold.gt(usable)) {
      return refusal('rules.insufficientBalance');
    }
  }
  return { kind: 'open', market, command, price, lots, hold, budget };
}

/**
 * The worst price each fill of the order can see: a limit buy fills at or
 * below its limit; a sell fills at or above its limit but never above the
 * best bid it meets (the rest then rests at the limit), so the larger of the
 * two bounds it; a market buy is bounded by its budget instead (the latest
 * price plus slippage), a market sell by the best bid.
 */
function holdPrice(
  market: ContractMarket,
  side: 'buy' | 'sell',
  limit: Dec | null,
  latest: Dec | null,
): Dec | null {
  const { bestBid, bestAsk } = market.book.depth(1);
  if (side === 'buy') {
    if (limit !== null) return limit;
    if (bestAsk === null || latest === null) return null;
    return Dec.max(latest, bestAsk).mul(Dec.ONE.add(MARKET_SLIPPAGE)).floorTo(market.contract.price_accuracy);
  }
  if (limit !== null) return bestBid === null ? limit : Dec.max(limit, bestBid);
  return bestBid;
}

/**
 * A market buy's budget in the book's quote (price × lots): the largest B
 * with B × unit × (1/lever + gas) ≤ hold, i.e. floor(hold × lever / (unit ×
 * (1 + gas × lever))), so its fills' margin and fee never exceed the hold.
 */
function marketBudget(market: ContractMarket, leverInt: number, hold: Dec): Dec {
  const lever = Dec.fromInt(leverInt);
  const budget = hold.mul(lever).div(market.unit.mul(Dec.ONE.add(market.gas.mul(lever))));
  return budget.floorTo(market.contract.price_accuracy);
}

/**
 * One leverage per position: an open position or resting order on the same
 * side and mode fixes it. The house may mix them, so its orders skip the
 * scan; only the trader's own rows are walked (this runs for every order).
 */
function oneLeverRefusal(state: FuturesState, command: OpenCommand): FuturesRefusal | null {
  if (isHouse(command.trader.owner)) return null;
  const same = (row: { owner: string; contract_id: number; type: string; td_mode: string; lever: number }) =>
    row.owner === command.trader.owner &&
    row.contract_id === command.contractId &&
    row.type === command.side &&
    row.td_mode === command.tdMode &&
    row.lever !== command.lever;
  for (const row of state.positions.ofOwner(command.trader.owner))
    if (same(row)) return refusal('futures.leverMismatch', { lever: row.lever });
  for (const row of state.open.ofOwner(command.trader.owner))
    if (row.action === 'open' && same(row)) return refusal('futures.leverMismatch', { lever: row.lever });
  return null;
}

/** Partial close (spec §5): whole lots, at most what the position holds; a market order through the book. */
function checkClose(state: FuturesState, command: CloseCommand): ClosePlan | FuturesRefusal {
  const position = state.positions.get(command.positionId);
  if (!position || position.owner !== String(command.userId)) return refusal('futures.positionNotFound');
  const available = Dec.canonical(position.number);
  const lots = command.number ?? available;
  const broken = checkPartialClose({ quantity: lots, available });
  if (broken !== null) return ruleRefusal(broken);
  const market = state.market(position.contract_id);
  const side = position.type === 'buy' ? 'sell' : 'buy';
  const { bestBid, bestAsk } = market.book.depth(1);
  if ((side === 'sell' ? bestBid : bestAsk) === null) return refusal('futures.noLiquidity');
  return { kind: 'close', market, position, lots: Dec.parse(lots) };
}

function checkCancel(state: FuturesState, command: CancelCommand): CancelPlan | FuturesRefusal {
  const row = state.open.get(command.autoid);
  if (!row || row.owner !== command.owner) return refusal('futures.entrustNotOpen');
  return { kind: 'cancel', market: state.market(row.contract_id), row };
}

/** Spec §5: at least one of TP or SL; a long's TP not below the open price and SL not above, a short's the reverse. */
function checkSetTrigger(
  state: FuturesState,
  command: SetTriggerCommand,
  now: () => number,
): SetTriggerPlan | FuturesRefusal {
  const position = state.positions.get(command.positionId);
  if (!position || position.owner !== String(command.userId)) return refusal('futures.positionNotFound');
  const existing = command.triggerId === undefined ? null : state.triggers.get(command.triggerId);
  if (command.triggerId !== undefined && (!existing || existing.position_id !== position.autoid)) {
    return refusal('futures.triggerNotFound');
  }
  const openPrice = Dec.parse(position.open_price);
  const broken = checkPositionTpSl({
    side: directionOf(position.type),
    openPrice: openPrice.toString(),
    ...(command.profitPrice ? { takeProfit: command.profitPrice } : {}),
    ...(command.lossPrice ? { stopLoss: command.lossPrice } : {}),
    priceAccuracy: state.market(position.contract_id).contract.price_accuracy,
  });
  if (broken !== null) return ruleRefusal(broken);
  if (command.number !== undefined && command.number !== '') {
    const tooMany = checkPartialClose({ quantity: command.number, available: position.number });
    if (tooMany !== null) return ruleRefusal(tooMany);
  }
  const fields = {
    profit_price: command.profitPrice ? Dec.canonical(command.profitPrice) : null,
    loss_price: command.lossPrice ? Dec.canonical(command.lossPrice) : null,
    number: command.number ? Dec.canonical(command.number) : null,
    updated_at: now(),
  };
  return { kind: 'setTrigger', userId: command.userId, position, existing: existing ?? null, fields };
}

function checkCancelTrigger(
  state: FuturesState,
  command: CancelTriggerCommand,
): CancelTriggerPlan | FuturesRefusal {
  const trigger = state.triggers.get(command.triggerId);
  if (!trigger || trigger.user_id !== command.userId) return refusal('futures.triggerNotFound');
  return { kind: 'cancelTrigger', trigger };
}

/** The price accuracy may change only while no order rests in the contract's book. */
function checkSettings(state: FuturesState, contract: ContractRow): SettingsPlan | FuturesRefusal {
  const market = state.markets.get(contract.autoid);
  const resting = [...state.open.values()].some(
    (row) => row.contract_id === contract.autoid && row.price !== null,
  );
  if (market && market.contract.price_accuracy !== contract.price_accuracy && resting) {
    return refusal('markets.precisionWithOpenOrders');
  }
  return { kind: 'settings', contract, known: market !== undefined };
}
