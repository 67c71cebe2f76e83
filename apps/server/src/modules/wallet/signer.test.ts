import { createTestClient, http, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chainDefinition, createChainReader } from './chains.ts';
import { LOCAL_DEPLOYER_INDEX, localChainKey } from './config.ts';
import { createSigner, type Signer } from './signer.ts';
import { CHAIN, startTestChain, type TestChain } from './test-support.ts';

const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address;

describe('the hot-wallet signer re-sending a withdrawal', () => {
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

  it('accepts the same signed bytes again while they wait in the pool and after they are mined', async () => {
    await miner().setAutomine(false);
    const signed = await signer.sign(transferOf('5'));
    await signer.broadcast(CHAIN, signed.raw);
    await signer.broadcast(CHAIN, signed.raw);
    await chain.mine(1);
    await miner().setAutomine(true);
    await signer.broadcast(CHAIN, signed.raw);

    expect(await signer.outcome(CHAIN, signed.hash)).toBe('success');
    expect((await chain.tokenBalance('USDT', RECIPIENT)).toString()).toBe('5');
  });

  it('still fails a different transaction that the node refuses', async () => {
    await miner().setAutomine(false);
    const first = await signer.sign(transferOf('5'));
    const sameNonce = await signer.sign(transferOf('6'));
    await signer.broadcast(CHAIN, first.raw);

    await expect(signer.broadcast(CHAIN, sameNonce.raw)).rejects.toThrow();
    await miner().setAutomine(true);
    const reader = createChainReader(CHAIN, chain.rpcUrl);
    expect(await reader.client.getTransaction({ hash: sameNonce.hash }).catch(() => null)).toBeNull();
  });
});
