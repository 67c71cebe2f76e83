import argon2 from 'argon2';
import type { PasswordHashCost } from '../../config.ts';

/**
 * Login and fund passwords are stored as argon2id hashes at the configured
 * cost (by default argon2's own: 64 MiB, 3 passes), never in a form that can
 * be reversed. A hash records its cost, so verifying needs none.
 */
export function hashPassword(password: string, cost: PasswordHashCost): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, memoryCost: cost.memoryKib, timeCost: cost.passes });
}

/** False for a wrong password and for a missing hash (a wallet user has no login password). */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) return false;
  return argon2.verify(hash, password);
}
