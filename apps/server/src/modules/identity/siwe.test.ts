import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  expectOk,
  get,
  type Harness,
  MINUTE_MS,
  post,
  registerByEmail,
  requestCode,
  startHarness,
} from './test-support.ts';

// Well-known development keys (Hardhat accounts #1 and #2): never hold real funds.
const wallet = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const otherWallet = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

interface NonceAnswer {
  nonce: string;
  domain: string;
  uri: string;
  chainIds: number[];
  expiresAt: number;
}

async function nonce(): Promise<NonceAnswer> {
  return (await expectOk(get(h, '/member/siweNonce'))).data as NonceAnswer;
}

function message(
  issued: NonceAnswer,
  overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {},
): string {
  return createSiweMessage({
    domain: issued.domain,
    address: wallet.address,
    uri: issued.uri,
    version: '1',
    chainId: 56,
    nonce: issued.nonce,
    issuedAt: new Date(h.clock.now()),
    expirationTime: new Date(h.clock.now() + 5 * MINUTE_MS),
    statement: 'Sign in to Halyard',
    ...overrides,
  });
}

async function signIn(text: string, signature?: Hex, extra: Record<string, unknown> = {}) {
  return post(h, '/member/loginByAddress', {
    message: text,
    signature: signature ?? (await wallet.signMessage({ message: text })),
    device: 'web',
    ...extra,
  });
}

describe('wallet login (SIWE)', () => {
  it('issues a nonce for our domain and chains, creates the user on first login and finds it again', async () => {
    const issued = await nonce();
    expect(issued).toMatchObject({ domain: 'halyard.test', uri: 'https://halyard.test', chainIds: [1, 56] });
    expect(issued.nonce).toMatch(/^[a-f0-9]{32}$/);
    expect(issued.expiresAt).toBe(h.clock.now() + 10 * MINUTE_MS);

    const first = await expectOk(signIn(message(issued), undefined, { address: wallet.address }));
    const { member, token } = first.data as { member: { id: number; walletAddress: string }; token: string };
    expect(member).toMatchObject({ walletAddress: wallet.address, email: null, hasLoginPassword: false });
    await expectOk(get(h, '/user/userInfo', token));

    const again = await expectOk(signIn(message(await nonce(), { chainId: 1 })));
    expect((again.data as { member: { id: number } }).member.id).toBe(member.id);
  });

  it('keeps the inviter on first login and lets a wallet user bind an email', async () => {
    const inviter = await registerByEmail(h, 'inviter@example.com');
    const answer = await expectOk(
      signIn(message(await nonce()), undefined, { parent: inviter.member.invitationCode }),
    );
    const { member, token } = answer.data as { member: { id: number }; token: string };
    expect((await h.app.identity.service.getUser(member.id)).parentId).toBe(inviter.member.id);

    const code = await requestCode(h, 'wallet@example.com', 'bind');
    await expectOk(post(h, '/user/setNewTelOrEmail', { account: 'wallet@example.com', code }, token));
    expect((await h.app.identity.service.getUser(member.id)).email).toBe('wallet@example.com');
  });

  it('refuses a reused nonce', async () => {
    const text = message(await nonce());
    await expectOk(signIn(text));
    expect(await signIn(text)).toMatchObject({
      code: 400,
      msg: 'This sign-in request has expired or was already used, please sign in again',
    });
  });

  it('refuses a nonce the server never issued and one older than 10 minutes', async () => {
    const invented = message({ ...(await nonce()), nonce: 'abcdef0123456789abcdef0123456789' });
    expect((await signIn(invented)).msg).toMatch(/expired or was already used/);
    const issued = await nonce();
    h.clock.advance(10 * MINUTE_MS);
    expect((await signIn(message(issued))).msg).toMatch(/expired or was already used/);
  });

  it('refuses a signature by another key than the claimed address, and leaves the nonce usable', async () => {
    const text = message(await nonce());
    const forged = await otherWallet.signMessage({ message: text });
    expect(await signIn(text, forged)).toMatchObject({
      code: 400,
      msg: 'The signature does not match the wallet address',
    });
    expect((await signIn(text, '0xdeadbeef')).code).toBe(400);
    await expectOk(signIn(text));
  });

  it('refuses an address field that differs from the signed message', async () => {
    const answer = await signIn(message(await nonce()), undefined, { address: otherWallet.address });
    expect(answer.msg).toBe('The signature does not match the wallet address');
  });

  it('accepts a message for any allowed host (demo: the loopback names at the port)', async () => {
    expect(h.config.siweDomains).toEqual(['halyard.test', 'localhost:8080', '127.0.0.1:8080', '[::1]:8080']);
    // ([::1] is allowed too, but viem's message builder cannot write an IPv6 authority.)
    for (const domain of ['127.0.0.1:8080', 'localhost:8080']) {
      await expectOk(signIn(message(await nonce(), { domain })));
    }
    expect((await signIn(message(await nonce(), { domain: '127.0.0.1:8101' }))).msg).toBe(
      'The sign-in message is for another site (127.0.0.1:8101)',
    );
  });

  it('refuses another domain and another chain', async () => {
    const issued = await nonce();
    expect(await signIn(message(issued, { domain: 'evil.example' }))).toMatchObject({
      code: 400,
      msg: 'The sign-in message is for another site (evil.example)',
    });
    expect(await signIn(message(issued, { chainId: 137 }))).toMatchObject({
      code: 400,
      msg: 'Only chains 1 and 56 are supported (got 137)',
    });
  });

  it('refuses an expired message, one issued in the future and one not yet valid', async () => {
    const issued = await nonce();
    const now = h.clock.now();
    const expired = message(issued, { expirationTime: new Date(now - 1) });
    expect((await signIn(expired)).msg).toBe('The sign-in message has expired, please sign in again');
    const future = message(issued, { issuedAt: new Date(now + 60 * MINUTE_MS) });
    expect((await signIn(future)).code).toBe(400);
    const notYet = message(issued, { notBefore: new Date(now + MINUTE_MS) });
    expect((await signIn(notYet)).code).toBe(400);
  });

  it('refuses text that is not an EIP-4361 message', async () => {
    expect((await signIn('hello, let me in')).msg).toBe('The sign-in message is not valid');
  });
});
