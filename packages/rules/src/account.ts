import { PASSWORD_CHANGE_LOCK_MS } from './constants.ts';
import { type RuleError, ruleError } from './error.ts';
import { isBlank } from './number.ts';

/** Spot and cycle trading need a bound email; the web app offers /bindEmail on this error. */
export function checkEmailBound(email: string | null | undefined): RuleError | null {
  return isBlank(email) ? ruleError('rules.bindEmailFirst') : null;
}

/** Deposit and withdrawal need completed identity verification and a fund password, checked in that order. */
export function checkFundsAccess(account: {
  kycVerified: boolean;
  fundPasswordSet: boolean;
}): RuleError | null {
  if (!account.kycVerified) return ruleError('rules.verifyIdentityFirst');
  return account.fundPasswordSet ? null : ruleError('rules.setFundPasswordFirst');
}

/**
 * A deposit address needs what spec §5 "Deposit" and §6 ask, in that order:
 * identity verification, a fund password, then a bound email. The web app
 * leads to the missing step on each error.
 */
export function checkDepositAccess(account: {
  kycVerified: boolean;
  fundPasswordSet: boolean;
  email: string | null | undefined;
}): RuleError | null {
  return checkFundsAccess(account) ?? checkEmailBound(account.email);
}

/** Withdrawal and fiat deposit stay blocked for 24 hours after a password change or reset. */
export function checkPasswordChangeLock(input: {
  passwordChangedAtMs: number | null;
  nowMs: number;
}): RuleError | null {
  if (input.passwordChangedAtMs === null) return null;
  const locked = input.nowMs - input.passwordChangedAtMs < PASSWORD_CHANGE_LOCK_MS;
  return locked
    ? ruleError('rules.passwordChangeLock', { hours: PASSWORD_CHANGE_LOCK_MS / 3_600_000 })
    : null;
}
