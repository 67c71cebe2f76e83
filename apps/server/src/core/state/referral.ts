import { Dec } from '@halyard/money';
import {
  type HoldingWeight,
  holdingAverage,
  REFERRAL_AVERAGE_WINDOW_MS,
  REFERRAL_HAL_DISCOUNT_DEFAULT,
  REFERRAL_TOKEN,
  referralTierOf,
  startHoldingWeight,
  weighChange,
} from '@halyard/rules';
import type { NewTransfer } from '../../ledger/plan.ts';
import { type Applied, TrackedMap } from '../sequencer/index.ts';
import type {
  IndexPricesCommand,
  MoneyEvent,
  MoneyResult,
  ReferralSettingsCommand,
  ReferralUserCommand,
} from './commands.ts';
import {
  type CommissionRow,
  normalizedIdNumber,
  type ReferralMember,
  type TierRate,
  type UnpaidCommission,
  unpaidOf,
} from './referral-rules.ts';

/**
 * What fees in HAL and referral commissions read, kept in the money state
 * and changed only by commands (the state reads no table, index or clock):
 * each user's inviter, kickback, fee-deduction flag and KYC ID numbers; the
 * operator's HAL discount and market makers; the index prices; and each
 * user's HAL holdings weighed over the current and the previous UTC day,
 * from which an inviter's tier for a day is computed exactly as
 * modules/referral computes it from the ledger's history (docs/core.md,
 * "Spot in the state").
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReferralUser extends ReferralMember {
  parentId: number | null;
  feeDeduction: boolean;
}

/**
 * A user's total HAL (posted, every wallet), weighed over time with the
 * rules' own steps (startHoldingWeight, weighChange, holdingAverage, what
 * timeWeightedAverage adds up): the UTC day `day` so far, and the whole day
 * before it (null when the user held no HAL then). A few numbers per user,
 * however many changes: no tier reads further back. Replaced, never changed.
 */
export interface HalHolding {
  day: number;
  current: HoldingWeight;
  previous: HoldingWeight | null;
}

export interface ReferralState {
  /** One profile per user the edge told of; tracked, for the snapshot's lines (as `holdings`). */
  users: TrackedMap<number, ReferralUser>;
  halDiscount: Dec;
  marketMakers: ReadonlySet<number>;
  /** Index prices by coin, in the index's quote coin, as the latest `indexPrices` command set them. */
  indexPrices: Map<string, Dec>;
  /** By user; tracked, because a snapshot writes them as lines of their own, a slice at a time (snapshot-codec.ts). */
  holdings: TrackedMap<number, HalHolding>;
  /** The latest tier computed per user and its day: fixed once the day began (commands come in time order). */
  tiers: Map<number, { day: number; tier: TierRate }>;
  /**
   * The commission rows accrued and not yet credited, by fee leg, oldest
   * first (rows are only added at the end and taken from the front, so the
   * map's order is the rows' order in SQL): what `referralPayout` pays.
   * Tracked: a snapshot writes them as lines of their own ('c').
   */
  unpaid: TrackedMap<string, UnpaidCommission>;
}

export function createReferralState(): ReferralState {
  return {
    users: new TrackedMap(),
    halDiscount: Dec.parse(REFERRAL_HAL_DISCOUNT_DEFAULT),
    marketMakers: new Set(),
    indexPrices: new Map(),
    holdings: new TrackedMap(),
    tiers: new Map(),
    unpaid: new TrackedMap(),
  };
}

/** The ID numbers of a user the state was never told of: one set for them all (read only: ReadonlySet). */
const NO_ID_NUMBERS: ReadonlySet<string> = new Set();

/** A user as the rules read them; one the state was never told of has no inviter and no choices. */
export function referralUserOf(state: ReferralState, userId: number): ReferralUser {
  return (
    state.users.get(userId) ?? {
      userId,
      parentId: null,
      feeDeduction: false,
      kickbackRate: Dec.ZERO,
      idNumbers: NO_ID_NUMBERS,
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

/**
 * Sets the given coins' index prices; a null price forgets the coin's (the
 * index lost it). Publishes the prices it set (`emit`: Machine.apply).
 */
export function setIndexPrices(
  state: ReferralState,
  command: IndexPricesCommand,
  emit = true,
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
  const set: [string, string][] = [];
  for (const [coin, price] of parsed) {
    if (price === null) state.indexPrices.delete(coin);
    else {
      state.indexPrices.set(coin, price);
      set.push([coin, price.toString()]);
    }
  }
  if (!emit || set.length === 0) return { result: { ok: true }, events: [] };
  return { result: { ok: true }, events: [{ type: 'indexPrices', at: command.at, prices: set }] };
}

/** Keeps a commission row written unpaid until a `referralPayout` credits it. */
export function accrueCommission(state: ReferralState, row: CommissionRow): void {
  state.unpaid.set(row.leg_id, unpaidOf(row));
}

/**
 * Notes the HAL transfers that moved posted balances of users (posted moves
 * and posts of holds: a hold or its release moves nothing the total sees),
 * one change per transfer and user, as modules/referral reads them back
 * from the ledger's history.
 */
export function noteHalHoldings(state: ReferralState, transfers: readonly NewTransfer[]): void {
  for (const transfer of transfers) {
    if (transfer.asset !== REFERRAL_TOKEN) continue;
    if (transfer.type !== 'posted' && transfer.type !== 'post_pending') continue;
    // The transfer's own references name the owners (a post names its hold's accounts): no look-up among a million.
    const debit = transfer.debit.owner;
    const credit = transfer.credit.owner;
    if (debit === credit) {
      if (typeof debit === 'number') noteChange(state, debit, Dec.ZERO, transfer.timestamp);
      continue;
    }
    if (typeof debit === 'number') noteChange(state, debit, transfer.amount.neg(), transfer.timestamp);
    if (typeof credit === 'number') noteChange(state, credit, transfer.amount, transfer.timestamp);
  }
}

/**
 * A user's HAL holding as held unchanged since the start of `day`: where the
 * state built from SQL starts each holder, before the transfers after that
 * time are noted (projection/initial-state.ts).
 */
export function startHalHolding(state: ReferralState, userId: number, balance: Dec, day: number): void {
  state.holdings.set(userId, { day, current: startHoldingWeight(day, balance), previous: null });
}

function noteChange(state: ReferralState, userId: number, delta: Dec, at: number): void {
  const day = dayOf(at);
  const known = state.holdings.get(userId);
  const holding = known
    ? rolledTo(known, day)
    : { day, current: startHoldingWeight(day, Dec.ZERO), previous: null };
  const balance = holding.current.balance.add(delta);
  // Field by field, not `{ ...holding, current }`, as the orders' fills are (withFillTotals).
  state.holdings.set(userId, {
    day: holding.day,
    current: weighChange(holding.current, { at, balance }),
    previous: holding.previous,
  });
}

/** The holding as of `day` (commands come in time order): the days between closed at the balance they kept. */
function rolledTo(holding: HalHolding, day: number): HalHolding {
  if (day <= holding.day) return holding;
  const { balance } = holding.current;
  const previous =
    holding.day === day - REFERRAL_AVERAGE_WINDOW_MS
      ? holding.current
      : startHoldingWeight(day - REFERRAL_AVERAGE_WINDOW_MS, balance);
  return { day, current: startHoldingWeight(day, balance), previous };
}

/**
 * A user's tier for the UTC day of `at`: the time-weighted average of their
 * HAL over the 24 h before that day's midnight, as modules/referral fixes it
 * for the day.
 */
export function tierOf(state: ReferralState, userId: number, at: number): TierRate {
  const day = dayOf(at);
  const cached = state.tiers.get(userId);
  if (cached?.day === day) return cached.tier;
  const holding = state.holdings.get(userId);
  const previous = holding ? rolledTo(holding, day).previous : null;
  const average = previous ? holdingAverage(previous, day) : Dec.ZERO;
  const rule = referralTierOf(average);
  const tier: TierRate = { tier: rule.tier, rate: Dec.parse(rule.rate), rateText: rule.rate };
  state.tiers.set(userId, { day, tier });
  return tier;
}

function dayOf(at: number): number {
  return Math.floor(at / DAY_MS) * DAY_MS;
}

/**
 * The referral part of a snapshot's header: plain JSON (amounts as their
 * units), read back by `decodeReferral`. The HAL holdings, one per user who
 * ever held HAL, are not in it: they are lines of their own.
 */

export interface ReferralSnapshot {
  halDiscount: string;
  marketMakers: number[];
  indexPrices: [string, string][];
}

export function encodeReferral(state: ReferralState): ReferralSnapshot {
  const units = (value: Dec) => value.units.toString();
  return {
    halDiscount: units(state.halDiscount),
    marketMakers: [...state.marketMakers],
    indexPrices: [...state.indexPrices].map(([coin, price]) => [coin, units(price)]),
  };
}

export function decodeReferral(snapshot: ReferralSnapshot): ReferralState {
  const dec = (text: string) => Dec.fromUnits(BigInt(text));
  const state = createReferralState();
  state.halDiscount = dec(snapshot.halDiscount);
  state.marketMakers = new Set(snapshot.marketMakers);
  for (const [coin, price] of snapshot.indexPrices) state.indexPrices.set(coin, dec(price));
  return state;
}

/** A decimal from a command field, or null: commands come from outside and are read, never trusted. */
function decimalOf(value: unknown): Dec | null {
  return typeof value === 'string' ? Dec.tryParse(value) : null;
}

function refusedField(field: string): Applied<MoneyResult, MoneyEvent> {
  return { result: { ok: false, error: 'ledger.invalidTransfer', params: { field } }, events: [] };
}
