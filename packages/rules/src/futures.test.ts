import { describe, expect, it } from 'vitest';
import {
  checkFuturesOrder,
  checkPartialClose,
  checkPositionTpSl,
  type FuturesMarginInput,
  type FuturesOrderInput,
  futuresMarginEstimate,
  futuresSliderQuantity,
} from './futures.ts';
import { keyOf } from './testing.ts';

const limitBuy: FuturesOrderInput = {
  side: 'buy',
  style: 'limit',
  price: '100',
  latestPrice: '110',
  quantity: '5',
  minNumber: '1',
  maxNumber: '100',
  priceAccuracy: 2,
};

describe('checkFuturesOrder', () => {
  it.each<[string, Partial<FuturesOrderInput>, string | null]>([
    ['a valid limit buy', {}, null],
    ['no price', { price: '' }, 'rules.priceRequired'],
    ['a non-numeric price', { price: 'abc' }, 'rules.priceInvalid'],
    ['a zero price', { price: '0' }, 'rules.priceNotPositive'],
    ['no quantity', { quantity: '' }, 'rules.quantityRequired'],
    ['a fractional quantity', { quantity: '1.5' }, 'rules.quantityNotInteger'],
    ['a negative quantity', { quantity: '-1' }, 'rules.quantityNotInteger'],
    ['a non-numeric quantity', { quantity: 'five' }, 'rules.quantityNotInteger'],
    ['zero lots', { quantity: '0', minNumber: '0' }, 'rules.quantityNotPositive'],
    ['below the minimum', { quantity: '4', minNumber: '5' }, 'rules.minBuy'],
    ['exactly the minimum', { quantity: '5', minNumber: '5' }, null],
    ['above the maximum', { quantity: '101' }, 'rules.maxBuy'],
    ['exactly the maximum', { quantity: '100' }, null],
    ['a price error before a quantity error', { price: '', quantity: '' }, 'rules.priceRequired'],
  ])('%s → %s', (_, change, key) => expect(keyOf(checkFuturesOrder({ ...limitBuy, ...change }))).toBe(key));

  it('separates buy and sell bounds and names them', () => {
    expect(checkFuturesOrder({ ...limitBuy, side: 'sell', quantity: '4', minNumber: '5' })).toEqual({
      key: 'rules.minSell',
      params: { min: '5' },
    });
    expect(checkFuturesOrder({ ...limitBuy, side: 'sell', quantity: '101' })).toEqual({
      key: 'rules.maxSell',
      params: { max: '100' },
    });
  });

  it.each<[string, Partial<FuturesOrderInput>, string | null]>([
    ['buy TP above the price', { takeProfit: '101' }, null],
    ['buy TP at the price', { takeProfit: '100' }, 'rules.takeProfitMustBeAbove'],
    ['buy TP below the price', { takeProfit: '99' }, 'rules.takeProfitMustBeAbove'],
    ['buy SL below the price', { stopLoss: '99.5' }, null],
    ['buy SL at the price', { stopLoss: '100' }, 'rules.stopLossMustBeBelow'],
    ['buy SL above the price', { stopLoss: '101' }, 'rules.stopLossMustBeBelow'],
    ['buy with both right', { takeProfit: '120', stopLoss: '90' }, null],
    [
      'buy with both wrong: TP speaks first',
      { takeProfit: '90', stopLoss: '120' },
      'rules.takeProfitMustBeAbove',
    ],
    ['an empty TP is no TP', { takeProfit: '', stopLoss: '' }, null],
    ['a non-numeric TP', { takeProfit: 'high' }, 'rules.takeProfitInvalid'],
    ['a zero SL', { stopLoss: '0' }, 'rules.stopLossInvalid'],
    ['sell TP below the price', { side: 'sell', takeProfit: '99' }, null],
    ['sell TP above the price', { side: 'sell', takeProfit: '101' }, 'rules.takeProfitMustBeBelow'],
    ['sell SL above the price', { side: 'sell', stopLoss: '101' }, null],
    ['sell SL below the price', { side: 'sell', stopLoss: '99' }, 'rules.stopLossMustBeAbove'],
    [
      'market buy TP against the latest price 110',
      { style: 'market', takeProfit: '105' },
      'rules.takeProfitMustBeAbove',
    ],
    ['market buy TP above the latest price', { style: 'market', price: '', takeProfit: '111' }, null],
    ['market buy SL between price and latest', { style: 'market', stopLoss: '105' }, null],
    ['a price with more decimals than the contract', { price: '100.001' }, 'rules.tooManyDecimals'],
    ['a price with trailing zeros', { price: '100.5000' }, null],
    ['a 14-digit price', { price: '1'.repeat(14) }, 'rules.tooManyIntegerDigits'],
    [
      'a TP with more decimals than the contract',
      { takeProfit: `101.${'1'.repeat(30)}` },
      'rules.tooManyDecimals',
    ],
    ['a 38-digit TP', { takeProfit: '9'.repeat(38) }, 'rules.tooManyIntegerDigits'],
    ['a 38-digit SL', { stopLoss: '9'.repeat(38) }, 'rules.tooManyIntegerDigits'],
    ['a SL with more decimals than the contract', { stopLoss: '99.123' }, 'rules.tooManyDecimals'],
    ['a TP of 13 digits and the contract decimals', { takeProfit: `${'9'.repeat(13)}.99` }, null],
  ])('%s → %s', (_, change, key) => expect(keyOf(checkFuturesOrder({ ...limitBuy, ...change }))).toBe(key));

  it('names the reference price in a TP/SL error', () => {
    expect(checkFuturesOrder({ ...limitBuy, style: 'market', takeProfit: '105' })?.params).toEqual({
      price: '110',
    });
    expect(checkFuturesOrder({ ...limitBuy, stopLoss: '100.50' })?.params).toEqual({ price: '100' });
  });
});

describe('checkPositionTpSl', () => {
  const long = { side: 'long' as const, openPrice: '100', priceAccuracy: 2 };
  const short = { side: 'short' as const, openPrice: '100', priceAccuracy: 2 };
  it.each<[string, Parameters<typeof checkPositionTpSl>[0], string | null]>([
    ['neither TP nor SL', long, 'rules.tpSlRequired'],
    ['blank TP and SL', { ...long, takeProfit: '', stopLoss: ' ' }, 'rules.tpSlRequired'],
    ['long TP above open', { ...long, takeProfit: '110' }, null],
    ['long TP at open', { ...long, takeProfit: '100' }, null],
    ['long TP below open', { ...long, takeProfit: '99.99' }, 'rules.takeProfitCannotBeBelow'],
    ['long SL below open', { ...long, stopLoss: '90' }, null],
    ['long SL at open', { ...long, stopLoss: '100' }, null],
    ['long SL above open', { ...long, stopLoss: '100.01' }, 'rules.stopLossCannotBeAbove'],
    ['short TP below open', { ...short, takeProfit: '90' }, null],
    ['short TP above open', { ...short, takeProfit: '101' }, 'rules.takeProfitCannotBeAbove'],
    ['short SL above open', { ...short, stopLoss: '110' }, null],
    ['short SL below open', { ...short, stopLoss: '99' }, 'rules.stopLossCannotBeBelow'],
    ['a non-numeric TP', { ...long, takeProfit: 'x', stopLoss: '90' }, 'rules.takeProfitInvalid'],
    ['a TP with 30 decimals', { ...long, takeProfit: `110.${'1'.repeat(30)}` }, 'rules.tooManyDecimals'],
    ['a 38-digit TP', { ...long, takeProfit: '9'.repeat(38) }, 'rules.tooManyIntegerDigits'],
    [
      'a SL with 3 decimals on a 2-decimal contract',
      { ...long, stopLoss: '90.125' },
      'rules.tooManyDecimals',
    ],
  ])('%s → %s', (_, position, key) => expect(keyOf(checkPositionTpSl(position))).toBe(key));
});

describe('futuresMarginEstimate', () => {
  const base: FuturesMarginInput = {
    price: '100',
    quantity: '3',
    unit: '0.01',
    lever: 10,
    gas: '0.0005',
    usable: '1000',
    minNumber: '1',
  };

  it('computes notional, margin, fee and their total exactly', () => {
    expect(futuresMarginEstimate(base)).toEqual({
      notional: '3',
      margin: '0.3',
      fee: '0.0015',
      total: '0.3015',
    });
  });

  it('floors the margin of an odd leverage at 18 digits', () => {
    expect(futuresMarginEstimate({ ...base, quantity: '1', unit: '0.01', lever: 3 })?.margin).toBe(
      '0.333333333333333333',
    );
  });

  it.each<[string, Partial<FuturesMarginInput>]>([
    ['no price', { price: '' }],
    ['a zero price', { price: '0' }],
    ['a non-numeric price', { price: 'x' }],
    ['a fractional quantity', { quantity: '1.5' }],
    ['an empty quantity', { quantity: '' }],
    ['a quantity below the minimum', { quantity: '3', minNumber: '4' }],
    ['a balance one unit short of margin plus fee', { usable: '0.3014' }],
  ])('is blank with %s', (_, change) => expect(futuresMarginEstimate({ ...base, ...change })).toBeNull());

  it('is shown when the balance covers margin plus fee exactly', () => {
    expect(futuresMarginEstimate({ ...base, usable: '0.3015' })).not.toBeNull();
  });
});

describe('futuresSliderQuantity', () => {
  const base = { usable: '1000', percent: 50, price: '100', unit: '0.01', lever: 10, gas: '0.0005' };

  it.each<[string, Partial<typeof base>, string]>([
    ['500 / (100 × 0.01 × (0.1 + 0.0005)) = 4975.12', {}, '4975'],
    ['100 % at leverage 1, no fee', { percent: 100, lever: 1, gas: '0' }, '1000'],
    [
      'an exact fit is a whole lot',
      { usable: '1', percent: 100, price: '1', unit: '1', lever: 3, gas: '0' },
      '3',
    ],
    // 1/3 floored to 18 digits would make 0.999999999999999999 buy 3 lots costing 1.
    [
      'one unit short of the exact fit buys one lot fewer',
      { usable: '0.999999999999999999', percent: 100, price: '1', unit: '1', lever: 3, gas: '0' },
      '2',
    ],
    ['no usable balance', { usable: '0' }, ''],
    ['a negative balance', { usable: '-5' }, ''],
    ['no price', { price: '' }, ''],
    ['a zero price', { price: '0' }, ''],
    ['a non-numeric price', { price: 'abc' }, ''],
    ['less than one lot', { usable: '0.5', percent: 100, lever: 1, gas: '0' }, ''],
    ['0 %', { percent: 0 }, ''],
  ])('%s → %j', (_, change, expected) =>
    expect(futuresSliderQuantity({ ...base, ...change })).toBe(expected),
  );

  it('gives the most lots whose margin plus fee the slider share covers', () => {
    const lots = futuresSliderQuantity(base);
    const estimate = (quantity: string) =>
      futuresMarginEstimate({ ...base, quantity, usable: '500', minNumber: '1' });
    expect(estimate(lots)).not.toBeNull();
    expect(estimate(String(BigInt(lots) + 1n))).toBeNull();
  });
});

describe('checkPartialClose', () => {
  it.each([
    ['3', null],
    ['5', null],
    ['6', 'rules.closeQuantityTooLarge'],
    ['', 'rules.quantityRequired'],
    ['1.5', 'rules.quantityNotInteger'],
    ['-1', 'rules.quantityNotInteger'],
    ['0', 'rules.quantityNotPositive'],
  ])('closing %j of 5 → %s', (quantity, key) =>
    expect(keyOf(checkPartialClose({ quantity, available: '5' }))).toBe(key),
  );

  it('names what can be closed', () => {
    expect(checkPartialClose({ quantity: '6', available: '5' })?.params).toEqual({ max: '5' });
  });
});
