import { describe, expect, it } from 'vitest';
import { type CycleOrderInput, checkClockDrift, checkCycleOrder } from './cycle.ts';
import { keyOf } from './testing.ts';

describe('checkCycleOrder', () => {
  const base: CycleOrderInput = {
    quantity: '50',
    usable: '100',
    min: '10',
    max: '1000',
    email: 'trader@example.com',
  };
  it.each<[string, Partial<CycleOrderInput>, string | null]>([
    ['a stake within every bound', {}, null],
    ['no email', { email: null }, 'rules.bindEmailFirst'],
    ['no email and no quantity: email first', { email: '', quantity: '' }, 'rules.bindEmailFirst'],
    ['no quantity', { quantity: '' }, 'rules.quantityRequired'],
    ['a non-numeric quantity', { quantity: '5O' }, 'rules.quantityInvalid'],
    ['a zero quantity', { quantity: '0' }, 'rules.quantityNotPositive'],
    ['the whole balance', { quantity: '100' }, null],
    ['more than the balance', { quantity: '100.01' }, 'rules.insufficientBalance'],
    [
      'more than the balance and below the minimum: balance first',
      { quantity: '5', usable: '4' },
      'rules.insufficientBalance',
    ],
    ['exactly the minimum', { quantity: '10' }, null],
    ['below the minimum', { quantity: '9.99' }, 'rules.belowMinimum'],
    ['exactly the maximum', { quantity: '1000', usable: '5000' }, null],
    ['above the maximum', { quantity: '1000.5', usable: '5000' }, 'rules.aboveMaximum'],
  ])('%s → %s', (_, change, key) => expect(keyOf(checkCycleOrder({ ...base, ...change }))).toBe(key));

  it('names the bounds', () => {
    expect(checkCycleOrder({ ...base, quantity: '1' })?.params).toEqual({ min: '10' });
    expect(checkCycleOrder({ ...base, quantity: '2000', usable: '5000' })?.params).toEqual({ max: '1000' });
  });
});

describe('checkClockDrift', () => {
  it.each([
    [0, null],
    [5000, null],
    [-5000, null],
    [5001, 'rules.clockDrift'],
    [-5001, 'rules.clockDrift'],
  ])('a tick %i ms behind the synced clock → %s', (behind, key) => {
    const syncedNowMs = 1_764_000_000_000;
    expect(keyOf(checkClockDrift({ lastTickMs: syncedNowMs - behind, syncedNowMs }))).toBe(key);
  });
});
