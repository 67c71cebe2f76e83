import path from 'node:path';
import { Dec } from '@halyard/money';
import { mnemonicToSeedSync } from '@scure/bip39';
import { type Hex, isHex } from 'viem';
import { HDKey, mnemonicToAccount } from 'viem/accounts';

/** Spec §9: only Ethereum (1) and BNB chain (56); 56 is the default. */
export const CHAIN_IDS = [56, 1] as const;
export type ChainId = (typeof CHAIN_IDS)[number];
export const DEFAULT_CHAIN: ChainId = 56;

/** The spec's `blockname` of a chain: "ETH if chain 1, else BNB". */
export const CHAIN_NAMES: Record<ChainId, 'ETH' | 'BNB'> = { 1: 'ETH', 56: 'BNB' };

export function isChainId(value: number): value is ChainId {
  return (CHAIN_IDS as readonly number[]).includes(value);
}

export interface ChainSettings {
  id: ChainId;
  /** JSON-RPC endpoint; null leaves the chain unwatched (addresses are still given out). */
  rpcUrl: string | null;
}

export interface LocalChainSettings {
  /** The first port tried (BNB chain); the Ethereum chain takes the next one. */
  port: number;
  /** Where the local nodes keep their state between starts. */
  dataDir: string;
  /** Interval mining, so confirmations accrue while nobody sends anything. */
  blockTimeSeconds: number;
}

export interface WalletConfig {
  chains: ChainSettings[];
  /**
   * Extended public key of m/44'/60'/0'/0: deposit address {index} is its child
   * {index}. The API process can watch addresses but never spend from them.
   */
  depositXpub: string;
  /** The hot wallet's key, read by the signer only; null means withdrawals wait for one. */
  hotWalletKey: Hex | null;
  /** Live: a JSON file of the coins per chain (contracts, decimals, limits), loaded at every start. */
  coinsFile: string | null;
  /** Demo only: run local EVM nodes in-process and deploy the play tokens. */
  localChain: LocalChainSettings | null;
  /** Interval of the chain watcher and the withdrawal sender. */
  pollMs: number;
  /** A withdrawal's transaction still unmined this long after signing is signed again with higher fees (same nonce). */
  feeBumpAfterMs: number;
  /** Flash convert: the rate is the index price less this fraction. */
  convertSpread: Dec;
  /** How long a flash quote holds its rate. */
  quoteTtlMs: number;
  /**
   * WITHDRAWAL_FOUR_EYES_ABOVE (USDT value, default 10000): a withdrawal in
   * review worth more than this is released only when a second operator
   * approves it too (issue 18, four-eyes); at or below it one approval does.
   */
  fourEyesAboveUsdt: Dec;
}

/**
 * Well-known public test mnemonics, for demo mode only: everybody knows them,
 * so nothing of value may ever sit behind them. The deposit mnemonic differs
 * from the local chain's so that deposit addresses are never the chain's
 * pre-funded accounts.
 */
export const DEMO_DEPOSIT_MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
export const LOCAL_CHAIN_MNEMONIC = 'test test test test test test test test test test test junk';

/** The local chain's accounts: 0 deploys the tokens and is the hot wallet, 1 is the demo faucet. */
export const LOCAL_DEPLOYER_INDEX = 0;
export const LOCAL_FAUCET_INDEX = 1;

/**
 * The local chain's keys and the demo xpub are derived once per process: each
 * derivation runs PBKDF2 (2048 rounds of SHA-512 in JavaScript), about 60 ms
 * of CPU per app, and every config load (each app, each test harness: hundreds
 * a test run) asked for them again. Both come from the public mnemonics above.
 */
const localChainKeys = new Map<number, Hex>();
let demoXpubOnce: string | null = null;

export function localChainKey(addressIndex: number): Hex {
  const known = localChainKeys.get(addressIndex);
  if (known) return known;
  const key = mnemonicToAccount(LOCAL_CHAIN_MNEMONIC, { addressIndex }).getHdKey().privateKey;
  if (!key) throw new Error('local chain key missing');
  const hex: Hex = `0x${Buffer.from(key).toString('hex')}`;
  localChainKeys.set(addressIndex, hex);
  return hex;
}

/** The xpub of m/44'/60'/0'/0 of a mnemonic (demo: the API then derives exactly what a live xpub would give). */
export function xpubOfMnemonic(mnemonic: string): string {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(DEPOSIT_PARENT_PATH).publicExtendedKey;
}

/** BIP-44 Ethereum external chain; deposit address {index} is m/44'/60'/0'/0/{index}. */
export const DEPOSIT_PARENT_PATH = "m/44'/60'/0'/0";

function readInt(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number.parseInt(value, 10);
  if (!Number.isSafeInteger(parsed)) throw new Error(`expected an integer, got ${value}`);
  return parsed;
}

function readUsdt(value: string | undefined, fallback: string, name: string): Dec {
  const parsed = Dec.tryParse(value || fallback);
  if (parsed === null || parsed.isNegative()) throw new Error(`${name} must be a USDT amount, got ${value}`);
  return parsed;
}

/**
 * Wallet settings from the environment. Demo mode works with none: local
 * chains on 127.0.0.1:8545 (BNB) and 8546 (ETH), the demo mnemonic's xpub and
 * the local chain's first account as hot wallet. Live mode needs
 * WALLET_XPUB and an RPC URL per chain; the hot-wallet key is optional (the
 * signer can run elsewhere) and never the seed of the deposit addresses.
 */
export function loadWalletConfig(
  env: NodeJS.ProcessEnv,
  base: { demo: boolean; dataDir: string },
): WalletConfig {
  const localChain =
    base.demo && env.WALLET_LOCAL_CHAIN !== 'false'
      ? {
          port: readInt(env.WALLET_LOCAL_CHAIN_PORT, 8545),
          dataDir: path.join(base.dataDir, 'chain'),
          blockTimeSeconds: readInt(env.WALLET_LOCAL_BLOCK_SECONDS, 1),
        }
      : null;
  const xpub = env.WALLET_XPUB || (base.demo ? demoXpub() : null);
  if (!xpub) throw new Error('WALLET_XPUB is required when demo mode is off');
  const key = env.WALLET_HOT_KEY || (localChain ? localChainKey(LOCAL_DEPLOYER_INDEX) : null);
  if (key !== null && !(isHex(key) && key.length === 66))
    throw new Error('WALLET_HOT_KEY must be 0x + 64 hex');
  return {
    chains: CHAIN_IDS.map((id) => ({ id, rpcUrl: env[`WALLET_RPC_${id}`] || null })),
    depositXpub: xpub,
    coinsFile: env.WALLET_COINS_FILE || null,
    hotWalletKey: key as Hex | null,
    localChain,
    pollMs: readInt(env.WALLET_POLL_MS, 1000),
    feeBumpAfterMs: readInt(env.WALLET_FEE_BUMP_AFTER_MS, 120_000),
    convertSpread: Dec.parse(env.CONVERT_SPREAD || '0.002'),
    quoteTtlMs: readInt(env.CONVERT_QUOTE_TTL_MS, 10_000),
    fourEyesAboveUsdt: readUsdt(env.WITHDRAWAL_FOUR_EYES_ABOVE, '10000', 'WITHDRAWAL_FOUR_EYES_ABOVE'),
  };
}

export function demoXpub(): string {
  demoXpubOnce ??= xpubOfMnemonic(DEMO_DEPOSIT_MNEMONIC);
  return demoXpubOnce;
}
