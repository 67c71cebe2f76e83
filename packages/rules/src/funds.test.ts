import { describe, expect, it } from 'vitest';
import {
  checkConvert,
  checkDeposit,
  checkTransfer,
  checkWithdrawAddress,
  checkWithdrawal,
  type WithdrawalInput,
} from './funds.ts';
import { keyOf } from './testing.ts';

describe('checkDeposit', () => {
  const base = { amount: '10', min: '5', kycVerified: true, fundPasswordSet: true };
  it.each<[string, Partial<typeof base>, string | null]>([
    ['an amount above the minimum', {}, null],
    ['exactly the minimum', { amount: '5' }, null],
    ['below the minimum', { amount: '4.99999999' }, 'rules.belowMinimum'],
    ['no identity verification', { kycVerified: false, amount: '' }, 'rules.verifyIdentityFirst'],
    ['no fund password', { fundPasswordSet: false }, 'rules.setFundPasswordFirst'],
    ['no amount', { amount: '' }, 'rules.amountRequired'],
    ['a non-numeric amount', { amount: 'ten' }, 'rules.amountInvalid'],
    ['a zero amount', { amount: '0' }, 'rules.amountNotPositive'],
    ['9 decimals', { amount: '10.123456789' }, 'rules.tooManyDecimals'],
  ])('%s → %s', (_, change, key) => expect(keyOf(checkDeposit({ ...base, ...change }))).toBe(key));
});

describe('checkWithdrawal', () => {
  const base: WithdrawalInput = {
    amount: '100',
    address: '0x52908400098527886E0F7030069857D2E4169EE7',
    fundPassword: 'abc123',
    min: '10',
    max: '1000',
    dailyMax: '1500',
    withdrawnToday: '1000',
    usable: '800',
    kycVerified: true,
    fundPasswordSet: true,
  };
  it.each<[string, Partial<WithdrawalInput>, string | null]>([
    ['a withdrawal within every limit', {}, null],
    ['no identity verification', { kycVerified: false }, 'rules.verifyIdentityFirst'],
    ['no fund password set', { fundPasswordSet: false }, 'rules.setFundPasswordFirst'],
    ['no amount', { amount: '' }, 'rules.amountRequired'],
    ['a zero amount', { amount: '0' }, 'rules.amountNotPositive'],
    ['no address', { address: '' }, 'rules.addressRequired'],
    ['no fund password entered', { fundPassword: '' }, 'rules.fundPasswordRequired'],
    [
      'everything missing: amount first',
      { amount: '', address: '', fundPassword: '' },
      'rules.amountRequired',
    ],
    ['below the per-withdrawal minimum', { amount: '9' }, 'rules.belowMinimum'],
    [
      'above the per-withdrawal maximum',
      { amount: '1001', withdrawnToday: '0', usable: '5000' },
      'rules.aboveMaximum',
    ],
    ['exactly what is left of the daily maximum', { amount: '500' }, null],
    ['more than is left of the daily maximum', { amount: '500.5' }, 'rules.dailyLimitExceeded'],
    ['past the daily maximum already', { amount: '10', withdrawnToday: '1600' }, 'rules.dailyLimitExceeded'],
    [
      'more than the balance',
      { amount: '300', withdrawnToday: '0', usable: '299' },
      'rules.insufficientBalance',
    ],
  ])('%s → %s', (_, change, key) => expect(keyOf(checkWithdrawal({ ...base, ...change }))).toBe(key));

  it('says how much is left today', () => {
    expect(checkWithdrawal({ ...base, amount: '600' })?.params).toEqual({ max: '1500', remaining: '500' });
    expect(checkWithdrawal({ ...base, amount: '10', withdrawnToday: '1600' })?.params).toEqual({
      max: '1500',
      remaining: '0',
    });
  });
});

describe('checkWithdrawAddress', () => {
  it.each([
    ['0xabc', 'cold wallet', null],
    ['', 'cold wallet', 'rules.addressRequired'],
    ['0xabc', ' ', 'rules.remarkRequired'],
  ])('%j with remark %j → %s', (address, remark, key) =>
    expect(keyOf(checkWithdrawAddress({ address, remark }))).toBe(key),
  );
});

describe('checkTransfer', () => {
  it.each([
    ['50', null],
    ['100', null],
    ['100.00000001', 'rules.insufficientBalance'],
    ['', 'rules.amountRequired'],
    ['-1', 'rules.amountNotPositive'],
    ['1e2', 'rules.amountInvalid'],
  ])('transferring %j of 100 → %s', (amount, key) =>
    expect(keyOf(checkTransfer({ amount, usable: '100' }))).toBe(key),
  );
});

describe('checkConvert', () => {
  it.each([
    ['50', null],
    ['1', null],
    ['0.5', 'rules.belowMinimum'],
    ['60', 'rules.aboveMaximum'],
    ['150', 'rules.insufficientBalance'], // above the maximum too: the balance speaks first
    ['', 'rules.amountRequired'],
  ])('exchanging %j (balance 100, limits 1-59) → %s', (amount, key) =>
    expect(keyOf(checkConvert({ amount, usable: '100', min: '1', max: '59' }))).toBe(key),
  );
});
