import { Dec } from '@halyard/money';
import {
  type HoldingChange,
  REFERRAL_AVERAGE_WINDOW_MS,
  REFERRAL_HAL_DISCOUNT_DEFAULT,
  REFERRAL_TOKEN,
  referralTierOf,
  timeWeightedAverage,
} from '@halyard/rules';
import type { AccountState, NewTransfer } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type {
  IndexPricesCommand,
  MoneyEvent,
  MoneyResult,
  ReferralSettingsCommand,
  ReferralUserCommand,
} from './commands.ts';
import { normalizedIdNumber, type ReferralMember, type TierRate } from './referral-rules.ts';

/**
 * What fees in HAL and referral commissions read, kept in the money state
 * and changed only by commands (the state reads no table, index or clock):
 * each user's inviter, kickback, fee-deduction flag and KYC ID numbers; the
 * operator's HAL discount and market makers; the index prices; and each
 * user's HAL holdings over the last two UTC days, from which an inviter's
 * tier for a day is computed exactly as modules/referral computes it from
 * the ledger's history (docs/core.md, "Spot in the state").
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReferralUser extends ReferralMember {
  parentId: number | null;
  feeDeduction: boolean;
}

/**
 * A user's total HAL (posted, every wallet) from `opening` on: the balance
 * before the first change kept, then each posted transfer's new balance.
 * Changes older than the day before the latest one seen are folded into
 * `opening`: no tier reads further back.
 */
interface HalHistory {
  opening: Dec;
  balance: Dec;
  changes: HoldingChange[];
}

export interface ReferralState {
  users: Map<number, ReferralUser>;
  halDiscount: Dec;
  marketMakers: ReadonlySet<number>;
  /** Index prices by coin, in the index's quote coin, as the latest `indexPrices` command set them. */
  indexPrices: Map<string, Dec>;
  holdings: Map<number, HalHistory>;
  /** The latest tier computed per user and its day: fixed once the day began (commands come in time order). */
  tiers: Map<number, { day: number; tier: TierRate }>;
}

export function createReferralState(): ReferralState {
  return {
    users: new Map(),
    halDiscount: Dec.parse(REFERRAL_HAL_DISCOUNT_DEFAULT),
    marketMakers: new Set(),
    indexPrices: new Map(),
    holdings: new Map(),
    tiers: new Map(),
  };
}

/** A user as the rules read them; one the state was never told of has no inviter and no choices. */
export function referralUserOf(state: ReferralState, userId: number): ReferralUser {
  return (
    state.users.get(userId) ?? {
      userId,
      parentId: null,
      feeDeduction: false,
      kickbackRate: Dec.ZERO,
      idNumbers: new Set(),
    }
  );
}

export function setReferralUser(
  state: ReferralState,
  command: ReferralUserCommand,
): Applied<MoneyResult, MoneyEvent> {
  const kickbackRate = decimalOf(command.kickbackRate);
  const validParent = command.parentId === null || Number.isSafeInteger(command.parentId);
  if (
    !Number.isSafeInteger(command.userId) ||
    !validParent ||
    !Array.isArray(command.idNumbers) ||
    !command.idNumbers.every((idNumber) => typeof idNumber === 'string') ||
    kickbackRate === null ||
    kickbackRate.isNegative()
  )
    return refusedField('referralUser');
  state.users.set(command.userId, {
    userId: command.userId,
    parentId: command.parentId,
    feeDeduction: command.feeDeduction === true,
    kickbackRate,
    idNumbers: new Set(command.idNumbers.map(normalizedIdNumber)),
  });
  return { result: { ok: true }, events: [] };
}

export function setReferralSettings(
  state: ReferralState,
  command: ReferralSettingsCommand,
): Applied<MoneyResult, MoneyEvent> {
  const discount = decimalOf(command.halDiscount);
  const makers = command.marketMakers;
  if (
    discount === null ||
    discount.isNegative() ||
    !Array.isArray(makers) ||
    !makers.every(Number.isSafeInteger)
  )
    return refusedField('referralSettings');
  state.halDiscount = discount;
  state.marketMakers = new Set(command.marketMakers);
  return { result: { ok: true }, events: [] };
}

/** Sets the given coins' index prices; a null price forgets the coin's (the index lost it). */
export function setIndexPrices(
  state: ReferralState,
  command: IndexPricesCommand,
): Applied<MoneyResult, MoneyEvent> {
  const parsed = new Map<string, Dec | null>();
  if (typeof command.prices !== 'object' || command.prices === null) return refusedField('indexPrices');
  for (const [coin, text] of Object.entries(command.prices)) {
    if (text === null) {
      parsed.set(coin, null);
      continue;
    }
    const price = decimalOf(text);
    if (!price?.isPositive()) return refusedField('indexPrices');
    parsed.set(coin, price);
  }
  for (const [coin, price] of parsed) {
    if (price === null) state.indexPrices.delete(coin);
    else state.indexPrices.set(coin, price);
  }
  return { result: { ok: true }, events: [] };
}

/**
 * Notes the HAL transfers that moved posted balances of users (posted moves
 * and posts of holds: a hold or its release moves nothing the total sees),
 * one change per transfer and user, as modules/referral reads them back
 * from the ledger's history.
 */
export function noteHalHoldings(
  state: ReferralState,
  accounts: ReadonlyMap<string, AccountState>,
  transfers: readonly NewTransfer[],
): void {
  for (const transfer of transfers) {
    if (transfer.asset !== REFERRAL_TOKEN) continue;
    if (transfer.type !== 'posted' && transfer.type !== 'post_pending') continue;
    const debit = accounts.get(transfer.debitKey)!.key.owner;
    const credit = accounts.get(transfer.creditKey)!.key.owner;
    if (debit === credit) {
      if (typeof debit === 'number') noteChange(state, debit, Dec.ZERO, transfer.timestamp);
      continue;
    }
    if (typeof debit === 'number') noteChange(state, debit, transfer.amount.neg(), transfer.timestamp);
    if (typeof credit === 'number') noteChange(state, credit, transfer.amount, transfer.timestamp);
  }
}

function noteChange(state: ReferralState, userId: number, delta: Dec, at: number): void {
  let history = state.holdings.get(userId);
  if (!history) {
    history = { opening: Dec.ZERO, balance: Dec.ZERO, changes: [] };
    state.holdings.set(userId, history);
  }
  foldBefore(history, dayOf(at) - REFERRAL_AVERAGE_WINDOW_MS);
  history.balance = history.balance.add(delta);
  history.changes.push({ at, balance: history.balance });
}

/** Folds the changes before `from` into the opening balance. */
function foldBefore(history: HalHistory, from: number): void {
  let count = 0;
  while (count < history.changes.length && history.changes[count]!.at < from) count += 1;
  if (count === 0) return;
  history.opening = history.changes[count - 1]!.balance;
  history.changes.splice(0, count);
}

/**
 * A user's tier for the UTC day of `at`: the time-weighted average of their
 * HAL over the 24 h before that day's midnight (the rules' functions, on the
 * history the state kept), as modules/referral fixes it for the day.
 */
export function tierOf(state: ReferralState, userId: number, at: number): TierRate {
  const day = dayOf(at);
  const cached = state.tiers.get(userId);
  if (cached?.day === day) return cached.tier;
  const from = day - REFERRAL_AVERAGE_WINDOW_MS;
  const history = state.holdings.get(userId);
  let average = Dec.ZERO;
  if (history) {
    foldBefore(history, from);
    average = timeWeightedAverage(history.opening, history.changes, from, day);
  }
  const rule = referralTierOf(average);
  const tier: TierRate = { tier: rule.tier, rate: Dec.parse(rule.rate), rateText: rule.rate };
  state.tiers.set(userId, { day, tier });
  return tier;
}

function dayOf(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/** The referral part of a snapshot: plain JSON (amounts as their units), read back by `decodeReferral`. */
export interface ReferralSnapshot {
  users: [number, number | null, boolean, string, string[]][];
  halDiscount: string;
  marketMakers: number[];
  indexPrices: [string, string][];
  holdings: [number, string, string, [number, string][]][];
}

export function encodeReferral(state: ReferralState): ReferralSnapshot {
  const units = (value: Dec) => value.units.toString();
  return {
    users: [...state.users.values()].map((user) => [
      user.userId,
      user.parentId,
      user.feeDeduction,
      units(user.kickbackRate),
      [...user.idNumbers],
    ]),
    halDiscount: units(state.halDiscount),
    marketMakers: [...state.marketMakers],
    indexPrices: [...state.indexPrices].map(([coin, price]) => [coin, units(price)]),
    holdings: [...state.holdings].map(([userId, history]) => [
      userId,
      units(history.opening),
      units(history.balance),
      history.changes.map((change) => [change.at, units(change.balance)]),
    ]),
  };
}

export function decodeReferral(snapshot: ReferralSnapshot): ReferralState {
  const dec = (text: string) => Dec.fromUnits(BigInt(text));
  const state = createReferralState();
  for (const [userId, parentId, feeDeduction, kickback, idNumbers] of snapshot.users)
    state.users.set(userId, {
      userId,
      parentId,
      feeDeduction,
      kickbackRate: dec(kickback),
      idNumbers: new Set(idNumbers),
    });
  state.halDiscount = dec(snapshot.halDiscount);
  state.marketMakers = new Set(snapshot.marketMakers);
  for (const [coin, price] of snapshot.indexPrices) state.indexPrices.set(coin, dec(price));
  for (const [userId, opening, balance, changes] of snapshot.holdings)
    state.holdings.set(userId, {
      opening: dec(opening),
      balance: dec(balance),
      changes: changes.map(([at, value]) => ({ at, balance: dec(value) })),
    });
  return state;
}

/** A decimal from a command field, or null: commands come from outside and are read, never trusted. */
function decimalOf(value: unknown): Dec | null {
  return typeof value === 'string' ? Dec.tryParse(value) : null;
}

function refusedField(field: string): Applied<MoneyResult, MoneyEvent> {
  return { result: { ok: false, error: 'ledger.invalidTransfer', params: { field } }, events: [] };
}
