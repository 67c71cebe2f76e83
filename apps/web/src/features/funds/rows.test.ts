import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import {
  convertFee,
  filterAssetRows,
  isZeroRow,
  secondsLeft,
  withdrawalDebit,
  withdrawnSince,
} from './rows.ts';

const rows = [
  { coin: 'USDT', usable: '10', disable: '0' },
  { coin: 'BTC', usable: '0', disable: '0.000000000000000001' },
  { coin: 'ETH', usable: '0', disable: '0' },
];

describe('asset rows', () => {
  it('hide only rows that are zero everywhere', () => {
    expect(isZeroRow(['0', '0.00'])).toBe(true);
    expect(isZeroRow(['0', '0.000000000000000001'])).toBe(false);
    const shown = filterAssetRows(rows, '', true, (row) => [row.usable, row.disable]);
    expect(shown.map((row) => row.coin)).toEqual(['USDT', 'BTC']);
  });

  it('search the coin name, case-insensitively', () => {
    expect(filterAssetRows(rows, ' et', false, () => []).map((row) => row.coin)).toEqual(['ETH']);
  });
});

describe('funds arithmetic', () => {
  it('counts a quote down in whole seconds to 0', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });

  it('debits amount plus fee, exactly', () => {
    expect(withdrawalDebit('0.1', '0.2')).toBe('0.3');
    expect(withdrawalDebit('x', '1')).toBeNull();
  });

  it('counts non-rejected withdrawals since the start of the day', () => {
    const records = [
      { amount: '5', state: 'waiting', time: 100 },
      { amount: '7', state: 'rejected', time: 100 },
      { amount: '1.5', state: 'completed', time: 200 },
      { amount: '9', state: 'completed', time: 50 },
    ];
    expect(withdrawnSince(records, 100)).toBe('6.5');
  });
});

describe('convert fee', () => {
  it('is what the spread took from the amount at the rate, floored', () => {
    // 1000 USDT at 0.0000099800 BTC (price 1/100000 less 0.2 %) gives 0.00998 BTC; the 0.2 % kept is 0.00002 BTC.
    expect(convertFee(Dec.parse('1000'), Dec.parse('0.00000998'), Dec.parse('0.002')).toString()).toBe(
      '0.00002',
    );
    expect(convertFee(Dec.parse('1'), Dec.parse('99800'), Dec.parse('0.002')).toString()).toBe('200');
    expect(convertFee(Dec.parse('5'), Dec.parse('2'), Dec.ZERO).isZero()).toBe(true);
  });
});
