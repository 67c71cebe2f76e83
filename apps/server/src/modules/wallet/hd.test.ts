import { mnemonicToSeedSync } from '@scure/bip39';
import { HDKey, mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { DEMO_DEPOSIT_MNEMONIC, DEPOSIT_PARENT_PATH, xpubOfMnemonic } from './config.ts';
import { createAddressDeriver } from './hd.ts';

describe('deposit addresses from an xpub', () => {
  it("equal the seed's m/44'/60'/0'/0/{index} accounts, so the signer holding the seed can sweep them", () => {
    const derive = createAddressDeriver(xpubOfMnemonic(DEMO_DEPOSIT_MNEMONIC));
    for (const index of [0, 1, 7, 1_000_000]) {
      expect(derive(index)).toBe(mnemonicToAccount(DEMO_DEPOSIT_MNEMONIC, { addressIndex: index }).address);
    }
  });

  it('refuse a private extended key and an index out of range', () => {
    const xprv = HDKey.fromMasterSeed(mnemonicToSeedSync(DEMO_DEPOSIT_MNEMONIC)).derive(
      DEPOSIT_PARENT_PATH,
    ).privateExtendedKey;
    expect(() => createAddressDeriver(xprv)).toThrow(/xpub/);
    const derive = createAddressDeriver(xpubOfMnemonic(DEMO_DEPOSIT_MNEMONIC));
    expect(() => derive(-1)).toThrow(/range/);
    expect(() => derive(2 ** 31)).toThrow(/range/);
  });
});
