import { describe, expect, it } from 'vitest';
import { checkDepositAccess, checkEmailBound, checkFundsAccess, checkPasswordChangeLock } from './account.ts';
import { keyOf } from './testing.ts';

describe('account prerequisites', () => {
  it.each([
    ['trader@example.com', null],
    ['', 'rules.bindEmailFirst'],
    [null, 'rules.bindEmailFirst'],
  ])('email %j → %s', (email, key) => expect(keyOf(checkEmailBound(email))).toBe(key));

  it.each([
    [true, true, null],
    [false, false, 'rules.verifyIdentityFirst'],
    [true, false, 'rules.setFundPasswordFirst'],
  ])('kyc %s, fund password %s → %s', (kycVerified, fundPasswordSet, key) =>
    expect(keyOf(checkFundsAccess({ kycVerified, fundPasswordSet }))).toBe(key),
  );

  it.each([
    [true, true, 'a@b.co', null],
    [false, false, null, 'rules.verifyIdentityFirst'],
    [true, false, null, 'rules.setFundPasswordFirst'],
    [true, true, null, 'rules.bindEmailFirst'],
    [true, true, ' ', 'rules.bindEmailFirst'],
  ])('deposit: kyc %s, fund password %s, email %j → %s', (kycVerified, fundPasswordSet, email, key) =>
    expect(keyOf(checkDepositAccess({ kycVerified, fundPasswordSet, email }))).toBe(key),
  );

  const hour = 3_600_000;
  const nowMs = 1_764_000_000_000;
  it.each([
    [null, null],
    [nowMs - 24 * hour, null],
    [nowMs - 24 * hour + 1, 'rules.passwordChangeLock'],
    [nowMs, 'rules.passwordChangeLock'],
  ])('password changed at %s → %s', (passwordChangedAtMs, key) =>
    expect(keyOf(checkPasswordChangeLock({ passwordChangedAtMs, nowMs }))).toBe(key),
  );

  it('states the lock in hours', () => {
    expect(checkPasswordChangeLock({ passwordChangedAtMs: nowMs, nowMs })?.params).toEqual({ hours: 24 });
  });
});
