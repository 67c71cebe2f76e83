import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import {
  checkIeoProjectTerms,
  checkIeoSubscription,
  ieoExpectedAllocation,
  ieoNextVestingAt,
  ieoVestedOf,
  planIeoTranches,
} from './ieo.ts';

const d = Dec.parse;
const fcfs = {
  price: '0.5',
  tokenDecimals: 2,
  usable: '100',
  minNumber: '10',
  maxNumber: '150',
  remaining: '120',
  bought: '20',
};

describe('IEO subscription (spec §5 "IEO: the remaining total must be sufficient")', () => {
  it('checks the amount, the minimum, the user maximum, the remaining total and the balance, in that order', () => {
    expect(checkIeoSubscription({ ...fcfs, amount: '' })).toEqual({ key: 'rules.amountRequired' });
    expect(checkIeoSubscription({ ...fcfs, amount: '1.123456789' })).toEqual({
      key: 'rules.tooManyDecimals',
      params: { digits: 8 },
    });
    expect(checkIeoSubscription({ ...fcfs, amount: '4.99' })).toEqual({
      key: 'ieo.belowMinimum',
      params: { min: '10' },
    });
    expect(checkIeoSubscription({ ...fcfs, amount: '66' })).toEqual({
      key: 'ieo.aboveMaximum',
      params: { max: '150', left: '130' },
    });
    expect(checkIeoSubscription({ ...fcfs, amount: '60.5' })).toEqual({ key: 'ieo.remainingInsufficient' });
    expect(checkIeoSubscription({ ...fcfs, usable: '50', amount: '55' })).toEqual({
      key: 'rules.insufficientBalance',
    });
    expect(checkIeoSubscription({ ...fcfs, amount: '60' })).toBeNull();
    // Commit mode: no maximum or remaining (the cap bounds the allocation), only the balance.
    expect(checkIeoSubscription({ ...fcfs, remaining: null, amount: '100' })).toBeNull();
  });

  it('estimates a commitment: what it buys when undersubscribed, its pro-rata share when over', () => {
    const base = { price: d('1'), supply: d('1000'), cap: d('400'), tokenDecimals: 0 };
    expect(ieoExpectedAllocation({ ...base, amount: d('100'), totalCommitted: d('500') })).toEqual({
      tokens: d('100'),
      refund: d('0'),
      ratio: d('0.5'),
    });
    const over = ieoExpectedAllocation({ ...base, amount: d('500'), totalCommitted: d('2000') });
    expect(over.tokens.toString()).toBe('250');
    expect(over.refund.toString()).toBe('250');
    expect(over.ratio.toString()).toBe('2');
  });
});

describe('IEO vesting plan', () => {
  it('is one tranche at the end of the lock period, or even tranches after a cliff, the last taking the rest', () => {
    const lock = planIeoTranches(
      d('10'),
      { kind: 'tranches', cliffDays: 30, tranches: 1, intervalDays: 0 },
      0,
      2,
    );
    expect(lock.map((tranche) => [tranche.releaseAt, tranche.amount.toString()])).toEqual([
      [30 * 86_400_000, '10'],
    ]);
    const tranches = planIeoTranches(
      d('100'),
      { kind: 'tranches', cliffDays: 1, tranches: 3, intervalDays: 2 },
      1000,
      2,
    );
    expect(tranches.map((tranche) => [tranche.releaseAt, tranche.amount.toString()])).toEqual([
      [1000 + 86_400_000, '33.33'],
      [1000 + 3 * 86_400_000, '33.33'],
      [1000 + 5 * 86_400_000, '33.34'],
    ]);
  });

  it('vests linearly after the cliff, hour by hour: floored to the token unit, all of it at the end', () => {
    const [linear] = planIeoTranches(d('10'), { kind: 'linear', cliffDays: 1, durationDays: 3 }, 0, 2);
    expect(linear).toEqual({ seq: 1, releaseAt: 86_400_000, until: 4 * 86_400_000, amount: d('10') });
    const tranche = linear as NonNullable<typeof linear>;
    expect(ieoVestedOf(tranche, 86_400_000 - 1, 2).toString()).toBe('0');
    expect(ieoVestedOf(tranche, 2 * 86_400_000, 2).toString()).toBe('3.33');
    // 2 h 59 min in: two whole hours of 72 have vested.
    expect(ieoVestedOf(tranche, 86_400_000 + 3 * 3_600_000 - 60_000, 2).toString()).toBe('0.27');
    expect(ieoVestedOf(tranche, 4 * 86_400_000 - 1, 2).toString()).toBe('9.86');
    expect(ieoVestedOf(tranche, 4 * 86_400_000, 2).toString()).toBe('10');
    // The scheduler looks again at the next whole hour, and at the end.
    expect(ieoNextVestingAt(tranche, 0)).toBe(86_400_000);
    expect(ieoNextVestingAt(tranche, 86_400_000 + 90 * 60_000)).toBe(86_400_000 + 2 * 3_600_000);
    expect(ieoNextVestingAt(tranche, 4 * 86_400_000 - 1)).toBe(4 * 86_400_000);
  });
});

describe('IEO project terms', () => {
  const terms = {
    startTime: 1,
    endTime: 2,
    total: '1000',
    tokenDecimals: 2,
    mode: 'fcfs' as const,
    prices: ['0.1'],
    minNumber: '1',
    maxNumber: '100',
    gift: '0.05',
    rebate: '0.1',
    vesting: { kind: 'tranches' as const, cliffDays: 0, tranches: 1, intervalDays: 0 },
  };
  it('needs a window, a supply in the token unit, prices, bounds, fractions and a schedule that ends', () => {
    expect(checkIeoProjectTerms(terms)).toBeNull();
    expect(checkIeoProjectTerms({ ...terms, endTime: 1 })).toEqual({ key: 'ieo.windowInvalid' });
    expect(checkIeoProjectTerms({ ...terms, total: '1.001' })).toMatchObject({ params: { field: 'total' } });
    expect(checkIeoProjectTerms({ ...terms, minNumber: '200' })).toMatchObject({
      params: { field: 'minNumber' },
    });
    expect(checkIeoProjectTerms({ ...terms, gift: '1' })).toMatchObject({ params: { field: 'gift' } });
    expect(checkIeoProjectTerms({ ...terms, mode: 'commit', prices: ['1', '2'] })).toEqual({
      key: 'ieo.commitOnePayCoin',
    });
    expect(
      checkIeoProjectTerms({
        ...terms,
        vesting: { kind: 'tranches', cliffDays: 0, tranches: 3, intervalDays: 0 },
      }),
    ).toMatchObject({ params: { field: 'vesting' } });
    expect(
      checkIeoProjectTerms({ ...terms, vesting: { kind: 'linear', cliffDays: 1, durationDays: 0 } }),
    ).toMatchObject({ params: { field: 'vesting' } });
    expect(
      checkIeoProjectTerms({ ...terms, vesting: { kind: 'linear', cliffDays: 1, durationDays: 30 } }),
    ).toBeNull();
  });
});
