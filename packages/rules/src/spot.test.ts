import { describe, expect, it } from 'vitest';
import { checkSpotOrder, priceStep, type SpotOrderInput, spotSliderAmount } from './spot.ts';
import { keyOf } from './testing.ts';

/** A valid limit buy whose cost (100 × 2) uses the whole usable main coin. */
const limitBuy: SpotOrderInput = {
  side: 'buy',
  style: 'limit',
  price: '100',
  amount: '2',
  latestPrice: '110',
  minNumber: '0.01',
  maxNumber: '1000',
  usableMain: '200',
  usableTrade: '5',
  email: 'trader@example.com',
};
const limitSell: SpotOrderInput = { ...limitBuy, side: 'sell' };
const marketBuy: SpotOrderInput = { ...limitBuy, style: 'market', price: undefined };

describe('checkSpotOrder', () => {
  it.each<[string, Partial<SpotOrderInput>, string | null]>([
    ['a limit buy costing exactly the usable balance', {}, null],
    ['a limit buy costing one cent more', { amount: '2.0001' }, 'rules.insufficientBalance'],
    ['no email', { email: null }, 'rules.bindEmailFirst'],
    ['an empty email', { email: '' }, 'rules.bindEmailFirst'],
    ['no price', { price: undefined }, 'rules.priceRequired'],
    ['a blank price', { price: ' ' }, 'rules.priceRequired'],
    ['a non-numeric price', { price: '1o0' }, 'rules.priceInvalid'],
    ['a zero price', { price: '0' }, 'rules.priceNotPositive'],
    ['a negative price', { price: '-100' }, 'rules.priceNotPositive'],
    ['no amount', { amount: '' }, 'rules.amountRequired'],
    ['a non-numeric amount', { amount: 'two' }, 'rules.amountInvalid'],
    ['a zero amount', { amount: '0' }, 'rules.amountNotPositive'],
    ['an amount just below the minimum', { amount: '0.0099' }, 'rules.minBuy'],
    ['an amount exactly at the minimum', { amount: '0.01' }, null],
    ['an amount above the maximum', { amount: '1000.1', usableMain: '1000000' }, 'rules.maxBuy'],
    ['an amount exactly at the maximum', { amount: '1000', usableMain: '1000000' }, null],
    ['no maximum configured', { maxNumber: undefined, amount: '5000', usableMain: '1000000' }, null],
  ])('limit buy with %s → %s', (_, change, key) => {
    expect(keyOf(checkSpotOrder({ ...limitBuy, ...change }))).toBe(key);
  });

  it.each<[string, Partial<SpotOrderInput>, string | null]>([
    ['the whole usable trade coin', { amount: '5' }, null],
    ['more than the usable trade coin', { amount: '5.00000001' }, 'rules.insufficientBalance'],
    ['a sell needs no main coin', { amount: '5', usableMain: '0' }, null],
    ['an amount below the minimum', { amount: '0.001' }, 'rules.minSell'],
    ['an amount above the maximum', { amount: '1001', usableTrade: '5000' }, 'rules.maxSell'],
  ])('limit sell of %s → %s', (_, change, key) => {
    expect(keyOf(checkSpotOrder({ ...limitSell, ...change }))).toBe(key);
  });

  it.each<[string, Partial<SpotOrderInput>, string | null]>([
    ['costed at the latest price (2 × 110 > 200)', {}, 'rules.insufficientBalance'],
    ['within the balance at the latest price (1.8 × 110 = 198)', { amount: '1.8' }, null],
    ['a leftover limit price is ignored', { price: 'garbage', amount: '1.8' }, null],
    ['still needs an email', { email: null }, 'rules.bindEmailFirst'],
    ['still needs an amount', { amount: '' }, 'rules.amountRequired'],
  ])('market buy %s → %s', (_, change, key) => {
    expect(keyOf(checkSpotOrder({ ...marketBuy, ...change }))).toBe(key);
  });

  it('a market sell is checked against the trade coin only', () => {
    expect(checkSpotOrder({ ...marketBuy, side: 'sell', amount: '5' })).toBeNull();
    expect(keyOf(checkSpotOrder({ ...marketBuy, side: 'sell', amount: '6' }))).toBe(
      'rules.insufficientBalance',
    );
  });

  it('names the bound in the minimum and maximum messages, canonically', () => {
    expect(checkSpotOrder({ ...limitBuy, minNumber: '0.0100', amount: '0.001' })).toEqual({
      key: 'rules.minBuy',
      params: { min: '0.01' },
    });
    expect(checkSpotOrder({ ...limitSell, amount: '1001', usableTrade: '5000' })).toEqual({
      key: 'rules.maxSell',
      params: { max: '1000' },
    });
  });

  it('reports the first failure in the spec order when several apply', () => {
    // Everything wrong; fix one thing at a time and watch the next rule speak.
    const steps: Array<[Partial<SpotOrderInput>, string | null]> = [
      [{}, 'rules.bindEmailFirst'],
      [{ email: 'trader@example.com' }, 'rules.priceRequired'],
      [{ price: 'abc' }, 'rules.priceInvalid'],
      [{ price: '0' }, 'rules.priceNotPositive'],
      [{ price: '100' }, 'rules.amountRequired'],
      [{ amount: 'x' }, 'rules.amountInvalid'],
      [{ amount: '0.001' }, 'rules.minBuy'], // below the minimum and also affordable
      [{ amount: '2000' }, 'rules.maxBuy'], // above the maximum and also unaffordable
      [{ amount: '3' }, 'rules.insufficientBalance'],
      [{ amount: '2' }, null],
    ];
    let order: SpotOrderInput = { ...limitBuy, email: null, price: '', amount: '' };
    for (const [change, key] of steps) {
      order = { ...order, ...change };
      expect(keyOf(checkSpotOrder(order)), JSON.stringify(change)).toBe(key);
    }
  });
});

describe('spotSliderAmount', () => {
  const base = { usableMain: '1000', usableTrade: '1.23456789', price: '3', amountAccuracy: 4 };
  it.each<[string, Partial<Parameters<typeof spotSliderAmount>[0]>, string]>([
    ['buy 25 %: 1000 × 0.25 / 3, floored', { side: 'buy', percent: 25 }, '83.3333'],
    ['buy 100 %: 10 / 4', { side: 'buy', percent: 100, usableMain: '10', price: '4' }, '2.5'],
    [
      'buy at accuracy 0',
      { side: 'buy', percent: 100, usableMain: '100', price: '7', amountAccuracy: 0 },
      '14',
    ],
    ['sell 50 %: 1.23456789 × 0.5 = 0.617283945', { side: 'sell', percent: 50 }, '0.6172'],
    ['sell 100 % keeps the balance', { side: 'sell', percent: 100, amountAccuracy: 8 }, '1.23456789'],
    ['sell ignores the price', { side: 'sell', percent: 20, price: '' }, '0.2469'],
    ['0 % is empty', { side: 'buy', percent: 0 }, ''],
    ['an empty balance is empty', { side: 'sell', percent: 60, usableTrade: '0' }, ''],
    ['an amount below the accuracy is empty', { side: 'sell', percent: 40, usableTrade: '0.0001' }, ''],
    ['buy without a price is empty', { side: 'buy', percent: 40, price: '' }, ''],
    ['buy at a zero price is empty', { side: 'buy', percent: 40, price: '0' }, ''],
    ['buy at a non-numeric price is empty', { side: 'buy', percent: 40, price: 'abc' }, ''],
  ])('%s → %j', (_, change, expected) => {
    expect(spotSliderAmount({ side: 'buy', percent: 0, ...base, ...change })).toBe(expected);
  });

  it.each([101, -1, 12.5])('rejects a slider percent of %d', (percent) => {
    expect(() => spotSliderAmount({ side: 'sell', percent, ...base })).toThrow(RangeError);
  });
});

describe('priceStep', () => {
  it.each([
    [0, '1'],
    [2, '0.01'],
    [8, '0.00000001'],
  ])('accuracy %i → %s', (accuracy, step) => expect(priceStep(accuracy)).toBe(step));
});
