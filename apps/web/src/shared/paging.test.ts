import { describe, expect, it } from 'vitest';
import { nextPage } from './paging.ts';

const page = (items: number, count: number) => ({ list: Array.from({ length: items }, (_, i) => i), count });

describe('nextPage', () => {
  it('asks for the next page while fewer than count items are loaded', () => {
    const first = page(20, 45);
    expect(nextPage(first, [first])).toBe(2);
    const second = page(20, 45);
    expect(nextPage(second, [first, second])).toBe(3);
  });

  it('stops at count, and after an empty page of a list that shrank', () => {
    const first = page(20, 40);
    const last = page(20, 40);
    expect(nextPage(last, [first, last])).toBeUndefined();
    expect(nextPage(page(0, 50), [first, page(0, 50)])).toBeUndefined();
  });
});
