import { describe, expect, it } from 'vitest';
import { stepPrice } from './price.ts';

describe('price stepper', () => {
  it('steps by 10^-accuracy in decimals', () => {
    expect(stepPrice('0.1', 2, 1)).toBe('0.11');
    expect(stepPrice('100', 0, -1)).toBe('99');
    expect(stepPrice('0.29', 2, 1)).toBe('0.30');
  });

  it('never goes below the step, and starts from the step when empty', () => {
    expect(stepPrice('0.01', 2, -1)).toBe('0.01');
    expect(stepPrice('', 4, 1)).toBe('0.0001');
    expect(stepPrice('abc', 2, -1)).toBe('0.01');
  });
});
