import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Dec } from '@halyard/money';
import { type Address, createTestClient, http, parseUnits } from 'viem';
import { createApp } from '../../app.ts';
import { ManualClock } from '../../clock.ts';
import { loadConfig } from '../../config.ts';
import { type AccountRef, systemAccount, userAccount } from '../../ledger/index.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { sqlCaughtUp } from '../../money-core/test-support.ts';
import { openTestStore } from '../../store/connect.ts';
import {
  ADMIN_TOKEN,
  type Harness,
  moneyCoreOptions,
  PUBLIC_URL,
  registerByEmail,
  TEST_ENV,
  uniqueIdNumber,
} from '../identity/test-support.ts';
import { chainDefinition, createChainReader, unitsToDec } from './chains.ts';
import { type CoinChain, demoCoinChains } from './coins.ts';
import { type ChainId, LOCAL_DEPLOYER_INDEX, localChainKey } from './config.ts';
import { deployDemoTokens, type LocalChain, sendFromFaucet, startLocalChain } from './local-chain.ts';
import { TEST_TOKEN_ABI } from './test-token.ts';

export { ADMIN_TOKEN, expectOk, get, type Harness, post } from '../identity/test-support.ts';

export const CHAIN: ChainId = 56;
export const FUND_PASSWORD = '123456';
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A real local EVM chain (ganache, one block per transaction) with the demo
 * play tokens deployed at the addresses the demo coin rows name. Tests share
 * one per file and return it to the post-deployment snapshot after each test.
 */
export interface TestChain {
  rpcUrl: string;
  coin(name: string): CoinChain;
  /** Mines `blocks` empty blocks. */
  mine(blocks: number): Promise<void>;
  snapshot(): Promise<`0x${string}`>;
  revert(id: `0x${string}`): Promise<void>;
  /** The faucet account sends a plain ERC-20 transfer; answers the tx hash. */
  send(coin: string, to: Address, amount: string): Promise<`0x${string}`>;
  tokenBalance(coin: string, owner: Address): Promise<Dec>;
  head(): Promise<number>;
  /** Back to the state right after deployment (between tests). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestChain(): Promise<TestChain> {
  const local: LocalChain = await startLocalChain({
    chainId: CHAIN,
    port: 0,
    dbPath: null,
    blockTimeSeconds: 0,
  });
  const coins = demoCoinChains(CHAIN);
  await deployDemoTokens(local.rpcUrl, CHAIN, coins);
  const client = createTestClient({
    mode: 'ganache',
    chain: chainDefinition(CHAIN, local.rpcUrl),
    transport: http(local.rpcUrl),
  });
  const reader = createChainReader(CHAIN, local.rpcUrl);
  const coin = (name: string) => {
    const found = coins.find((entry) => entry.coin === name);
    if (!found) throw new Error(`no test coin ${name}`);
    return found;
  };
  let clean = await client.snapshot();
  return {
    rpcUrl: local.rpcUrl,
    coin,
    async mine(blocks) {
      for (let mined = 0; mined < blocks; mined += 1) await client.mine({ blocks: 1 });
    },
    snapshot: () => client.snapshot(),
    revert: (id) => client.revert({ id }),
    async send(name, to, amount) {
      const entry = coin(name);
      const hash = await sendFromFaucet(local.rpcUrl, entry, to, parseUnits(amount, entry.decimals));
      await reader.client.waitForTransactionReceipt({ hash });
      return hash;
    },
    async tokenBalance(name, owner) {
      const entry = coin(name);
      const units = await reader.client.readContract({
        address: entry.contract,
        abi: TEST_TOKEN_ABI,
        functionName: 'balanceOf',
        args: [owner],
      });
      return unitsToDec(units, entry.decimals);
    },
    head: async () => Number(await reader.client.getBlockNumber()),
    async reset() {
      await client.revert({ id: clean });
      clean = await client.snapshot();
    },
    close: () => local.close(),
  };
}

/**
 * A fresh app and store, watching `chain` (or no chain at all), demo coin rows
 * seeded. `moneyCore`: the money on the sequenced core (AppOptions.moneyCore),
 * its journal and snapshots in the data directory.
 */
export async function startWalletHarness(
  chain: TestChain | null,
  env: Record<string, string> = {},
  options: { moneyCore?: boolean } = {},
): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-wallet-'));
  const config = loadConfig({
    ...TEST_ENV,
    HALYARD_DATA_DIR: dataDir,
    ADMIN_TOKEN,
    PUBLIC_URL,
    HALYARD_DEMO: 'true',
    WALLET_LOCAL_CHAIN: 'false',
    // The local chain's first account deployed the tokens and holds their float: the hot wallet.
    ...(chain ? { WALLET_RPC_56: chain.rpcUrl, WALLET_HOT_KEY: localChainKey(LOCAL_DEPLOYER_INDEX) } : {}),
    ...env,
  });
  const store = await openTestStore();
  const clock = new ManualClock();
  const appOptions = moneyCoreOptions(dataDir, options.moneyCore ?? false);
  const app = await createApp({ config, store, clock, rateLimits: false, ...appOptions });
  const harness: Harness = {
    app,
    clock,
    config,
    store,
    appOptions,
    async close() {
      // The app a test restarted, if it did.
      await harness.app.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export interface TestUser {
  id: number;
  token: string;
}

let registered = 0;

export async function plainUser(h: Harness): Promise<TestUser> {
  registered += 1;
  const { token, member } = await registerByEmail(h, `wallet${registered}@example.com`);
  return { id: member.id, token };
}

/** A user with identity verification approved and a fund password: allowed to withdraw. */
export async function verifiedUser(h: Harness): Promise<TestUser> {
  const user = await plainUser(h);
  await verifyIdentity(h, user.id);
  await h.app.identity.service.setFundPassword(user.id, {
    payPassword: FUND_PASSWORD,
    confirmPayPassword: FUND_PASSWORD,
  });
  return user;
}

export async function verifyIdentity(h: Harness, userId: number): Promise<void> {
  const identity = h.app.identity.service;
  const { url } = await identity.saveUpload(userId, TINY_PNG);
  await identity.submitKyc(userId, { name: 'Li Si', idNumber: uniqueIdNumber(), photoUrl: url });
  const [submission] = (await identity.kycQueue('review', 100)).filter((entry) => entry.userId === userId);
  if (!submission) throw new Error('no KYC submission');
  await identity.decideKyc(submission.id, { by: { name: 'test', id: null }, approve: true });
}

let funded = 0;
/** Play money from the treasury (for tests that are not about deposits). */
export async function fund(h: Harness, userId: number, balances: Record<string, string>): Promise<void> {
  funded += 1;
  const batch = Object.entries(balances).map(([asset, amount]) => ({
    id: `test-fund:${funded}:${asset}`,
    debit: systemAccount('treasury'),
    credit: userAccount(userId, 'spot'),
    asset,
    amount: Dec.parse(amount),
    code: 'test_funding',
  }));
  await h.app.ledger.execute(batch);
}

/** A balance as SQL holds it once it holds every command so far (on the core a user's is answered before). */
export async function balanceOf(h: Harness, ref: AccountRef, asset: string) {
  await sqlCaughtUp(h.app.moneyCore);
  const balance = await h.app.ledger.balance({ ...ref, asset });
  return { available: balance.available.toString(), locked: balance.locked.toString() };
}

export const spot = (user: TestUser): AccountRef => userAccount(user.id, 'spot');

export { expectHealthyLedger };

/** Withdrawals still on their way: approved (to sign) or broadcast (unmined or short of confirmations). */
export async function openWithdrawals(h: Harness): Promise<number> {
  const service = h.app.wallet.service;
  return (
    (await service.withdrawalsInState('approved', 500)).length +
    (await service.withdrawalsInState('broadcast', 500)).length
  );
}

/** Runs the sender and mines a block, until no withdrawal is on its way or `rounds` are done. */
export async function settleWithdrawals(h: Harness, chain: TestChain, rounds = 30): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    await h.app.wallet.service.sendQueued();
    if ((await openWithdrawals(h)) === 0) return;
    await chain.mine(1);
  }
}
