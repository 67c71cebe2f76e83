import type { ReferralRules } from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import {
  coinAmounts,
  commissionQuery,
  formatAmount,
  kickbackRate,
  NO_FILTER,
  percentText,
  ratePercent,
  tierProgress,
  tierRange,
  topRate,
} from './format.ts';

describe('ratePercent', () => {
  it('reads a wire rate as an exact percent with the locale’s decimal mark', () => {
    expect(ratePercent('0.1', 'en')).toBe('10');
    expect(ratePercent('0.3', 'cn')).toBe('30');
    expect(ratePercent('0.125', 'en')).toBe('12.5');
    expect(ratePercent('0.125', 'ru')).toBe('12,5');
    expect(ratePercent('0', 'en')).toBe('0');
  });

  it('puts the percent sign where the language does', () => {
    expect(percentText('0.2', 'en')).toBe('20%');
    expect(percentText('0.025', 'tr')).toBe('%2,5');
  });
});

describe('kickbackRate', () => {
  it('turns a typed percent into the wire rate, with either decimal mark', () => {
    expect(kickbackRate('5', '0.2')).toEqual({ rate: '0.05' });
    expect(kickbackRate(' 2,5 ', '0.2')).toEqual({ rate: '0.025' });
    expect(kickbackRate('0', '0.1')).toEqual({ rate: '0' });
  });

  it('allows the whole own rate and nothing above it', () => {
    expect(kickbackRate('20', '0.2')).toEqual({ rate: '0.2' });
    expect(kickbackRate('20.01', '0.2')).toEqual({ error: 'invite.kickbackTooHigh' });
  });

  it('refuses what is not a percent of at most two decimals', () => {
    for (const typed of ['', 'abc', '-1', '1.234', '1e2']) {
      expect([typed, kickbackRate(typed, '0.3')]).toEqual([typed, { error: 'invite.kickbackInvalid' }]);
    }
  });
});

describe('coinAmounts', () => {
  it('lists each coin’s amount, floored to 8 decimals, coins in order', () => {
    expect(coinAmounts({ USDT: '1.2', HAL: '0.123456789' }, 'en')).toBe('0.12345678 HAL · 1.20000000 USDT');
    expect(coinAmounts({ USDT: '1234.5' }, 'ru')).toBe('1\u00a0234,50000000 USDT');
  });

  it('says zero when the member has earned nothing yet', () => {
    expect(coinAmounts({}, 'en')).toBe('0.00000000');
  });
});

describe('commissionQuery', () => {
  it('leaves empty filters out', () => {
    expect(commissionQuery(NO_FILTER)).toEqual({});
  });

  it('runs from the first day’s local midnight to the end of the last day, coin in capitals', () => {
    const query = commissionQuery({
      product: 'spot',
      coin: ' usdt ',
      fromDay: '2026-11-01',
      toDay: '2026-11-30',
    });
    expect(query).toEqual({
      product: 'spot',
      coin: 'USDT',
      from: new Date(2026, 10, 1).getTime(),
      to: new Date(2026, 11, 1).getTime(),
    });
  });

  it('crosses the end of a month and a year', () => {
    expect(commissionQuery({ ...NO_FILTER, toDay: '2026-12-31' }).to).toBe(new Date(2027, 0, 1).getTime());
  });

  it('ignores a day that is not YYYY-MM-DD', () => {
    expect(commissionQuery({ ...NO_FILTER, fromDay: '26.11.2026' })).toEqual({});
  });
});

describe('formatAmount', () => {
  it('keeps 2 to 8 decimals, floored, so the smallest step still shows', () => {
    expect(formatAmount('500', 'en')).toBe('500.00');
    expect(formatAmount('4999.999', 'en')).toBe('4,999.999');
    expect(formatAmount('0.00000001', 'en')).toBe('0.00000001');
    expect(formatAmount('0.123456789', 'en')).toBe('0.12345678');
    expect(formatAmount('5000.5', 'ru')).toBe('5\u00a0000,50');
  });
});

describe('tierProgress', () => {
  it('is the share of the next threshold, floored and capped', () => {
    expect(tierProgress('250', '500')).toBe(50);
    expect(tierProgress('499.99', '500')).toBe(99);
    expect(tierProgress('0', '500')).toBe(0);
    expect(tierProgress('6000', '5000')).toBe(100);
  });
});

const RULES: ReferralRules = {
  tiers: [
    { tier: 1, minHoldings: '0', rate: '0.1' },
    { tier: 2, minHoldings: '500', rate: '0.2' },
    { tier: 3, minHoldings: '5000', rate: '0.3' },
  ],
  levelTwoRate: '0.1',
  base: 'fee',
  halDiscount: '0.1',
  bindWindowDays: 14,
  averageWindowHours: 24,
  payoutIntervalSeconds: 60,
};

describe('reward rules', () => {
  it('promises the highest tier’s rate', () => {
    expect(topRate(RULES)).toBe('0.3');
  });

  it('names each tier’s holdings as spec §9 words them: under 500, 500–5000, above 5000', () => {
    expect(tierRange(RULES, 0, 'en')).toEqual({ key: 'invite.rangeUnder', min: '0', max: '500' });
    expect(tierRange(RULES, 1, 'en')).toEqual({ key: 'invite.rangeBetween', min: '500', max: '5,000' });
    expect(tierRange(RULES, 2, 'tr')).toEqual({ key: 'invite.rangeAbove', min: '5.000', max: '' });
  });
});
