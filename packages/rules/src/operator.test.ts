import type {
  BalanceAdjustmentRequest,
  CyclePairSettings,
  FuturesContractSettings,
  SpotPairSettings,
} from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import {
  checkBalanceAdjustment,
  checkCyclePairSettings,
  checkFuturesContractSettings,
  checkMarketCoins,
  checkSpotPairSettings,
  futuresInitialMarginRate,
  futuresLeverChoices,
} from './operator.ts';
import { keyOf } from './testing.ts';

const WALLETS = ['spot', 'futures'];
const adjustment: BalanceAdjustmentRequest = {
  userId: 7,
  wallet: 'spot',
  coin: 'USDT',
  direction: 'credit',
  amount: '10',
  category: 'compensation',
  reason: 'outage',
};

describe('checkBalanceAdjustment', () => {
  it.each<[string, Partial<BalanceAdjustmentRequest>, string | null]>([
    ['a valid credit', {}, null],
    ['18 decimals', { amount: '0.000000000000000001' }, null],
    ['19 decimals', { amount: '0.0000000000000000001' }, 'rules.tooManyDecimals'],
    ['a wallet of the system', { wallet: 'treasury' }, 'approvals.walletInvalid'],
    ['a prototype name as wallet', { wallet: 'constructor' }, 'approvals.walletInvalid'],
    ['a lower-case coin', { coin: 'usdt' }, 'approvals.coinInvalid'],
    ['zero', { amount: '0' }, 'approvals.amountInvalid'],
    ['an exponent', { amount: '1e2' }, 'approvals.amountInvalid'],
    ['an unknown category', { category: 'bonus' as 'promotion' }, 'approvals.categoryInvalid'],
    ['a blank reason', { reason: '  ' }, 'approvals.reasonRequired'],
    ['a reason of 501 characters', { reason: 'x'.repeat(501) }, 'approvals.reasonTooLong'],
  ])('%s', (_name, change, key) => {
    expect(keyOf(checkBalanceAdjustment({ ...adjustment, ...change }, WALLETS))).toBe(key);
  });
});

const spot: SpotPairSettings = {
  priceAccuracy: 2,
  amountAccuracy: 4,
  minNumber: '0.001',
  maxNumber: '100',
  makerFee: '0.001',
  takerFee: '0.001',
  enabled: true,
  sort: 1,
};

describe('checkSpotPairSettings', () => {
  it.each<[string, Partial<SpotPairSettings>, string | null]>([
    ['valid settings', {}, null],
    ['no fee at all', { makerFee: '0', takerFee: '0' }, null],
    ['the highest fee', { takerFee: '0.1' }, null],
    ['a fee above 10 %', { takerFee: '0.1000001' }, 'markets.feeInvalid'],
    ['a negative fee', { makerFee: '-0.001' }, 'markets.feeInvalid'],
    ['a fractional precision', { priceAccuracy: 1.5 }, 'markets.precisionInvalid'],
    ['a precision above 12', { amountAccuracy: 13 }, 'markets.precisionInvalid'],
    ['precisions over 18 together', { priceAccuracy: 10, amountAccuracy: 9 }, 'markets.precisionInvalid'],
    ['a maximum at the minimum', { maxNumber: '0.001' }, 'markets.maxBelowMin'],
    ['a zero minimum', { minNumber: '0' }, 'markets.amountInvalid'],
    ['a negative sort', { sort: -1 }, 'markets.valueInvalid'],
  ])('%s', (_name, change, key) => {
    expect(keyOf(checkSpotPairSettings({ ...spot, ...change }))).toBe(key);
  });
});

const futures: FuturesContractSettings = {
  priceAccuracy: 2,
  minNumber: '1',
  maxNumber: '10000',
  maxLever: 100,
  fee: '0.0005',
  maintenanceMarginRate: '0.005',
  enabled: true,
  sort: 0,
};

describe('checkFuturesContractSettings', () => {
  it.each<[string, Partial<FuturesContractSettings>, string | null]>([
    ['valid settings', {}, null],
    ['fractional lots', { minNumber: '0.5' }, 'markets.valueInvalid'],
    ['leverage 0', { maxLever: 0 }, 'markets.leverInvalid'],
    ['leverage above 125', { maxLever: 126 }, 'markets.leverInvalid'],
    ['a maintenance rate at the initial rate', { maintenanceMarginRate: '0.01' }, 'markets.marginInvalid'],
    ['a zero maintenance rate', { maintenanceMarginRate: '0' }, 'markets.marginInvalid'],
    ['a lower leverage that leaves room', { maxLever: 20, maintenanceMarginRate: '0.049' }, null],
  ])('%s', (_name, change, key) => {
    expect(keyOf(checkFuturesContractSettings({ ...futures, ...change }))).toBe(key);
  });

  it('offers the ladder up to the maximum, and the maximum itself off the ladder', () => {
    expect(futuresLeverChoices(20)).toEqual([1, 2, 3, 5, 10, 20]);
    expect(futuresLeverChoices(15)).toEqual([1, 2, 3, 5, 10, 15]);
    expect(futuresInitialMarginRate(20).toString()).toBe('0.05');
  });
});

const cycle: CyclePairSettings = {
  priceAccuracy: 2,
  payCoins: ['USDT'],
  options: [
    { seconds: 60, minNumber: '10', maxNumber: '1000', profitRate: '0.85', lossRate: '1', fee: '0.02' },
  ],
  sort: 0,
};

describe('checkCyclePairSettings and checkMarketCoins', () => {
  const option = cycle.options[0]!;
  it.each<[string, Partial<CyclePairSettings>, string | null]>([
    ['valid settings', {}, null],
    ['no durations (the pair closes)', { options: [] }, null],
    ['no pay coin', { payCoins: [] }, 'markets.valueInvalid'],
    ['the same pay coin twice', { payCoins: ['USDT', 'USDT'] }, 'markets.valueInvalid'],
    ['the same duration twice', { options: [option, option] }, 'markets.valueInvalid'],
    ['a duration under 10 s', { options: [{ ...option, seconds: 5 }] }, 'markets.valueInvalid'],
    ['a loss above the stake', { options: [{ ...option, lossRate: '1.5' }] }, 'markets.valueInvalid'],
    ['a fee above the payout', { options: [{ ...option, fee: '1.01' }] }, 'markets.feeInvalid'],
  ])('%s', (_name, change, key) => {
    expect(keyOf(checkCyclePairSettings({ ...cycle, ...change }))).toBe(key);
  });

  it('takes two different coins', () => {
    expect(keyOf(checkMarketCoins({ tradcoin: 'HAL', maincoin: 'USDT' }))).toBeNull();
    expect(keyOf(checkMarketCoins({ tradcoin: 'USDT', maincoin: 'USDT' }))).toBe('markets.valueInvalid');
    expect(keyOf(checkMarketCoins({ tradcoin: 'hal', maincoin: 'USDT' }))).toBe('markets.valueInvalid');
  });
});
