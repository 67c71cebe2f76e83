import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { depthBarWidths, depthRows } from './depth.ts';

describe('depthBarWidths', () => {
  it('scales by 800 over the total shown and caps at 100 %', () => {
    const widths = depthBarWidths(['1', '2', '37'].map((amount) => Dec.parse(amount)));
    expect(widths).toEqual(['20.00', '40.00', '100.00']);
  });

  it('floors the percentage', () => {
    expect(depthBarWidths([Dec.parse('1'), Dec.parse('299')])).toEqual(['2.66', '100.00']);
  });

  it('gives empty bars when nothing is shown', () => {
    expect(depthBarWidths([])).toEqual([]);
    expect(depthBarWidths([Dec.ZERO])).toEqual(['0.00']);
  });
});

describe('depthRows', () => {
  it('keeps the first rows of a side, each with its bar over the rows shown only', () => {
    const level = (price: string, amount: string) => ({ price: Dec.parse(price), amount: Dec.parse(amount) });
    const rows = depthRows([level('101.50', '1'), level('101', '3'), level('100', '1000')], 2);
    expect(rows).toEqual([
      { price: '101.5', amount: '1', width: '100.00' },
      { price: '101', amount: '3', width: '100.00' },
    ]);
    expect(depthRows([level('100', '1'), level('99', '7')], 20).map((row) => row.width)).toEqual([
      '100.00',
      '100.00',
    ]);
    expect(depthRows([level('100', '1'), level('99', '79')], 20).map((row) => row.width)).toEqual([
      '10.00',
      '100.00',
    ]);
  });
});
