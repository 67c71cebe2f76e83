import { describe, expect, it } from 'vitest';
import { bookSide } from './book.ts';

describe('spot book side', () => {
  it('shows at most 20 levels and pads to at least 6 rows', () => {
    expect(bookSide([{ price: '1', amount: '1' }])).toHaveLength(6);
    expect(bookSide([{ price: '1', amount: '1' }]).filter((row) => row === null)).toHaveLength(5);
    const many = Array.from({ length: 25 }, (_, index) => ({ price: String(index + 1), amount: '1' }));
    expect(bookSide(many)).toHaveLength(20);
  });

  it('sizes bars over the levels shown only, a garbage amount counting as 0', () => {
    // 25 levels of 1: the 20 shown total 20, so each bar is 1 × 800 / 20 = 40 %.
    const many = Array.from({ length: 25 }, (_, index) => ({ price: String(index + 1), amount: '1' }));
    expect(bookSide(many)[0]?.width).toBe('40.00');
    expect(bookSide([{ price: '1', amount: 'x' }])[0]?.width).toBe('0.00');
  });
});
