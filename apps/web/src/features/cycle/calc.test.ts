import type { CycleLeverOption } from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import { boxTop, expectedProfit, quantityAfterChoosing, ratePercent, secondsLeft, standing } from './calc.ts';

const option: CycleLeverOption = {
  lever: 30,
  minnumber: '10',
  maxnumber: '5000',
  profitGas: '0.8',
  lossGas: '1',
  gas: '0.02',
};

describe('cycle calculators', () => {
  it('counts down from open time + duration against the server-synced clock', () => {
    const position = { wdate: 1_000_000, lever: 30 };
    expect(secondsLeft(position, 1_000_000, 0)).toBe(30);
    // The local clock or the measured offset a little behind the server's: still at most the duration.
    expect(secondsLeft(position, 1_000_000, -400)).toBe(30);
    expect(secondsLeft(position, 1_000_000, 10_500)).toBe(20);
    expect(secondsLeft(position, 1_029_001, 0)).toBe(1);
    expect(secondsLeft(position, 1_030_000, 0)).toBe(0);
    expect(secondsLeft(position, 1_040_000, 0)).toBe(0);
  });

  it('spaces the floating boxes 150 px apart from 100 px', () => {
    expect([0, 1, 2].map(boxTop)).toEqual([100, 250, 400]);
  });

  it('says winning only strictly in the chosen direction', () => {
    expect(standing({ type: 'buy', open_price: '100' }, '100.01')).toBe('winning');
    expect(standing({ type: 'buy', open_price: '100' }, '99')).toBe('losing');
    expect(standing({ type: 'sell', open_price: '100' }, '99')).toBe('winning');
    expect(standing({ type: 'sell', open_price: '100' }, '100.00')).toBe('even');
  });

  it('shows the profit rate and the expected profit after the fee', () => {
    expect(ratePercent('0.8')).toBe('80.00');
    expect(expectedProfit('100', option)).toBe('78.4');
    expect(expectedProfit('', option)).toBeNull();
    expect(expectedProfit('abc', option)).toBeNull();
  });

  it('clears a quantity below the chosen duration minimum', () => {
    expect(quantityAfterChoosing('5', option)).toBe('');
    expect(quantityAfterChoosing('10', option)).toBe('10');
    expect(quantityAfterChoosing('', option)).toBe('');
  });
});
