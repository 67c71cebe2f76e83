import { CHAINS, type ChainId } from '@halyard/rules';

/** wallet_addEthereumChain parameters for the two chains Halyard accepts (spec §5 Wallet). */
export const CHAIN_PARAMS: Record<ChainId, object> = {
  1: {
    chainId: '0x1',
    chainName: 'Ethereum Mainnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: ['https://ethereum-rpc.publicnode.com'],
    blockExplorerUrls: ['https://etherscan.io'],
  },
  56: {
    chainId: '0x38',
    chainName: 'BNB Smart Chain',
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: ['https://bsc-dataseed.bnbchain.org'],
    blockExplorerUrls: ['https://bscscan.com'],
  },
};

export function isSupportedChain(chainId: number): chainId is ChainId {
  return (CHAINS as readonly number[]).includes(chainId);
}

export function toHexChain(chainId: number): string {
  return `0x${chainId.toString(16)}`;
}

export function parseChainId(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Number.parseInt(value, value.startsWith('0x') ? 16 : 10);
  return Number.NaN;
}
