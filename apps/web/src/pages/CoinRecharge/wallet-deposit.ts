import { type Address, createWalletClient, custom, erc20Abi, getAddress, type Hex } from 'viem';
import { parseChainId, toHexChain } from '../../features/wallet/chains.ts';
import type { Eip1193Provider } from '../../features/wallet/provider.ts';

export interface WalletDeposit {
  provider: Eip1193Provider;
  chain: number;
  token: Address;
  to: Address;
  units: bigint;
}

/** Puts the wallet on the deposit's chain; a wallet that cannot switch stops the send. */
async function onChain(provider: Eip1193Provider, chain: number): Promise<void> {
  if (parseChainId(await provider.request({ method: 'eth_chainId' })) === chain) return;
  await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: toHexChain(chain) }] });
}

/**
 * A deposit from the user's own wallet: one plain ERC-20 `transfer` of the
 * typed amount to the deposit address, signed in the wallet. Never an
 * approval (AMENDMENTS A1): the exchange can take nothing, only receive.
 */
export async function sendFromWallet({ provider, chain, token, to, units }: WalletDeposit): Promise<Hex> {
  const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
  const first = accounts[0];
  if (!first) throw new Error('no account');
  await onChain(provider, chain);
  const client = createWalletClient({ account: getAddress(first), transport: custom(provider) });
  return client.writeContract({
    address: token,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, units],
    chain: null,
  });
}
