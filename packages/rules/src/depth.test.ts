import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { depthBarWidths } from './depth.ts';

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
