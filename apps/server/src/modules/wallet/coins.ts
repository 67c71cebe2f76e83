import { Dec } from '@halyard/money';
import { type Address, getAddress, getContractAddress, isAddress } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { DECIMALS_MAX } from './chains.ts';
import { type ChainId, isChainId, LOCAL_DEPLOYER_INDEX, localChainKey } from './config.ts';

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

const MONEY_FIELDS = [
  'depositMin',
  'withdrawMin',
  'withdrawMax',
  'withdrawDailyMax',
  'withdrawFee',
  'approvalThreshold',
] as const;

/**
 * The coins of a live deployment, from the JSON file named by
 * WALLET_COINS_FILE: an array of objects with the fields of {@link CoinChain}
 * (amounts as decimal strings). Every entry is checked, and a wrong one stops
 * the start with the entry and field named: a mistyped contract or limit must
 * never go live.
 */
export function parseCoinFile(text: string): CoinChain[] {
  const entries: unknown = JSON.parse(text);
  if (!Array.isArray(entries)) throw new Error('wallet coins file: expected a JSON array');
  const coins = entries.map((entry, index) => parseCoinEntry(entry, `wallet coins file entry ${index}`));
  // One entry per coin and chain: with two, which settings go live would be a matter of order.
  const seen = new Map<string, number>();
  coins.forEach(({ coin, chainId }, index) => {
    const key = `${coin} on chain ${chainId}`;
    const first = seen.get(key);
    if (first !== undefined)
      throw new Error(`wallet coins file entry ${index}: ${key} is already entry ${first}`);
    seen.set(key, index);
  });
  return coins;
}

function parseCoinEntry(entry: unknown, where: string): CoinChain {
  if (typeof entry !== 'object' || entry === null) throw new Error(`${where}: expected an object`);
  const field = (name: string): unknown => (entry as Record<string, unknown>)[name];
  const fail = (name: string): never => {
    throw new Error(`${where}: invalid ${name}`);
  };
  const coin = field('coin');
  if (typeof coin !== 'string' || !/^[A-Z0-9]{1,20}$/.test(coin)) fail('coin');
  const chainId = field('chainId');
  if (typeof chainId !== 'number' || !isChainId(chainId)) fail('chainId');
  const contract = field('contract');
  if (typeof contract !== 'string' || !isAddress(contract, { strict: true })) fail('contract');
  const decimals = field('decimals');
  if (
    typeof decimals !== 'number' ||
    !Number.isInteger(decimals) ||
    decimals < 0 ||
    decimals > DECIMALS_MAX
  ) {
    fail('decimals');
  }
  const confirmations = field('confirmations');
  if (typeof confirmations !== 'number' || !Number.isInteger(confirmations) || confirmations < 1)
    fail('confirmations');
  const flag = (name: 'isin' | 'isout'): boolean => {
    const value = field(name);
    return typeof value === 'boolean' ? value : fail(name);
  };
  const money = Object.fromEntries(
    MONEY_FIELDS.map((name) => {
      const value = field(name);
      const parsed = typeof value === 'string' ? Dec.tryParse(value) : null;
      return [name, parsed && !parsed.isNegative() ? parsed : fail(name)];
    }),
  ) as Record<(typeof MONEY_FIELDS)[number], Dec>;
  if (money.withdrawMin.gt(money.withdrawMax)) fail('withdrawMin (above withdrawMax)');
  if (money.withdrawMax.gt(money.withdrawDailyMax)) fail('withdrawMax (above withdrawDailyMax)');
  const sort = field('sort');
  return {
    coin: coin as string,
    chainId: chainId as ChainId,
    contract: getAddress(contract as string),
    decimals: decimals as number,
    isin: flag('isin'),
    isout: flag('isout'),
    ...money,
    confirmations: confirmations as number,
    sort: typeof sort === 'number' && Number.isInteger(sort) ? sort : 0,
  };
}
