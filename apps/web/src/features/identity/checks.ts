import {
  checkEmail,
  checkPassword,
  checkPasswordsMatch,
  checkPhone,
  checkRequired,
  firstError,
  type RuleError,
} from '@halyard/rules';
import { ruleText } from '../../i18n/index.ts';
import { toast } from '../../shared/ui/toast.ts';
import type { AccountEntry } from './api.ts';

export type AccountKind = 'email' | 'phone';

/** The account field as the server checks it: a valid email, or a valid phone number for the picked area code. */
export function checkAccount({ kind, account, area }: AccountEntry, field: string): RuleError | null {
  return firstError(
    () => checkRequired(account, field),
    () => (kind === 'email' ? checkEmail(account.trim()) : checkPhone(account.trim(), area)),
  );
}

/** A new login password: the password rule, then the confirmation matches it. */
export function checkNewPassword({
  password,
  confirmPassword,
}: {
  password: string;
  confirmPassword: string;
}) {
  return firstError(
    () => checkPassword(password),
    () => checkPasswordsMatch(password, confirmPassword),
  );
}

/**
 * Runs the checks in order; on the first failure tells the user (in the
 * server's own words) and returns false, so nothing is sent.
 */
export function passes(...checks: Array<() => RuleError | null>): boolean {
  const error = firstError(...checks);
  if (error === null) return true;
  toast(ruleText(error));
  return false;
}
