import { hash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A session token: 32 random bytes, base64url. Only its SHA-256 is stored. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** One-shot `hash` (a third of createHash's time): every guarded request hashes its token. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** A 6-digit verification code, uniformly drawn. */
export function newVerificationCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

export function hashCode(salt: string, code: string): string {
  return sha256Hex(`${salt}:${code}`);
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

// No 0/O, 1/I/L: an invitation code is read aloud and typed by hand.
const INVITATION_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INVITATION_CODE_LENGTH = 8;

export function newInvitationCode(): string {
  let code = '';
  for (let i = 0; i < INVITATION_CODE_LENGTH; i++) {
    code += INVITATION_ALPHABET[randomInt(0, INVITATION_ALPHABET.length)];
  }
  return code;
}

/** An EIP-4361 nonce: alphanumeric, 32 characters (128 random bits). */
export function newSiweNonce(): string {
  return randomBytes(16).toString('hex');
}

/** A non-guessable file name for an upload (192 random bits). */
export function newUploadName(extension: string): string {
  return `${randomBytes(24).toString('base64url')}.${extension}`;
}
