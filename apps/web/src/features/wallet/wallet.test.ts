// @vitest-environment happy-dom
import { parseSiweMessage } from 'viem/siwe';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../shared/auth-store.ts';
import { CHAIN_PARAMS } from './chains.ts';
import type { Eip1193Provider } from './provider.ts';
import { CHAIN_CHANGE_RECREATE_MS, connectWallet, useWallet } from './wallet.ts';

const toasts = vi.hoisted(() => [] as string[]);
const identity = vi.hoisted(() => ({
  siweNonce: vi.fn(),
  loginByAddress: vi.fn(),
}));
vi.mock('../../shared/ui/toast.ts', () => ({
  TOAST_MS: 2000,
  toast: (message: string) => toasts.push(message),
}));
vi.mock('../identity/api.ts', () => ({ identityApi: identity }));

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const member = {
  id: 7,
  email: null,
  phone: null,
  areaCode: null,
  walletAddress: ADDRESS,
  invitationCode: 'W1',
  verification: 'none' as const,
  verificationReason: null,
  recomurl: '',
  hasLoginPassword: false,
  hasFundPassword: false,
  lockedUntil: null,
  frozen: null,
};

type Handler = (params: unknown) => unknown;

/** A scripted EIP-1193 wallet that records every call and lets the test fire its events. */
function fakeWallet(handlers: Record<string, Handler>) {
  const calls: { method: string; params: unknown }[] = [];
  const listeners = new Map<string, (...args: never[]) => void>();
  const provider: Eip1193Provider = {
    async request({ method, params }) {
      calls.push({ method, params });
      const handler = handlers[method];
      if (!handler) throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      return handler(params);
    },
    on: (event, listener) => listeners.set(event, listener),
    removeListener: (event) => listeners.delete(event),
  };
  window.ethereum = provider;
  const emit = (event: string, value: unknown) =>
    (listeners.get(event) as ((value: unknown) => void) | undefined)?.(value);
  return { calls, emit, methods: () => calls.map((call) => call.method) };
}

const signingWallet = (chainId: string, extra: Record<string, Handler> = {}) =>
  fakeWallet({
    eth_requestAccounts: () => [ADDRESS.toLowerCase()],
    eth_chainId: () => chainId,
    personal_sign: () => '0xsigned',
    ...extra,
  });

beforeEach(() => {
  vi.clearAllMocks();
  toasts.length = 0;
  useAuth.getState().signOut();
  useWallet.setState({
    address: null,
    connected: false,
    connecting: false,
    provider: null,
    client: null,
    chainId: 56,
  });
  identity.siweNonce.mockResolvedValue({
    nonce: 'abcdef1234567890',
    domain: 'x',
    uri: 'x',
    chainIds: [1, 56],
    expiresAt: 0,
  });
  identity.loginByAddress.mockResolvedValue({ token: 'wallet-token', member });
});

afterEach(() => {
  vi.useRealTimers();
  window.ethereum = undefined;
});

describe('wallet connect and sign-in', () => {
  it('signs an EIP-4361 message with the server nonce and logs in, with no approval step', async () => {
    const wallet = signingWallet('0x38');
    expect(await connectWallet()).toBe(true);
    expect(wallet.methods()).toEqual(['eth_requestAccounts', 'eth_chainId', 'personal_sign']);
    const [message, signer] = wallet.calls[2]!.params as [string, string];
    expect(signer).toBe(ADDRESS);
    expect(parseSiweMessage(message)).toMatchObject({
      domain: window.location.host,
      address: ADDRESS,
      chainId: 56,
      nonce: 'abcdef1234567890',
      version: '1',
    });
    expect(identity.loginByAddress).toHaveBeenCalledWith({
      message,
      signature: '0xsigned',
      address: ADDRESS,
    });
    expect(useAuth.getState()).toMatchObject({
      token: 'wallet-token',
      isLoggedIn: true,
      walletAddress: ADDRESS,
    });
    expect(useWallet.getState()).toMatchObject({ connected: true, address: ADDRESS, chainId: 56 });
  });

  it('moves a wallet on another chain to BNB Chain, adding it when the wallet does not know it', async () => {
    const wallet = signingWallet('0x89', {
      wallet_switchEthereumChain: () => {
        throw Object.assign(new Error('unknown chain'), { code: 4902 });
      },
      wallet_addEthereumChain: () => null,
    });
    expect(await connectWallet()).toBe(true);
    expect(wallet.methods()).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'personal_sign',
    ]);
    expect(wallet.calls[3]?.params).toEqual([CHAIN_PARAMS[56]]);
    expect(useWallet.getState().chainId).toBe(56);
  });

  it('tells imToken users to switch by hand, and stays disconnected', async () => {
    const wallet = signingWallet('0x89');
    if (window.ethereum) window.ethereum.isImToken = true;
    expect(await connectWallet()).toBe(false);
    expect(wallet.methods()).not.toContain('wallet_switchEthereumChain');
    expect(toasts.at(-1)).toMatch(/imToken/);
    expect(useWallet.getState().connected).toBe(false);
  });

  it('resets everything when the user rejects (4001)', async () => {
    useAuth.getState().signIn('old-token', member);
    fakeWallet({
      eth_requestAccounts: () => {
        throw Object.assign(new Error('User rejected'), { code: 4001 });
      },
    });
    expect(await connectWallet()).toBe(false);
    expect(toasts).toContain('You rejected the request in your wallet');
    expect(useAuth.getState()).toMatchObject({ token: null, walletAddress: null, isLoggedIn: false });
    expect(useWallet.getState()).toMatchObject({ connected: false, provider: null, client: null });
    expect(identity.loginByAddress).not.toHaveBeenCalled();
  });

  it('asks for a wallet when none is installed', async () => {
    expect(await connectWallet()).toBe(false);
    expect(toasts.at(-1)).toMatch(/No wallet found/);
  });

  it('follows the wallet: chain change re-creates the client after 500 ms, empty accounts disconnect', async () => {
    const wallet = signingWallet('0x38');
    await connectWallet();
    vi.useFakeTimers();
    const before = useWallet.getState().client;
    wallet.emit('chainChanged', '0x1');
    expect(useWallet.getState().chainId).toBe(1);
    vi.advanceTimersByTime(CHAIN_CHANGE_RECREATE_MS - 1);
    expect(useWallet.getState().client).toBe(before);
    vi.advanceTimersByTime(1);
    expect(useWallet.getState().client).not.toBe(before);

    wallet.emit('accountsChanged', []);
    expect(useWallet.getState().connected).toBe(false);
    expect(useAuth.getState()).toMatchObject({ token: null, isLoggedIn: false });
  });
});
