import { Dec } from '@halyard/money';
import { type Address, getContractAddress } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { type ChainId, LOCAL_DEPLOYER_INDEX, localChainKey } from './config.ts';

/** One coin on one chain: its token contract and the limits of spec §5 "Deposit" and "Withdrawal". */
export interface CoinChain {
  coin: string;
  chainId: ChainId;
  contract: Address;
  /** Token decimals on this chain (≤ 18: the ledger keeps 18 fractional digits). */
  decimals: number;
  /** Spec §3: isin = deposits allowed, isout = withdrawals allowed. */
  isin: boolean;
  isout: boolean;
  depositMin: Dec;
  withdrawMin: Dec;
  withdrawMax: Dec;
  withdrawDailyMax: Dec;
  withdrawFee: Dec;
  /** Withdrawals above this amount wait for an operator's approval. */
  approvalThreshold: Dec;
  confirmations: number;
  /** Display order of the coin list. */
  sort: number;
}

/** The limits of a demo coin, the same on every chain (play money: the figures are illustrative). */
interface DemoCoin {
  coin: string;
  /** Token decimals per chain: USDT has 6 on Ethereum and 18 on BNB chain, as in the wild. */
  decimals: Record<ChainId, number>;
  depositMin: string;
  withdrawMin: string;
  withdrawMax: string;
  withdrawDailyMax: string;
  withdrawFee: string;
  approvalThreshold: string;
}

export const DEMO_COINS: readonly DemoCoin[] = [
  {
    coin: 'USDT',
    decimals: { 1: 6, 56: 18 },
    depositMin: '1',
    withdrawMin: '10',
    withdrawMax: '100000',
    withdrawDailyMax: '200000',
    withdrawFee: '1',
    approvalThreshold: '10000',
  },
  {
    coin: 'BTC',
    decimals: { 1: 8, 56: 18 },
    depositMin: '0.0001',
    withdrawMin: '0.001',
    withdrawMax: '10',
    withdrawDailyMax: '20',
    withdrawFee: '0.0005',
    approvalThreshold: '1',
  },
  {
    coin: 'ETH',
    decimals: { 1: 18, 56: 18 },
    depositMin: '0.001',
    withdrawMin: '0.01',
    withdrawMax: '100',
    withdrawDailyMax: '200',
    withdrawFee: '0.005',
    approvalThreshold: '10',
  },
  {
    coin: 'BNB',
    decimals: { 1: 18, 56: 18 },
    depositMin: '0.01',
    withdrawMin: '0.05',
    withdrawMax: '500',
    withdrawDailyMax: '1000',
    withdrawFee: '0.001',
    approvalThreshold: '50',
  },
  {
    coin: 'SOL',
    decimals: { 1: 9, 56: 18 },
    depositMin: '0.01',
    withdrawMin: '0.1',
    withdrawMax: '2000',
    withdrawDailyMax: '5000',
    withdrawFee: '0.01',
    approvalThreshold: '100',
  },
  {
    coin: 'HAL',
    decimals: { 1: 18, 56: 6 },
    depositMin: '1',
    withdrawMin: '10',
    withdrawMax: '1000000',
    withdrawDailyMax: '2000000',
    withdrawFee: '5',
    approvalThreshold: '100000',
  },
];

/** Confirmations on the demo chains: a few seconds of one-second blocks. */
export const DEMO_CONFIRMATIONS = 3;

/**
 * The demo tokens of one chain in deployment order. The local chain's first
 * account deploys them, one per nonce from 0, on a fresh chain; so their
 * addresses are known before the chain runs, and the coin rows can be seeded
 * without it.
 */
export function demoCoinChains(chainId: ChainId): CoinChain[] {
  const deployer = privateKeyToAddress(localChainKey(LOCAL_DEPLOYER_INDEX));
  return DEMO_COINS.map((coin, index) => ({
    coin: coin.coin,
    chainId,
    contract: getContractAddress({ from: deployer, nonce: BigInt(index) }),
    decimals: coin.decimals[chainId],
    isin: true,
    isout: true,
    depositMin: Dec.parse(coin.depositMin),
    withdrawMin: Dec.parse(coin.withdrawMin),
    withdrawMax: Dec.parse(coin.withdrawMax),
    withdrawDailyMax: Dec.parse(coin.withdrawDailyMax),
    withdrawFee: Dec.parse(coin.withdrawFee),
    approvalThreshold: Dec.parse(coin.approvalThreshold),
    confirmations: DEMO_CONFIRMATIONS,
    sort: index,
  }));
}
