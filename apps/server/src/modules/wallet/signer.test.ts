import { createTestClient, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chainDefinition, createChainReader } from './chains.ts';
import { LOCAL_DEPLOYER_INDEX, localChainKey } from './config.ts';
import { createSigner, type Signer } from './signer.ts';
import { CHAIN, startTestChain, type TestChain } from './test-support.ts';

const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;

describe('the hot-wallet signer', () => {
  let chain: TestChain;
  let signer: Signer;

  beforeAll(async () => {
    chain = await startTestChain();
    signer = createSigner(localChainKey(LOCAL_DEPLOYER_INDEX), new Map([[CHAIN, chain.rpcUrl]]));
  }, 60_000);
  afterAll(() => chain.close());
  beforeEach(() => chain.reset());

  const miner = () =>
    createTestClient({
      mode: 'ganache',
      chain: chainDefinition(CHAIN, chain.rpcUrl),
      transport: http(chain.rpcUrl),
    });
  const usdt = () => chain.coin('USDT');
  const transferOf = (amount: string) => ({
    chainId: CHAIN,
    token: usdt().contract,
    to: RECIPIENT,
    units: parseUnits(amount, usdt().decimals),
  });
  const signAt = async (amount: string, nonce: number) => {
    const quote = await signer.quote(transferOf(amount));
    return signer.signTransfer(transferOf(amount), nonce, quote.gas, quote.fees);
  };

  it('accepts the same signed bytes again while they wait in the pool and after they are mined', async () => {
    await miner().setAutomine(false);
    const signed = await signAt('5', await signer.minedNonce(CHAIN));
    await signer.broadcast(CHAIN, signed.raw);
    await signer.broadcast(CHAIN, signed.raw);
    await chain.mine(1);
    await miner().setAutomine(true);
    await signer.broadcast(CHAIN, signed.raw);

    expect((await signer.receipt(CHAIN, signed.hash))?.status).toBe('success');
    expect((await chain.tokenBalance('USDT', RECIPIENT)).toString()).toBe('5');
  });

  it('signs with the nonce it is given, not the node’s: the same transfer twice is two transactions', async () => {
    await miner().setAutomine(false);
    const first = await signer.minedNonce(CHAIN);
    const one = await signAt('5', first);
    const two = await signAt('5', first + 1);
    expect(two.hash).not.toBe(one.hash);
    await signer.broadcast(CHAIN, one.raw);
    await signer.broadcast(CHAIN, two.raw);
    await chain.mine(1);
    await miner().setAutomine(true);
    expect((await chain.tokenBalance('USDT', RECIPIENT)).toString()).toBe('10');
    expect(await signer.minedNonce(CHAIN)).toBe(first + 2);
  });

  it('a re-signature with higher fees replaces a pooled transaction at the same nonce', async () => {
    await miner().setAutomine(false);
    const stuck = await signAt('5', await signer.minedNonce(CHAIN));
    await signer.broadcast(CHAIN, stuck.raw);
    const fees = await signer.fees(CHAIN);
    const bumped = await signer.resign(CHAIN, stuck.raw, {
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas * 2n,
    });
    await signer.broadcast(CHAIN, bumped.raw);
    await chain.mine(1);
    await miner().setAutomine(true);
    expect((await signer.receipt(CHAIN, bumped.hash))?.status).toBe('success');
    expect(await signer.receipt(CHAIN, stuck.hash)).toBeNull();
    expect((await chain.tokenBalance('USDT', RECIPIENT)).toString()).toBe('5');
  });

  it('still fails a different transaction at a pooled nonce without higher fees', async () => {
    await miner().setAutomine(false);
    const nonce = await signer.minedNonce(CHAIN);
    const first = await signAt('5', nonce);
    const sameNonce = await signAt('6', nonce);
    await signer.broadcast(CHAIN, first.raw);

    await expect(signer.broadcast(CHAIN, sameNonce.raw)).rejects.toThrow();
    await miner().setAutomine(true);
    const reader = createChainReader(CHAIN, chain.rpcUrl);
    expect(await reader.client.getTransaction({ hash: sameNonce.hash }).catch(() => null)).toBeNull();
  });
});
