import { describe, expect, it } from 'vitest';
import { filterAssetRows, isZeroRow, toLocal } from './rows.ts';

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

  it('value USDT in the local currency with decimals, not floats', () => {
    expect(toLocal('0.1', { symbol: '¥', price: '7.2', coin: 'CNY' })).toBe('0.72');
    expect(toLocal('1', undefined)).toBeNull();
  });
});
