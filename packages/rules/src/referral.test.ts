import { Dec } from '@halyard/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  halFeeFor,
  parseReferralFraction,
  REFERRAL_AVERAGE_WINDOW_MS,
  referralNextTier,
  referralShares,
  referralTierOf,
  timeWeightedAverage,
} from './referral.ts';

const d = Dec.parse;
const HOUR = 60 * 60 * 1000;

describe('referral tiers (spec §9: under 500 → 10 %, 500–5000 → 20 %, above 5000 → 30 %)', () => {
  it('puts the boundaries where the spec says', () => {
    const tierOf = (text: string) => referralTierOf(d(text));
    expect(tierOf('0')).toMatchObject({ tier: 1, rate: '0.1' });
    expect(tierOf('499.999999999999999999')).toMatchObject({ tier: 1, rate: '0.1' });
    expect(tierOf('500')).toMatchObject({ tier: 2, rate: '0.2' });
    expect(tierOf('5000')).toMatchObject({ tier: 2, rate: '0.2' });
    expect(tierOf('5000.000000000000000001')).toMatchObject({ tier: 3, rate: '0.3' });
    expect(tierOf('5000.01')).toMatchObject({ tier: 3, rate: '0.3' });
  });

  it('says what the next tier needs, and nothing at the top', () => {
    expect(referralNextTier(d('120'))).toEqual({
      rule: expect.objectContaining({ tier: 2 }),
      missing: d('380'),
    });
    expect(referralNextTier(d('5000'))?.missing.toString()).toBe('0.00000001');
    expect(referralNextTier(d('4000'))?.rule.tier).toBe(3);
    expect(referralNextTier(d('5000.01'))).toBeNull();
  });
});

describe('24 h time-weighted average holdings', () => {
  const to = 1_000 * REFERRAL_AVERAGE_WINDOW_MS;
  const from = to - REFERRAL_AVERAGE_WINDOW_MS;

  it('matches a hand-computed history', () => {
    // 100 for 6 h, 1000 for 12 h, 400 for the last 6 h: (600 + 12000 + 2400) / 24 = 625.
    const changes = [
      { at: from + 6 * HOUR, balance: d('1000') },
      { at: from + 18 * HOUR, balance: d('400') },
    ];
    expect(timeWeightedAverage(d('100'), changes, from, to).toString()).toBe('625');
    expect(referralTierOf(timeWeightedAverage(d('100'), changes, from, to)).tier).toBe(2);
  });

  it('ignores changes outside the window and takes them in time order', () => {
    const changes = [
      { at: from + 12 * HOUR, balance: d('0') },
      { at: from - HOUR, balance: d('9999') },
      { at: to, balance: d('9999') },
    ];
    expect(timeWeightedAverage(d('1000'), changes, from, to).toString()).toBe('500');
  });

  it('counts a million HAL held for one second as a million / 86,400', () => {
    const changes = [{ at: to - 1000, balance: d('1000000') }];
    const average = timeWeightedAverage(d('0'), changes, from, to);
    expect(average.toFixed(8)).toBe('11.57407407');
    expect(referralTierOf(average).tier).toBe(1);
  });
});

describe('commission shares', () => {
  it('pays level 1 its rate less the kickback, level 2 its rate, the rest to the house', () => {
    const shares = referralShares(d('1'), { rate: d('0.3'), kickback: d('0.05') }, d('0.1'));
    expect(Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, v.toString()]))).toEqual({
      levelOne: '0.25',
      kickback: '0.05',
      levelTwo: '0.1',
      house: '0.6',
    });
  });

  it('floors each part to 8 decimals so commissions plus the house share equal the fee exactly', () => {
    const amount = fc.bigInt({ min: 0n, max: 10n ** 20n }).map((units) => Dec.fromUnits(units));
    const rate = fc.constantFrom('0.1', '0.2', '0.3').map(d);
    const kickbackShare = fc.integer({ min: 0, max: 100 });
    fc.assert(
      fc.property(amount, rate, kickbackShare, fc.boolean(), (fee, levelOneRate, share, hasLevelTwo) => {
        const kickback = levelOneRate.mul(Dec.fromInt(share)).div(Dec.fromInt(100));
        const parts = referralShares(fee, { rate: levelOneRate, kickback }, hasLevelTwo ? d('0.1') : null);
        const sum = parts.levelOne.add(parts.kickback).add(parts.levelTwo).add(parts.house);
        return sum.eq(fee) && !parts.house.isNegative() && parts.levelOne.hasAtMostDigits(8);
      }),
    );
  });
});

describe('fees paid in HAL', () => {
  it('discounts the fee value and converts it at the HAL index, floored', () => {
    expect(halFeeFor(d('2.5'), d('1.25'), d('0.1')).toString()).toBe('1.8');
    expect(halFeeFor(d('1'), d('3'), d('0.1')).toString()).toBe('0.3');
    expect(halFeeFor(d('0.00000001'), d('3'), d('0.1')).toString()).toBe('0');
  });
});

describe('typed fractions (kickback, HAL discount)', () => {
  it('takes 0 to the maximum with at most 4 decimals, nothing else', () => {
    const max = d('0.3');
    expect(parseReferralFraction('0.05', max)?.toString()).toBe('0.05');
    expect(parseReferralFraction(' 0.3 ', max)?.toString()).toBe('0.3');
    expect(parseReferralFraction('0', max)?.toString()).toBe('0');
    for (const bad of ['0.30001', '0.31', '-0.1', '0.12345', '', 'abc', '1e-2', '.5']) {
      expect(parseReferralFraction(bad, max)).toBeNull();
    }
  });
});
