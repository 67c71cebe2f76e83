import { secp256k1 } from '@noble/curves/secp256k1';
import { type Address, bytesToHex } from 'viem';
import { HDKey, publicKeyToAddress } from 'viem/accounts';

/** The deepest BIP-32 child index without hardening: the bound of deposit address indexes. */
export const DEPOSIT_INDEX_MAX = 0x7fffffff;

/**
 * Deposit addresses from an extended public key (watch-only): child {index}
 * of the configured m/44'/60'/0'/0 node. Only public derivation is possible,
 * so this process can tell whose deposit arrived but can never spend it.
 */
export function createAddressDeriver(xpub: string): (index: number) => Address {
  const parent = HDKey.fromExtendedKey(xpub);
  if (parent.privateKey) throw new Error('the deposit key must be an xpub: the API never holds a seed');
  return (index) => {
    if (!Number.isSafeInteger(index) || index < 0 || index > DEPOSIT_INDEX_MAX) {
      throw new Error(`deposit index out of range: ${index}`);
    }
    const child = parent.deriveChild(index);
    if (!child.publicKey) throw new Error('derived key has no public key');
    const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey).toRawBytes(false);
    return publicKeyToAddress(bytesToHex(uncompressed));
  };
}
