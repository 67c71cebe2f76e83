import { Dec } from '@halyard/money';
import { checkFundsAccess } from './account.ts';
import { POSITIVE_NUMBER_DECIMALS } from './constants.ts';
import { type RuleError, ruleError } from './error.ts';
import { checkPositiveInput, checkRange, isBlank } from './number.ts';

/** Every amount moved between balances is a "positive number": above 0, at most 8 decimals. */
function checkFundsAmount(amount: string): RuleError | null {
  return checkPositiveInput(amount, 'amount', { decimals: POSITIVE_NUMBER_DECIMALS });
}

function checkCovered(amount: Dec, usable: string): RuleError | null {
  return amount.gt(Dec.parse(usable)) ? ruleError('rules.insufficientBalance') : null;
}

/**
 * A crypto deposit the user announces before sending it on chain: identity
 * verification and a fund password first, then an amount above 0 and at least
 * the coin's minimum. No screenshot (AMENDMENTS A4): the chain is the proof.
 */
export function checkDeposit(input: {
  amount: string;
  min: string;
  kycVerified: boolean;
  fundPasswordSet: boolean;
}): RuleError | null {
  const error = checkFundsAccess(input) ?? checkFundsAmount(input.amount);
  if (error !== null) return error;
  const min = Dec.parse(input.min);
  return Dec.parse(input.amount).lt(min) ? ruleError('rules.belowMinimum', { min: min.toString() }) : null;
}

export interface WithdrawalInput {
  amount: string;
  /** The chosen saved address. */
  address: string;
  fundPassword: string;
  /** The coin's per-withdrawal minimum and maximum and its daily maximum. */
  min: string;
  max: string;
  dailyMax: string;
  /** Already withdrawn today in this coin, pending included. */
  withdrawnToday: string;
  usable: string;
  kycVerified: boolean;
  fundPasswordSet: boolean;
}

/**
 * Spec §5 "Withdrawal", first failure wins: identity verification and fund
 * password set; amount, address and fund password entered; the per-withdrawal
 * minimum and maximum; the daily maximum; the balance.
 */
export function checkWithdrawal(input: WithdrawalInput): RuleError | null {
  const error =
    checkFundsAccess(input) ??
    checkFundsAmount(input.amount) ??
    (isBlank(input.address) ? ruleError('rules.addressRequired') : null) ??
    (isBlank(input.fundPassword) ? ruleError('rules.fundPasswordRequired') : null);
  if (error !== null) return error;
  const amount = Dec.parse(input.amount);
  return (
    checkRange(amount, input.min, input.max) ??
    checkDailyLimit(amount, input.withdrawnToday, input.dailyMax) ??
    checkCovered(amount, input.usable)
  );
}

function checkDailyLimit(amount: Dec, withdrawnToday: string, dailyMax: string): RuleError | null {
  const max = Dec.parse(dailyMax);
  const remaining = Dec.max(Dec.ZERO, max.sub(Dec.parse(withdrawnToday)));
  return amount.gt(remaining)
    ? ruleError('rules.dailyLimitExceeded', { max: max.toString(), remaining: remaining.toString() })
    : null;
}

/** Saving a withdrawal address needs the address and a remark. */
export function checkWithdrawAddress(input: { address: string; remark: string }): RuleError | null {
  if (isBlank(input.address)) return ruleError('rules.addressRequired');
  return isBlank(input.remark) ? ruleError('rules.remarkRequired') : null;
}

/** Transfer between accounts: an amount, covered by the source balance. */
export function checkTransfer(input: { amount: string; usable: string }): RuleError | null {
  return checkFundsAmount(input.amount) ?? checkCovered(Dec.parse(input.amount), input.usable);
}

/** Exchange (convert) of one coin into another: an amount, covered, within the pair's minimum and maximum. */
export function checkConvert(input: {
  amount: string;
  usable: string;
  min: string;
  max: string;
}): RuleError | null {
  const error = checkFundsAmount(input.amount);
  if (error !== null) return error;
  const amount = Dec.parse(input.amount);
  return checkCovered(amount, input.usable) ?? checkRange(amount, input.min, input.max);
}
