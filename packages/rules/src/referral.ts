import { Dec } from '@halyard/money';

/**
 * Spec §9 reward rules (issue 17): the inviter's level-1 rate by tier of the
 * 24 h time-weighted average HAL holdings, the level-2 rate, the default HAL
 * fee discount and the bind window. Every rate's base is the trading fee the
 * friend paid, in the coin it was paid in.
 */

export type ReferralTierNumber = 1 | 2 | 3;

export interface ReferralTierRule {
  tier: ReferralTierNumber;
  /** Lowest 24 h average (inclusive) of the tier. */
  minHoldings: string;
  rate: string;
}

/**
 * "Under 500 gives 10 %, 500-5000 gives 20 %, above 5000 gives 30 %": 500 and
 * 5000 themselves are in the middle tier, so tier 3 starts just above 5000
 * (compared exactly, see {@link referralTierOf}).
 */
export const REFERRAL_TIER_TABLE: readonly ReferralTierRule[] = [
  { tier: 1, minHoldings: '0', rate: '0.1' },
  { tier: 2, minHoldings: '500', rate: '0.2' },
  { tier: 3, minHoldings: '5000', rate: '0.3' },
];

/** What the inviter's inviter earns: 10 % of the friend's fee. */
export const REFERRAL_LEVEL_TWO_RATE = '0.1';
/** "Trading-fee discount up to 10 %": the default of the operator's setting. */
export const REFERRAL_HAL_DISCOUNT_DEFAULT = '0.1';
/** The operator's discount stays within this (a discount above half the fee is a typo). */
export const REFERRAL_HAL_DISCOUNT_MAX = '0.5';
/** The coin whose holdings set the tier and that fees may be paid in. */
export const REFERRAL_TOKEN = 'HAL';
/** A user without an inviter may bind a code this long after sign-up. */
export const REFERRAL_BIND_WINDOW_DAYS = 14;
export const REFERRAL_BIND_WINDOW_MS = REFERRAL_BIND_WINDOW_DAYS * 24 * 60 * 60 * 1000;
/** The holding average runs over the previous 24 h. */
export const REFERRAL_AVERAGE_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * How often the commissions accrued with the fees are credited (as Binance
 * does, computed in real time, credited periodically): a trade writes its
 * commission row only, and one payout sweep a minute pays all rows since in
 * one transfer per earner, coin and kind, instead of transfers per trade.
 */
export const REFERRAL_PAYOUT_INTERVAL_MS = 60_000;
/** The most commission rows one payout transaction pays (oldest first); a sweep runs as many as it needs. */
export const REFERRAL_PAYOUT_BATCH = 50_000;
/** Commissions are paid to 8 decimals, floored: never more than the fee. */
export const REFERRAL_AMOUNT_DECIMALS = 8;

/** Decimals a rate or discount may be typed with ("0.0125" = 1.25 %). */
export const REFERRAL_RATE_DECIMALS = 4;

/** A typed fraction (kickback, discount) from 0 to `max`, with at most 4 decimals; null when it is not one. */
export function parseReferralFraction(text: string, max: Dec): Dec | null {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) return null;
  const value = Dec.parse(text.trim());
  return value.gt(max) || !value.hasAtMostDigits(REFERRAL_RATE_DECIMALS) ? null : value;
}

/** The tier a 24 h average holds: tier 2 from 500 inclusive, tier 3 above 5000. */
export function referralTierOf(average: Dec): ReferralTierRule {
  const [first, second, third] = REFERRAL_TIER_TABLE as [
    ReferralTierRule,
    ReferralTierRule,
    ReferralTierRule,
  ];
  if (average.gt(Dec.parse(third.minHoldings))) return third;
  if (average.gte(Dec.parse(second.minHoldings))) return second;
  return first;
}

/**
 * The next tier and how much more average it needs (tier 3 needs more than
 * 5000: the smallest step above it, 1e-8, is counted as needed), or null at the top.
 */
export function referralNextTier(average: Dec): { rule: ReferralTierRule; missing: Dec } | null {
  const current = referralTierOf(average);
  const next = REFERRAL_TIER_TABLE.find((rule) => rule.tier === current.tier + 1);
  if (next === undefined) return null;
  const threshold = Dec.parse(next.minHoldings);
  const needed = next.tier === 3 ? threshold.add(Dec.step(REFERRAL_AMOUNT_DECIMALS)) : threshold;
  return { rule: next, missing: Dec.max(Dec.ZERO, needed.sub(average)) };
}

/** A balance that held from `at` until the next change (epoch ms). */
export interface HoldingChange {
  at: number;
  balance: Dec;
}

/**
 * A time-weighted sum in progress over a window that starts at `from`: the
 * balance held since `since`, and the balance × milliseconds weighed before
 * it. What {@link timeWeightedAverage} adds up, one change at a time, so a
 * holder of balances can keep a day's average as it goes instead of every
 * change (the sequenced core's money state does).
 */
export interface HoldingWeight {
  from: number;
  since: number;
  balance: Dec;
  weighted: Dec;
}

/** A window from `from` whose balance is `opening` until the first change. */
export function startHoldingWeight(from: number, opening: Dec): HoldingWeight {
  return { from, since: from, balance: opening, weighted: Dec.ZERO };
}

/** The weight after a change inside the window (at or after `since`): the old balance weighed until it. */
export function weighChange(weight: HoldingWeight, change: HoldingChange): HoldingWeight {
  return {
    from: weight.from,
    since: change.at,
    balance: change.balance,
    weighted: weight.weighted.add(weight.balance.mul(Dec.fromInt(change.at - weight.since))),
  };
}

/** The average over [from, to): the balance since the last change weighed until `to`. */
export function holdingAverage(weight: HoldingWeight, to: number): Dec {
  const weighted = weight.weighted.add(weight.balance.mul(Dec.fromInt(to - weight.since)));
  return weighted.div(Dec.fromInt(to - weight.from));
}

/**
 * Time-weighted average of a balance over [from, to): `opening` held from
 * `from` until the first change, each change's balance until the next one.
 * Changes outside the window are ignored (a caller passes the balance at
 * `from` as `opening`). Moving a large amount in for one second adds
 * amount / 86,400 to a 24 h average, not the amount.
 */
export function timeWeightedAverage(
  opening: Dec,
  changes: readonly HoldingChange[],
  from: number,
  to: number,
): Dec {
  if (to <= from) return opening;
  const inside = changes.filter((change) => change.at >= from && change.at < to).sort((a, b) => a.at - b.at);
  return holdingAverage(inside.reduce(weighChange, startHoldingWeight(from, opening)), to);
}

/** A commission part as paid: floored to 8 decimals. */
function floor(value: Dec): Dec {
  return value.floorTo(REFERRAL_AMOUNT_DECIMALS);
}

/**
 * Splits one fee among inviters: level 1 earns `rate` of the fee of which it
 * gives `kickback` (≤ rate) back to the friend, level 2 earns its rate; each
 * part floored to 8 decimals, the rest stays with the house. Pure so the
 * server and the property test share it.
 */
export function referralShares(
  fee: Dec,
  levelOne: { rate: Dec; kickback: Dec } | null,
  levelTwoRate: Dec | null,
): { levelOne: Dec; kickback: Dec; levelTwo: Dec; house: Dec } {
  const kickback = levelOne ? floor(fee.mul(Dec.min(levelOne.kickback, levelOne.rate))) : Dec.ZERO;
  const levelOneGross = levelOne ? floor(fee.mul(levelOne.rate)) : Dec.ZERO;
  const levelOneNet = Dec.max(Dec.ZERO, levelOneGross.sub(kickback));
  const levelTwo = levelTwoRate ? floor(fee.mul(levelTwoRate)) : Dec.ZERO;
  const house = fee.sub(levelOneNet).sub(kickback).sub(levelTwo);
  return { levelOne: levelOneNet, kickback, levelTwo, house };
}

/**
 * The fee in HAL for a fee worth `feeUsdt`: discounted, at the HAL/USDT index,
 * floored to 8 decimals (never rounded up against the user). Zero means the
 * fee is too small to pay in HAL and the normal coin is charged.
 */
export function halFeeFor(feeUsdt: Dec, halPrice: Dec, discount: Dec): Dec {
  return feeUsdt.mul(Dec.ONE.sub(discount)).div(halPrice).floorTo(REFERRAL_AMOUNT_DECIMALS);
}
