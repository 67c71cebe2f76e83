import {
  areaCodeDigits,
  checkEmail,
  checkPhone,
  MAINLAND_AREA_CODE,
  nationalPhone,
  type RuleError,
} from '@halyard/rules';
import { badRequest } from '../../http/errors.ts';

/** Phone numbers without an area code are mainland numbers (spec §5 "mainland style"). */
export const DEFAULT_AREA_CODE = MAINLAND_AREA_CODE;

/** An email or a phone number with its area code: what a user logs in with and receives codes at. */
export type Account = { kind: 'email'; email: string } | { kind: 'phone'; areaCode: string; phone: string };

export interface AccountInput {
  account: string;
  areaCode?: string | undefined;
}

/** A failed shared rule becomes a localised 400. */
export function throwIf(error: RuleError | null): void {
  if (error) throw badRequest(error.key, error.params);
}

/**
 * An email if it has an @ (or when `kind` says so), otherwise a phone number
 * with its area code; validated by the shared rules.
 */
export function parseAccount(input: AccountInput, kind?: Account['kind']): Account {
  const account = input.account.trim();
  if (kind === 'email' || (kind === undefined && account.includes('@'))) {
    throwIf(checkEmail(account));
    return { kind: 'email', email: account.toLowerCase() };
  }
  const areaCode = areaCodeDigits(input.areaCode ?? DEFAULT_AREA_CODE);
  if (!/^\d{1,4}$/.test(areaCode)) throw badRequest('common.invalidParams', { field: 'areaCode' });
  throwIf(checkPhone(account, areaCode));
  // Stored as the national number (a trunk 0 dropped), so "07911…" and "7911…" are one account.
  return { kind: 'phone', areaCode, phone: nationalPhone(account, areaCode) ?? account };
}

/** The account as codes and login failures know it: "a@b.com" or "+86 13812345678". */
export function accountAddress(account: Account): string {
  return account.kind === 'email' ? account.email : `+${account.areaCode} ${account.phone}`;
}
