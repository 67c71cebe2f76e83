import { describe, expect, it } from 'vitest';
import { bookSide, depthWidths } from './book.ts';

describe('depth bars', () => {
  it('are amount × 800 / side total, floored to 2 decimals', () => {
    const rows = depthWidths([
      { price: '10', amount: '1' },
      { price: '11', amount: '299' },
    ]);
    // 1 × 800 / 300 = 2.666…
    expect(rows.map((row) => row.width)).toEqual(['2.66', '100']);
  });

  it('cap at 100 %', () => {
    expect(depthWidths([{ price: '1', amount: '5' }])[0]?.width).toBe('100');
  });

  it('are empty when the side holds nothing or garbage', () => {
    expect(depthWidths([{ price: '1', amount: '0' }])[0]?.width).toBe('0');
    expect(depthWidths([{ price: '1', amount: 'x' }])[0]?.width).toBe('0');
  });

  it('show at most 20 levels and pad to at least 6 rows', () => {
    expect(bookSide([{ price: '1', amount: '1' }])).toHaveLength(6);
    expect(bookSide([{ price: '1', amount: '1' }]).filter((row) => row === null)).toHaveLength(5);
    const many = Array.from({ length: 25 }, (_, index) => ({ price: String(index + 1), amount: '1' }));
    expect(bookSide(many)).toHaveLength(20);
  });
});
