import { Dec } from '@halyard/money';
import type { Locale, ReferralCommissionQuery, ReferralProduct, ReferralRules } from '@halyard/protocol';
import { formatMoney, SEPARATORS } from '../../shared/format.ts';

/** Commissions, fees and holdings are kept to 8 decimals (REFERRAL_AMOUNT_DECIMALS). */
export const AMOUNT_DIGITS = 8;
/** A kickback is set in percent with at most this many decimals ("2.5" %). */
const KICKBACK_PERCENT_DIGITS = 2;
const HUNDRED = Dec.fromInt(100);

/** A rate ("0.125") as the percent a user reads ("12.5"), exact, with the locale's decimal mark. */
export function ratePercent(rate: string, locale: Locale): string {
  const percent = (Dec.tryParse(rate) ?? Dec.ZERO).mul(HUNDRED).toString();
  return percent.replace('.', SEPARATORS[locale].decimal);
}

/** A rate as a percent with its sign where the language puts it ("20%", Turkish "%20"). */
export function percentText(rate: string, locale: Locale): string {
  const number = ratePercent(rate, locale);
  return locale === 'tr' ? `%${number}` : `${number}%`;
}

/**
 * An amount to 8 decimals, floored, its trailing zeros dropped down to 2
 * ("500.00", "4,999.999", "0.00000001"): holdings and what a tier still
 * needs read exactly, without a row of zeros.
 */
export function formatAmount(text: string, locale: Locale): string {
  const full = formatMoney(text, AMOUNT_DIGITS, locale);
  const decimal = SEPARATORS[locale].decimal;
  const point = full.lastIndexOf(decimal);
  let end = full.length;
  while (end > point + 3 && full[end - 1] === '0') end -= 1;
  return full.slice(0, end);
}

/** How far an average is toward the next tier's threshold, in whole percent (0–100, floored). */
export function tierProgress(average: string, nextMin: string): number {
  const target = Dec.tryParse(nextMin) ?? Dec.ZERO;
  if (!target.isPositive()) return 100;
  const share = (Dec.tryParse(average) ?? Dec.ZERO).mul(HUNDRED).div(target).floorToInteger();
  return Number(share > 100n ? 100n : share < 0n ? 0n : share);
}

/** The highest level-1 rate of the tier table: what "up to" promises. */
export function topRate(rules: ReferralRules): string {
  return rules.tiers.reduce((top, tier) => (Dec.parse(tier.rate).gt(Dec.parse(top)) ? tier.rate : top), '0');
}

/**
 * The holdings a tier covers, as a text key and its amounts: the first tier
 * is under the second's minimum, the last is above its own minimum (spec §9:
 * "above 5000"), a middle tier runs from its minimum to the next one's.
 */
export function tierRange(
  rules: ReferralRules,
  index: number,
  locale: Locale,
): {
  key: 'invite.rangeUnder' | 'invite.rangeBetween' | 'invite.rangeAbove';
  min: string;
  max: string;
} {
  const show = (text: string | undefined) => (text === undefined ? '' : formatMoney(text, 0, locale));
  const min = show(rules.tiers[index]?.minHoldings);
  const max = show(rules.tiers[index + 1]?.minHoldings);
  if (index === 0) return { key: 'invite.rangeUnder', min, max };
  if (index === rules.tiers.length - 1) return { key: 'invite.rangeAbove', min, max };
  return { key: 'invite.rangeBetween', min, max };
}

export type KickbackCheck = { rate: string } | { error: 'invite.kickbackInvalid' | 'invite.kickbackTooHigh' };

/**
 * The kickback a user typed in percent ("5", "2,5") as the wire rate
 * ("0.05"): a number of at most 2 decimals, from 0 up to the user's own rate.
 */
export function kickbackRate(typed: string, ownRate: string): KickbackCheck {
  const percent = Dec.tryParse(typed.trim().replace(',', '.'));
  if (percent === null || percent.isNegative() || !percent.hasAtMostDigits(KICKBACK_PERCENT_DIGITS)) {
    return { error: 'invite.kickbackInvalid' };
  }
  const rate = percent.div(HUNDRED);
  if (rate.gt(Dec.tryParse(ownRate) ?? Dec.ZERO)) return { error: 'invite.kickbackTooHigh' };
  return { rate: rate.toString() };
}

/** Amounts per coin on one line ("1.20000000 USDT · 0.50000000 HAL"), coins in alphabetical order; "0" when there are none. */
export function coinAmounts(amounts: Readonly<Record<string, string>>, locale: Locale): string {
  const coins = Object.keys(amounts).sort();
  if (coins.length === 0) return formatMoney('0', AMOUNT_DIGITS, locale);
  return coins.map((coin) => `${formatMoney(amounts[coin], AMOUNT_DIGITS, locale)} ${coin}`).join(' · ');
}

/** The commission filters as the screen holds them: dates are local days ("2026-11-26"), '' for any. */
export interface CommissionFilter {
  product: ReferralProduct | '';
  coin: string;
  fromDay: string;
  toDay: string;
}

export const NO_FILTER: CommissionFilter = { product: '', coin: '', fromDay: '', toDay: '' };

/** Midnight at the start of a local day, epoch ms; null for '' or a malformed day. */
function localMidnight(day: string, addDays = 0): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + addDays).getTime();
}

/**
 * The query of the commission list and its CSV: from the start of the first
 * day to the end of the last (both in the user's time zone); empty filters
 * are left out.
 */
export function commissionQuery(filter: CommissionFilter): ReferralCommissionQuery {
  const query: ReferralCommissionQuery = {};
  if (filter.product !== '') query.product = filter.product;
  const coin = filter.coin.trim().toUpperCase();
  if (coin !== '') query.coin = coin;
  const from = localMidnight(filter.fromDay);
  if (from !== null) query.from = from;
  const to = localMidnight(filter.toDay, 1);
  if (to !== null) query.to = to;
  return query;
}
