import fs from 'node:fs';
import { type Address, createWalletClient, type Hex, http, parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainDefinition, createChainReader } from './chains.ts';
import type { CoinChain } from './coins.ts';
import {
  type ChainId,
  LOCAL_CHAIN_MNEMONIC,
  LOCAL_DEPLOYER_INDEX,
  LOCAL_FAUCET_INDEX,
  localChainKey,
} from './config.ts';
import { TEST_TOKEN_ABI, TEST_TOKEN_BYTECODE } from './test-token.ts';

/** A local EVM node (ganache) running in this process. */
export interface LocalChain {
  chainId: ChainId;
  rpcUrl: string;
  close(): Promise<void>;
}

export interface LocalChainOptions {
  chainId: ChainId;
  /** 0 picks a free port. */
  port: number;
  /** Keeps the chain between starts; null keeps it in memory. */
  dbPath: string | null;
  /** 0 mines a block per transaction (tests mine by hand); otherwise a block every N seconds. */
  blockTimeSeconds: number;
}

/** Play tokens minted to the hot wallet and to the faucet account of a fresh chain, per token. */
const LOCAL_FLOAT = '1000000000';
const DEPLOY_GAS = 3_000_000n;
const MINT_GAS = 120_000n;

/**
 * Starts ganache on 127.0.0.1. It is a devDependency loaded on demand: a
 * production install (demo off) never needs it.
 */
export async function startLocalChain(options: LocalChainOptions): Promise<LocalChain> {
  const { default: ganache } = await import('ganache');
  if (options.dbPath) fs.mkdirSync(options.dbPath, { recursive: true });
  const server = ganache.server({
    logging: { quiet: true },
    chain: { chainId: options.chainId },
    wallet: { mnemonic: LOCAL_CHAIN_MNEMONIC, totalAccounts: 4 },
    miner: { blockTime: options.blockTimeSeconds },
    ...(options.dbPath ? { database: { dbPath: options.dbPath } } : {}),
  });
  await server.listen(options.port, '127.0.0.1');
  const { port } = server.address();
  return {
    chainId: options.chainId,
    rpcUrl: `http://127.0.0.1:${port}`,
    close: () => server.close(),
  };
}

function localWallet(rpcUrl: string, chainId: ChainId, addressIndex: number) {
  return createWalletClient({
    account: privateKeyToAccount(localChainKey(addressIndex)),
    chain: chainDefinition(chainId, rpcUrl),
    transport: http(rpcUrl),
  });
}

/**
 * Deploys the coins' play tokens where `coins` expects them (one per deployer
 * nonce from 0, see `demoCoinChains`) and mints a float to the hot wallet and
 * the faucet. A chain that already has them is left alone; a chain whose
 * deployer moved on without them cannot match the coin rows and is refused.
 */
export async function deployDemoTokens(
  rpcUrl: string,
  chainId: ChainId,
  coins: readonly CoinChain[],
): Promise<void> {
  const reader = createChainReader(chainId, rpcUrl);
  const deployer = localWallet(rpcUrl, chainId, LOCAL_DEPLOYER_INDEX);
  const faucet = privateKeyToAccount(localChainKey(LOCAL_FAUCET_INDEX)).address;
  const first = coins[0];
  if (!first) return;
  if (await reader.hasCode(first.contract)) return;
  const nonce = await reader.client.getTransactionCount({ address: deployer.account.address });
  if (nonce !== 0)
    throw new Error(
      `local chain ${chainId}: the deployer has sent ${nonce} transactions; reset the chain data`,
    );
  // Every transaction names its nonce and gas, so all go out at once and share the next block.
  const hashes: Hex[] = [];
  for (const [index, coin] of coins.entries()) {
    hashes.push(
      await deployer.deployContract({
        abi: TEST_TOKEN_ABI,
        bytecode: TEST_TOKEN_BYTECODE,
        args: [`Halyard play ${coin.coin}`, coin.coin, coin.decimals],
        nonce: index,
        gas: DEPLOY_GAS,
      }),
    );
  }
  let next = coins.length;
  for (const coin of coins) {
    for (const to of [deployer.account.address, faucet]) {
      hashes.push(await mintTo(deployer, coin, to, next));
      next += 1;
    }
  }
  for (const hash of hashes) {
    const receipt = await reader.client.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success')
      throw new Error(`local chain ${chainId}: deployment transaction ${hash} failed`);
  }
}

function mintTo(deployer: ReturnType<typeof localWallet>, coin: CoinChain, to: Address, nonce: number) {
  return deployer.writeContract({
    address: coin.contract,
    abi: TEST_TOKEN_ABI,
    functionName: 'mint',
    args: [to, parseUnits(LOCAL_FLOAT, coin.decimals)],
    nonce,
    gas: MINT_GAS,
  });
}

/** The faucet holds less than asked: `available` base units. */
export class FaucetShort extends Error {
  override name = 'FaucetShort';
  constructor(readonly available: bigint) {
    super(`the faucet holds ${available} base units`);
  }
}

/** Per node: the faucet's last transaction, and the sends queued behind it. */
const faucetQueues = new Map<
  string,
  { last: { nonce: number; hash: Hex } | null; queue: Promise<unknown> }
>();

/**
 * Demo faucet: a plain on-chain transfer of play tokens from the local faucet
 * account to `to`. Sends are queued per node and each takes its nonce here:
 * ganache's "pending" count leaves out its pool, so two sends one after the
 * other got the same nonce (the same transaction, or a refused one).
 */
export function sendFromFaucet(rpcUrl: string, coin: CoinChain, to: Address, units: bigint): Promise<Hex> {
  const state = faucetQueues.get(rpcUrl) ?? { last: null, queue: Promise.resolve() };
  faucetQueues.set(rpcUrl, state);
  const sent = state.queue.then(async () => {
    const faucet = localWallet(rpcUrl, coin.chainId, LOCAL_FAUCET_INDEX);
    const { client } = createChainReader(coin.chainId, rpcUrl);
    const available = await client.readContract({
      address: coin.contract,
      abi: TEST_TOKEN_ABI,
      functionName: 'balanceOf',
      args: [faucet.account.address],
    });
    if (available < units) throw new FaucetShort(available);
    const mined = await client.getTransactionCount({ address: faucet.account.address, blockTag: 'latest' });
    // The last send still known to the node (pooled or mined) holds its nonce; one the chain lost (a revert) does not.
    const last = state.last;
    const lastKnown =
      last !== null &&
      last.nonce >= mined &&
      (await client.getTransaction({ hash: last.hash }).then(Boolean, () => false));
    const nonce = lastKnown ? last.nonce + 1 : mined;
    const hash = await faucet.writeContract({
      address: coin.contract,
      abi: TEST_TOKEN_ABI,
      functionName: 'transfer',
      args: [to, units],
      nonce,
    });
    state.last = { nonce, hash };
    return hash;
  });
  state.queue = sent.catch(() => undefined);
  return sent;
}
