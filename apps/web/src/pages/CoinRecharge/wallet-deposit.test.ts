import { decodeFunctionData, erc20Abi } from 'viem';
import { describe, expect, it, vi } from 'vitest';
import type { Eip1193Provider } from '../../features/wallet/provider.ts';
import { tokenUnits } from './token-units.ts';
import { sendFromWallet } from './wallet-deposit.ts';

describe('tokenUnits', () => {
  it('converts the typed amount to the token units exactly', () => {
    expect(tokenUnits('1000', 18)).toBe(1000n * 10n ** 18n);
    expect(tokenUnits('1000', 6)).toBe(1_000_000_000n);
    expect(tokenUnits('0.000001', 6)).toBe(1n);
    expect(tokenUnits('12.5', 8)).toBe(1_250_000_000n);
    expect(tokenUnits('0.000000000000000001', 18)).toBe(1n);
    expect(tokenUnits(' 7. ', 0)).toBe(7n);
  });

  it('refuses what it could only send rounded, and what is not a positive amount', () => {
    expect(tokenUnits('0.0000001', 6)).toBeNull();
    expect(tokenUnits('1.5', 0)).toBeNull();
    expect(tokenUnits('0', 18)).toBeNull();
    expect(tokenUnits('-1', 18)).toBeNull();
    expect(tokenUnits('', 18)).toBeNull();
    expect(tokenUnits('1e3', 18)).toBeNull();
    expect(tokenUnits('abc', 18)).toBeNull();
  });
});

const TOKEN = '0x55d398326f99059fF775485246999027B3197955';
const DEPOSIT = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';
const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function fakeWallet(chainId: string) {
  const request = vi.fn(async ({ method }: { method: string; params?: unknown }) => {
    if (method === 'eth_requestAccounts') return [PAYER.toLowerCase()];
    if (method === 'eth_chainId') return chainId;
    if (method === 'wallet_switchEthereumChain') return null;
    if (method === 'eth_sendTransaction') return `0x${'ab'.repeat(32)}`;
    throw new Error(`unexpected ${method}`);
  });
  return { provider: { request } as Eip1193Provider, request };
}

describe('sendFromWallet', () => {
  it('sends one plain transfer of exactly the units to the deposit address, never an approval', async () => {
    const { provider, request } = fakeWallet('0x38');
    const hash = await sendFromWallet({ provider, chain: 56, token: TOKEN, to: DEPOSIT, units: 1000n });
    expect(hash).toBe(`0x${'ab'.repeat(32)}`);
    const methods = request.mock.calls.map(([call]) => call.method);
    expect(methods).not.toContain('wallet_switchEthereumChain');
    const sent = request.mock.calls.filter(([call]) => call.method === 'eth_sendTransaction');
    expect(sent).toHaveLength(1);
    const [tx] = (sent[0]?.[0].params ?? []) as { from: string; to: string; data: `0x${string}` }[];
    expect(tx?.from.toLowerCase()).toBe(PAYER.toLowerCase());
    expect(tx?.to.toLowerCase()).toBe(TOKEN.toLowerCase());
    const call = decodeFunctionData({ abi: erc20Abi, data: tx?.data ?? '0x' });
    expect(call.functionName).toBe('transfer');
    expect(call.args).toEqual([DEPOSIT, 1000n]);
  });

  it("moves the wallet to the deposit's chain first", async () => {
    const { provider, request } = fakeWallet('0x1');
    await sendFromWallet({ provider, chain: 56, token: TOKEN, to: DEPOSIT, units: 1n });
    expect(request).toHaveBeenCalledWith({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: '0x38' }],
    });
  });
});
