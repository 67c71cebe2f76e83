import { Dec } from '@halyard/money';
import { POSITIVE_NUMBER_DECIMALS } from './constants.ts';
import { type RuleError, ruleError } from './error.ts';
import { checkPositiveInput } from './number.ts';

/** Pay coins keep 8 decimals, like every amount moved between balances (spec §5 "positive number"). */
export const IEO_PAY_DECIMALS = POSITIVE_NUMBER_DECIMALS;
/** Tokens keep at most 8 decimals too; a project may keep fewer (whole tokens: 0). */
export const IEO_TOKEN_DECIMALS_MAX = 8;

/** Tokens an amount of the pay coin buys at `price`: floored to the token's unit. */
export function ieoTokensFor(amount: Dec, price: Dec, tokenDecimals: number): Dec {
  return amount.div(price).floorTo(tokenDecimals);
}

/** The pay coin those tokens cost: floored to the pay coin's unit (never more than the amount that bought them). */
export function ieoCostOf(tokens: Dec, price: Dec): Dec {
  return tokens.mul(price).floorTo(IEO_PAY_DECIMALS);
}

export interface IeoSubscriptionInput {
  /** Pay coin the user offers (FCFS: pays; commit: commits). */
  amount: string;
  price: string;
  tokenDecimals: number;
  usable: string;
  minNumber: string;
  maxNumber: string;
  /** FCFS only: tokens still for sale and tokens this user bought already. Commit mode passes null. */
  remaining: string | null;
  bought: string;
}

/**
 * Spec §5 "IEO: the remaining total must be sufficient", with the project's
 * per-user bounds, first failure wins: an amount (positive, 8 decimals), at
 * least the minimum number of tokens, within the user's maximum (FCFS: a
 * commitment may exceed it, the cap bounds the allocation), the remaining
 * total, the balance.
 */
export function checkIeoSubscription(input: IeoSubscriptionInput): RuleError | null {
  const amountError = checkPositiveInput(input.amount, 'amount', { decimals: IEO_PAY_DECIMALS });
  if (amountError !== null) return amountError;
  const amount = Dec.parse(input.amount);
  const tokens = ieoTokensFor(amount, Dec.parse(input.price), input.tokenDecimals);
  const min = Dec.parse(input.minNumber);
  if (tokens.lt(min) || !tokens.isPositive()) return ruleError('ieo.belowMinimum', { min: min.toString() });
  if (input.remaining !== null) {
    const max = Dec.parse(input.maxNumber);
    const left = Dec.max(Dec.ZERO, max.sub(Dec.parse(input.bought)));
    if (tokens.gt(left)) return ruleError('ieo.aboveMaximum', { max: max.toString(), left: left.toString() });
    if (tokens.gt(Dec.parse(input.remaining))) return ruleError('ieo.remainingInsufficient');
  }
  return amount.gt(Dec.parse(input.usable)) ? ruleError('rules.insufficientBalance') : null;
}

/**
 * What a commitment should receive if the window closed now (commit mode):
 * what it buys, capped, or its pro-rata share of the supply when the total
 * committed (this commitment included) buys more than the supply. An
 * estimate before redistribution, which can only raise it.
 */
export function ieoExpectedAllocation(input: {
  amount: Dec;
  totalCommitted: Dec;
  supply: Dec;
  price: Dec;
  cap: Dec;
  tokenDecimals: number;
}): { tokens: Dec; refund: Dec; ratio: Dec } {
  const { amount, totalCommitted, supply, price, cap, tokenDecimals } = input;
  const need = Dec.min(ieoTokensFor(amount, price, tokenDecimals), cap.floorTo(tokenDecimals));
  const ratio = supply.isPositive() ? totalCommitted.div(supply.mul(price)) : Dec.ZERO;
  const share = ratio.gt(Dec.ONE) ? supply.mul(amount).div(totalCommitted).floorTo(tokenDecimals) : need;
  const tokens = Dec.min(need, share);
  return { tokens, refund: amount.sub(ieoCostOf(tokens, price)), ratio };
}

export interface IeoProjectTermsInput {
  startTime: number;
  endTime: number;
  total: string;
  tokenDecimals: number;
  mode: 'fcfs' | 'commit';
  prices: string[];
  minNumber: string;
  maxNumber: string;
  gift: string;
  rebate: string;
  vesting: IeoVestingTerms;
}

/** A vesting schedule (the wire's IeoVesting): a cliff, then tranches or a linear release. */
export type IeoVestingTerms =
  | { kind: 'tranches'; cliffDays: number; tranches: number; intervalDays: number }
  | { kind: 'linear'; cliffDays: number; durationDays: number };

/** The longest cliff, interval or linear duration, in days. */
const VESTING_DAYS_MAX = 3650;

const isDays = (days: number) => Number.isFinite(days) && days >= 0 && days <= VESTING_DAYS_MAX;

function isVestingValid(vesting: IeoVestingTerms): boolean {
  if (!isDays(vesting.cliffDays)) return false;
  if (vesting.kind === 'linear') return isDays(vesting.durationDays) && vesting.durationDays > 0;
  const { tranches, intervalDays } = vesting;
  if (!Number.isInteger(tranches) || tranches < 1 || tranches > 120 || !isDays(intervalDays)) return false;
  return tranches === 1 || intervalDays > 0;
}

function isFraction(text: string): boolean {
  const value = Dec.tryParse(text);
  return value !== null && !value.isNegative() && value.lt(Dec.ONE);
}

/** An operator's project terms: a window, a supply, prices, per-user bounds, a schedule that ends. */
export function checkIeoProjectTerms(input: IeoProjectTermsInput): RuleError | null {
  if (!(input.endTime > input.startTime)) return ruleError('ieo.windowInvalid');
  if (
    !Number.isInteger(input.tokenDecimals) ||
    input.tokenDecimals < 0 ||
    input.tokenDecimals > IEO_TOKEN_DECIMALS_MAX
  )
    return ruleError('ieo.termsInvalid', { field: 'tokenDecimals' });
  const positive = (text: string) => Dec.tryParse(text)?.isPositive() === true;
  if (!positive(input.total) || !Dec.parse(input.total).hasAtMostDigits(input.tokenDecimals))
    return ruleError('ieo.termsInvalid', { field: 'total' });
  if (input.prices.length === 0 || !input.prices.every(positive))
    return ruleError('ieo.termsInvalid', { field: 'payCoins' });
  // Commitments are weighed against each other: in one coin only.
  if (input.mode === 'commit' && input.prices.length !== 1) return ruleError('ieo.commitOnePayCoin');
  const min = Dec.tryParse(input.minNumber);
  const max = Dec.tryParse(input.maxNumber);
  if (min === null || max === null || min.isNegative() || !max.isPositive() || min.gt(max))
    return ruleError('ieo.termsInvalid', { field: 'minNumber' });
  if (!isFraction(input.gift)) return ruleError('ieo.termsInvalid', { field: 'gift' });
  if (!isFraction(input.rebate)) return ruleError('ieo.termsInvalid', { field: 'rebate' });
  if (!isVestingValid(input.vesting)) return ruleError('ieo.termsInvalid', { field: 'vesting' });
  return null;
}

const DAY_MS = 86_400_000;

/** One tranche of a vesting schedule: `amount` tokens become spendable at `releaseAt` (linear: from `releaseAt` until `until`). */
export interface IeoPlannedTranche {
  seq: number;
  releaseAt: number;
  until: number | null;
  amount: Dec;
}

/**
 * The tranches of `total` tokens under `vesting`, from `start` (the end of
 * the window): the spec's "lock period in days" is one tranche at the end of
 * the lock; a cliff followed by tranches spreads the tokens evenly, floored to
 * the token's unit, the last tranche taking what flooring left; a linear
 * schedule is one tranche released continuously over its duration after the
 * cliff (ieoVestedOf). The server locks by it; the detail screen draws its
 * calendar (with total = 100 %).
 */
export function planIeoTranches(
  total: Dec,
  vesting: IeoVestingTerms,
  start: number,
  tokenDecimals: number,
): IeoPlannedTranche[] {
  const cliffEnd = start + Math.round(vesting.cliffDays * DAY_MS);
  if (vesting.kind === 'linear') {
    const until = cliffEnd + Math.round(vesting.durationDays * DAY_MS);
    return total.isPositive() ? [{ seq: 1, releaseAt: cliffEnd, until, amount: total }] : [];
  }
  const count = vesting.tranches;
  const each = total.div(Dec.fromInt(count)).floorTo(tokenDecimals);
  const intervalMs = Math.round(vesting.intervalDays * DAY_MS);
  const tranches: IeoPlannedTranche[] = [];
  let planned = Dec.ZERO;
  for (let seq = 1; seq <= count; seq += 1) {
    const amount = seq === count ? total.sub(planned) : each;
    planned = planned.add(amount);
    tranches.push({ seq, releaseAt: cliffEnd + (seq - 1) * intervalMs, until: null, amount });
  }
  return tranches.filter((tranche) => tranche.amount.isPositive());
}

/**
 * Linear vesting releases once an hour, not on every tick: a 180-day schedule
 * is 4,320 ledger transfers per order instead of 15.5 million.
 */
export const IEO_LINEAR_STEP_MS = 60 * 60 * 1000;

/**
 * What of a tranche has vested at `now`: nothing before `releaseAt`; all of
 * it from `releaseAt` (a tranche) or from `until` (linear); in between, the
 * share elapsed at the last whole hour since `releaseAt`, floored to the
 * token's unit, so the releases never exceed it and the last one takes the
 * remainder.
 */
export function ieoVestedOf(
  tranche: { releaseAt: number; until: number | null; amount: Dec },
  now: number,
  tokenDecimals: number,
): Dec {
  if (now < tranche.releaseAt) return Dec.ZERO;
  if (tranche.until === null || now >= tranche.until) return tranche.amount;
  const steps = Math.floor((now - tranche.releaseAt) / IEO_LINEAR_STEP_MS);
  const elapsed = Dec.fromInt(steps * IEO_LINEAR_STEP_MS);
  const duration = Dec.fromInt(tranche.until - tranche.releaseAt);
  return tranche.amount.mul(elapsed).div(duration).floorTo(tokenDecimals);
}

/** When a tranche next vests more after `now`: the next whole hour of a linear schedule, capped at its end. */
export function ieoNextVestingAt(tranche: { releaseAt: number; until: number | null }, now: number): number {
  if (now < tranche.releaseAt || tranche.until === null) return tranche.releaseAt;
  const steps = Math.floor((now - tranche.releaseAt) / IEO_LINEAR_STEP_MS) + 1;
  return Math.min(tranche.until, tranche.releaseAt + steps * IEO_LINEAR_STEP_MS);
}
