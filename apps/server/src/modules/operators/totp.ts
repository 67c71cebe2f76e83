import { generate, generateSecret, generateURI, verify } from 'otplib';

/**
 * TOTP (RFC 6238) as authenticator apps use it: SHA-1, 6 digits, 30 s steps.
 * A code of the step before or after the server's clock is accepted (phones
 * drift); the caller keeps the last accepted step so no code works twice.
 */
const PERIOD_SECONDS = 30;
const TOLERANCE_SECONDS = PERIOD_SECONDS;
const ISSUER = 'Halyard';

export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function totpUri(email: string, secret: string): string {
  return generateURI({ issuer: ISSUER, label: email, secret });
}

/** The code of `secret` at `nowMs` (tests and the test helper sign in with it). */
export function totpCode(secret: string, nowMs: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(nowMs / 1000) });
}

/** The time step a code matches, later than `afterStep`; null when it matches none. */
export async function matchTotp(
  secret: string,
  code: string,
  nowMs: number,
  afterStep: number | null,
): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  // otplib's functional verify answers HOTP's result type too; a TOTP match carries its time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
