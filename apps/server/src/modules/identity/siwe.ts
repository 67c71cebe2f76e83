import { CHAINS } from '@halyard/rules';
import { type Address, getAddress, type Hex, isAddress, verifyMessage } from 'viem';
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe';
import { badRequest } from '../../http/errors.ts';

/** How long a nonce from GET /member/siweNonce stays usable. */
export const SIWE_NONCE_TTL_MS = 10 * 60 * 1000;
/** Tolerated clock difference between the wallet's device and the server. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

export interface SiweLogin {
  address: Address;
  nonce: string;
  chainId: number;
}

/**
 * Checks an EIP-4361 message and its signature (AMENDMENTS A2): one of our domains,
 * chain 1 or 56, issued recently and not in the future, not expired, not
 * before its not-before, and signed by the address it names. The nonce is
 * only read here; the caller consumes it, once.
 */
export async function verifySiweLogin(
  text: string,
  signature: Hex,
  expected: { domains: readonly string[]; now: number },
): Promise<SiweLogin> {
  const message = parseSiweMessage(text);
  const { address, chainId, nonce, issuedAt } = message;
  if (!address || !isAddress(address, { strict: false }) || !nonce || chainId === undefined || !issuedAt) {
    throw badRequest('identity.siweInvalid');
  }
  if (message.domain === undefined || !expected.domains.includes(message.domain)) {
    throw badRequest('identity.siweDomain', { domain: message.domain ?? '' });
  }
  if (!(CHAINS as readonly number[]).includes(chainId)) {
    throw badRequest('identity.siweChain', { chainId });
  }
  const issuedAtMs = issuedAt.getTime();
  if (
    Number.isNaN(issuedAtMs) ||
    issuedAtMs > expected.now + CLOCK_SKEW_MS ||
    issuedAtMs < expected.now - SIWE_NONCE_TTL_MS - CLOCK_SKEW_MS
  ) {
    throw badRequest('identity.siweExpired');
  }
  const expiresAtMs = message.expirationTime?.getTime();
  const notBeforeMs = message.notBefore?.getTime();
  if (
    (expiresAtMs !== undefined && !(expiresAtMs > expected.now)) ||
    (notBeforeMs !== undefined && !(notBeforeMs <= expected.now))
  ) {
    throw badRequest('identity.siweExpired');
  }
  // The library's own checks on top: version 1, nonce syntax, address syntax.
  if (!validateSiweMessage({ message, domain: message.domain, time: new Date(expected.now) })) {
    throw badRequest('identity.siweInvalid');
  }
  const signed = await verifySignature(address, text, signature);
  if (!signed) throw badRequest('identity.siweSignature');
  return { address: getAddress(address), nonce, chainId };
}

async function verifySignature(address: Address, message: string, signature: Hex): Promise<boolean> {
  try {
    return await verifyMessage({ address, message, signature });
  } catch {
    // A malformed signature is the user's mistake, not a server fault.
    return false;
  }
}
