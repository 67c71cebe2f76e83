import { Dec } from '@halyard/money';
import { winIncome } from '@halyard/rules';
import { describe, expect, it } from 'vitest';
import { decideResult, settle } from './cycle-rules.ts';

const d = (text: string) => Dec.parse(text);
const rates = { profitGas: d('0.85'), lossGas: d('1'), gas: d('0.02') };

describe('cycle outcome', () => {
  it('up wins only strictly above, down only strictly below, equal is a draw', () => {
    expect(decideResult('buy', d('100'), d('100.01'))).toBe('win');
    expect(decideResult('buy', d('100'), d('99.99'))).toBe('loss');
    expect(decideResult('sell', d('100'), d('99.99'))).toBe('win');
    expect(decideResult('sell', d('100'), d('100.01'))).toBe('loss');
    expect(decideResult('buy', d('100'), d('100.000'))).toBe('draw');
    expect(decideResult('sell', d('100'), d('100'))).toBe('draw');
  });

  it('pays stake × profit rate less the fee on a win, floored to 8 decimals', () => {
    expect(winIncome(d('100'), rates)).toEqual({ payout: d('85'), fee: d('1.7'), net: d('83.3') });
    const odd = settle('buy', d('0.123456789'), rates, d('1'), d('2'));
    expect(odd.payout.toString()).toBe('0.10493827');
    expect(odd.fee.toString()).toBe('0.00209876');
    expect(odd.lastProfit.toString()).toBe('0.10283951');
    // A fee rate above 1 takes the whole payout and no more.
    expect(winIncome(d('100'), { ...rates, gas: d('1.5') })).toEqual({
      payout: d('85'),
      fee: d('85'),
      net: d('0'),
    });
  });

  it('takes the loss rate of the stake on a loss, never more than the stake, and no fee', () => {
    expect(settle('buy', d('100'), rates, d('2'), d('1'))).toMatchObject({
      result: 'loss',
      loss: d('100'),
      fee: Dec.ZERO,
    });
    const partial = settle('sell', d('100'), { ...rates, lossGas: d('0.9') }, d('1'), d('2'));
    expect(partial.lastProfit.toString()).toBe('-90');
    expect(settle('sell', d('100'), { ...rates, lossGas: d('1.5') }, d('1'), d('2')).loss.toString()).toBe(
      '100',
    );
  });

  it('moves nothing on a draw', () => {
    expect(settle('buy', d('100'), rates, d('5'), d('5'))).toEqual({
      result: 'draw',
      payout: Dec.ZERO,
      fee: Dec.ZERO,
      loss: Dec.ZERO,
      lastProfit: Dec.ZERO,
    });
  });
});
