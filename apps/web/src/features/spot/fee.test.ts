import { describe, expect, it } from 'vitest';
import { orderFeeText } from './fee.ts';

describe('orderFeeText', () => {
  it('names the coin received, HAL when fees were deducted in HAL, or both', () => {
    expect(orderFeeText({ fee: '0.00001', feeCoin: 'BTC', feeHal: '0' }, 'en')).toBe('0.00001000 BTC');
    expect(orderFeeText({ fee: '0', feeCoin: 'BTC', feeHal: '0.5' }, 'en')).toBe('0.50000000 HAL');
    expect(orderFeeText({ fee: '1.2', feeCoin: 'USDT', feeHal: '0.5' }, 'ru')).toBe(
      '1,20000000 USDT + 0,50000000 HAL',
    );
  });

  it('says nothing before a fill', () => {
    expect(orderFeeText({ fee: '0', feeCoin: 'BTC', feeHal: '0' }, 'en')).toBeNull();
  });
});
