import { Dec } from '@halyard/money';
import { type Address, type Chain, createPublicClient, defineChain, http, type PublicClient } from 'viem';
import { CHAIN_NAMES, type ChainId } from './config.ts';

/** The ledger keeps 18 fractional digits; a token with more could not be booked exactly. */
export const DECIMALS_MAX = 18;

/** A viem chain for one of the two supported chain ids, at the configured RPC URL. */
export function chainDefinition(chainId: ChainId, rpcUrl: string): Chain {
  const symbol = CHAIN_NAMES[chainId];
  return defineChain({
    id: chainId,
    name: chainId === 1 ? 'Ethereum' : 'BNB Smart Chain',
    nativeCurrency: { name: symbol, symbol, decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export interface ChainReader {
  chainId: ChainId;
  client: PublicClient;
  hasCode(address: Address): Promise<boolean>;
}

export function createChainReader(chainId: ChainId, rpcUrl: string): ChainReader {
  const client = createPublicClient({
    chain: chainDefinition(chainId, rpcUrl),
    transport: http(rpcUrl),
    // The watcher decides from the head it reads; a cached block number would hide new blocks.
    cacheTime: 0,
    pollingInterval: 250,
  });
  return {
    chainId,
    client,
    async hasCode(address) {
      const code = await client.getCode({ address });
      return code !== undefined && code !== '0x';
    },
  };
}

/** Token base units to an exact amount. */
export function unitsToDec(units: bigint, decimals: number): Dec {
  assertDecimals(decimals);
  return Dec.fromUnits(units * 10n ** BigInt(DECIMALS_MAX - decimals));
}

/** An amount to token base units; the caller has checked it has at most `decimals` digits. */
export function decToUnits(amount: Dec, decimals: number): bigint {
  assertDecimals(decimals);
  if (!amount.hasAtMostDigits(decimals)) throw new Error(`${amount} has more than ${decimals} decimals`);
  return amount.units / 10n ** BigInt(DECIMALS_MAX - decimals);
}

function assertDecimals(decimals: number): void {
  if (!Number.isSafeInteger(decimals) || decimals < 0 || decimals > DECIMALS_MAX) {
    throw new Error(`token decimals out of range: ${decimals}`);
  }
}
