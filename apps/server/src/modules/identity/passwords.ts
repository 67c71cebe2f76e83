import argon2 from 'argon2';

/**
 * Login and fund passwords are stored as argon2id hashes (the library's
 * defaults: 64 MiB, 3 passes), never in a form that can be reversed.
 */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** False for a wrong password and for a missing hash (a wallet user has no login password). */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) return false;
  return argon2.verify(hash, password);
}
