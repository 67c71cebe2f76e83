import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCoinFile } from './coins.ts';
import { expectOk, get, startWalletHarness } from './test-support.ts';

/** Tether on Ethereum, as a live deployment would configure it. */
const USDT_ETHEREUM = {
  coin: 'USDT',
  chainId: 1,
  contract: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  decimals: 6,
  isin: true,
  isout: false,
  depositMin: '5',
  withdrawMin: '20',
  withdrawMax: '50000',
  withdrawDailyMax: '100000',
  withdrawFee: '4.5',
  approvalThreshold: '5000',
  confirmations: 12,
  sort: 1,
};

describe('the live coins file', () => {
  it('parses entries with a checksummed contract and exact limits', () => {
    const [coin] = parseCoinFile(JSON.stringify([USDT_ETHEREUM]));
    expect(coin).toMatchObject({
      coin: 'USDT',
      chainId: 1,
      contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      decimals: 6,
    });
    expect(coin?.withdrawFee.toString()).toBe('4.5');
  });

  it.each([
    ['coin', { coin: 'usdt' }],
    ['chainId', { chainId: 5 }],
    ['contract', { contract: '0xdAC17F958D2ee523a2206206994597C13D831ec8' }],
    ['decimals', { decimals: 19 }],
    ['confirmations', { confirmations: 0 }],
    ['isout', { isout: 'yes' }],
    ['withdrawFee', { withdrawFee: 4.5 }],
    ['depositMin', { depositMin: '-1' }],
    ['withdrawMin (above withdrawMax)', { withdrawMin: '60000' }],
    ['withdrawMax (above withdrawDailyMax)', { withdrawDailyMax: '100' }],
  ])('refuses a wrong %s, naming the entry', (field, change) => {
    expect(() => parseCoinFile(JSON.stringify([{ ...USDT_ETHEREUM, ...change }]))).toThrow(
      `wallet coins file entry 0: invalid ${field}`,
    );
  });

  it('refuses a coin listed twice on the same chain, naming both entries', () => {
    const twice = [USDT_ETHEREUM, { ...USDT_ETHEREUM, chainId: 56 }, { ...USDT_ETHEREUM, withdrawFee: '1' }];
    expect(() => parseCoinFile(JSON.stringify(twice))).toThrow(
      'wallet coins file entry 2: USDT on chain 1 is already entry 0',
    );
  });

  it('is loaded at start: the coin list shows it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-coins-'));
    const file = path.join(dir, 'coins.json');
    fs.writeFileSync(file, JSON.stringify([{ ...USDT_ETHEREUM, coin: 'USDC', sort: 99 }]));
    const h = await startWalletHarness(null, { WALLET_COINS_FILE: file });
    try {
      const coins = (await expectOk(get(h, '/account/coins'))).data as { coin: string; isout: boolean }[];
      expect(coins.at(-1)).toMatchObject({ coin: 'USDC', isin: true, isout: false });
    } finally {
      await h.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
