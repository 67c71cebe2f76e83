import { describe, expect, it } from 'vitest';
import { initialOrderForm, orderFormReducer } from './order-form.ts';

const filled = { ...initialOrderForm('buy'), style: 'limit' as const, price: '10', amount: '2', percent: 40 };

describe('spot order form', () => {
  it('starts as a market order', () => {
    expect(initialOrderForm('sell')).toEqual({
      side: 'sell',
      style: 'market',
      price: '',
      amount: '',
      percent: 0,
    });
  });

  it('clears amount and slider when the style or side changes, keeping the price', () => {
    expect(orderFormReducer(filled, { type: 'style', style: 'market' })).toMatchObject({
      style: 'market',
      amount: '',
      percent: 0,
      price: '10',
    });
    expect(orderFormReducer(filled, { type: 'side', side: 'sell' })).toMatchObject({
      side: 'sell',
      amount: '',
    });
    expect(orderFormReducer(filled, { type: 'style', style: 'limit' })).toBe(filled);
  });

  it('sets the price from a book level in limit mode only', () => {
    expect(orderFormReducer(filled, { type: 'level', price: '9.5' }).price).toBe('9.5');
    const market = { ...filled, style: 'market' as const };
    expect(orderFormReducer(market, { type: 'level', price: '9.5' })).toBe(market);
  });

  it('moves the slider with its amount; typing resets the slider', () => {
    const slid = orderFormReducer(filled, { type: 'slider', percent: 60, amount: '3' });
    expect(slid).toMatchObject({ percent: 60, amount: '3' });
    expect(orderFormReducer(slid, { type: 'amount', amount: '1' })).toMatchObject({
      percent: 0,
      amount: '1',
    });
  });

  it('fills an empty price with the latest once and clears amounts after placing', () => {
    const empty = initialOrderForm('buy');
    expect(orderFormReducer(empty, { type: 'latest', price: '5' }).price).toBe('5');
    expect(orderFormReducer(filled, { type: 'latest', price: '5' }).price).toBe('10');
    expect(orderFormReducer(filled, { type: 'placed' })).toMatchObject({
      amount: '',
      percent: 0,
      price: '10',
    });
  });
});
