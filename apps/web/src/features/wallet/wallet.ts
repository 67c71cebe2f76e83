import { type ChainId, DEFAULT_CHAIN } from '@halyard/rules';
import { type Address, createWalletClient, custom, getAddress, type WalletClient } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { i18n } from '../../i18n/index.ts';
import { ApiError, RequestCancelled } from '../../shared/api.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { toast } from '../../shared/ui/toast.ts';
import { identityApi } from '../identity/api.ts';
import { CHAIN_PARAMS, isSupportedChain, parseChainId, toHexChain } from './chains.ts';
import {
  type Eip1193Provider,
  errorCode,
  errorMessage,
  injectedProvider,
  PROVIDER_ERRORS,
} from './provider.ts';
import { DISCONNECTED, useWallet } from './wallet-store.ts';

/** Spec §4/§9: after a chain change the client is re-created 500 ms later. */
export const CHAIN_CHANGE_RECREATE_MS = 500;
/** How long the signed login message stays valid; the server's nonce lives 10 minutes. */
const SIWE_VALIDITY_MS = 10 * 60 * 1000;

export { useWallet, type WalletState } from './wallet-store.ts';

const t = (key: string, params?: Record<string, string | number>) => i18n.t(key, params);

class WalletStop extends Error {}

function makeClient(provider: Eip1193Provider): WalletClient {
  return createWalletClient({ transport: custom(provider) });
}

/** Any failure resets to disconnected and clears the stored address and token (spec §4 Wallet). */
function reset(): void {
  useWallet.setState({ ...DISCONNECTED });
  useAuth.getState().signOut();
}

/** Moves the wallet to chain 56 (or 1) when it sits on another; adds the chain when unknown (4902). */
async function ensureSupportedChain(provider: Eip1193Provider, current: number): Promise<ChainId> {
  if (isSupportedChain(current)) return current;
  toast(t('wallet.unsupportedChain', { chainId: current }));
  if (provider.isImToken) throw new WalletStop(t('wallet.imTokenSwitch'));
  const target = DEFAULT_CHAIN;
  try {
    await provider.request({
      method: 'wallet_switchEthereumChain',
      params: [{ chainId: toHexChain(target) }],
    });
  } catch (error) {
    if (errorCode(error) === PROVIDER_ERRORS.unknownChain) {
      await provider.request({ method: 'wallet_addEthereumChain', params: [CHAIN_PARAMS[target]] });
    } else if (errorCode(error) === PROVIDER_ERRORS.userRejected) {
      throw error;
    } else {
      throw new WalletStop(t('wallet.switchFailed', { reason: errorMessage(error) }));
    }
  }
  return target;
}

/** Sign-In with Ethereum (AMENDMENTS A2): server nonce → EIP-4361 message → personal_sign → session. */
export async function signInWithWallet(provider: Eip1193Provider, address: Address, chainId: number) {
  const { nonce } = await identityApi.siweNonce();
  const issuedAt = new Date();
  const message = createSiweMessage({
    domain: window.location.host,
    uri: window.location.origin,
    address,
    chainId,
    nonce,
    version: '1',
    statement: t('wallet.siweStatement'),
    issuedAt,
    expirationTime: new Date(issuedAt.getTime() + SIWE_VALIDITY_MS),
  });
  const signature = String(await provider.request({ method: 'personal_sign', params: [message, address] }));
  const parent = new URLSearchParams(window.location.search).get('code') ?? undefined;
  return identityApi.loginByAddress({ message, signature, address, ...(parent ? { parent } : {}) });
}

/**
 * Connect and log in (spec §4 Wallet, as amended): request accounts, keep to
 * chains 1 and 56, then sign in with a signed message. There is no token
 * approval step (AMENDMENTS A1).
 */
export async function connectWallet(): Promise<boolean> {
  const provider = injectedProvider();
  if (!provider) {
    toast(t('wallet.install'));
    return false;
  }
  useWallet.setState({ connecting: true });
  try {
    const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
    const first = accounts[0];
    if (!first) throw new WalletStop(t('wallet.noAccount'));
    const chainId = await ensureSupportedChain(
      provider,
      parseChainId(await provider.request({ method: 'eth_chainId' })),
    );
    const address = getAddress(first);
    useWallet.setState({ provider, client: makeClient(provider), address, chainId, connected: true });
    useAuth.getState().setWalletAddress(address);
    watchProvider(provider);
    const { token, member } = await signInWithWallet(provider, address, chainId);
    useAuth.getState().signIn(token, member);
    useAuth.getState().setWalletAddress(address);
    toast(t('wallet.loginSuccess'));
    return true;
  } catch (error) {
    reset();
    if (errorCode(error) === PROVIDER_ERRORS.userRejected) toast(t('wallet.rejected'));
    else if (error instanceof WalletStop) toast(error.message);
    else if (!(error instanceof ApiError || error instanceof RequestCancelled)) {
      // The api client has already shown the server's message for its own failures.
      toast(t('wallet.connectFailed', { reason: errorMessage(error) }));
    }
    return false;
  } finally {
    useWallet.setState({ connecting: false });
  }
}

export function disconnectWallet(): void {
  reset();
  toast(t('wallet.disconnected'));
}

let watched: Eip1193Provider | null = null;
let recreateTimer: ReturnType<typeof setTimeout> | null = null;

function onAccountsChanged(accounts: string[]): void {
  const first = accounts[0];
  if (!first) {
    reset();
    toast(t('wallet.disconnected'));
    return;
  }
  const address = getAddress(first);
  const auth = useAuth.getState();
  // A session signed by the previous address does not prove the new one.
  if (auth.walletAddress && auth.walletAddress !== address && auth.userInfo?.walletAddress) auth.signOut();
  useWallet.setState({ address, connected: true });
  useAuth.getState().setWalletAddress(address);
  toast(t('wallet.accountsChanged'));
}

function onChainChanged(value: unknown): void {
  const chainId = parseChainId(value);
  useWallet.setState({ chainId });
  toast(
    isSupportedChain(chainId)
      ? t('wallet.chainChanged', { chainId })
      : t('wallet.unsupportedChain', { chainId }),
  );
  if (recreateTimer !== null) clearTimeout(recreateTimer);
  recreateTimer = setTimeout(() => {
    recreateTimer = null;
    const provider = injectedProvider();
    useWallet.setState({ provider, client: provider ? makeClient(provider) : null });
  }, CHAIN_CHANGE_RECREATE_MS);
}

function onDisconnect(): void {
  reset();
}

/** Subscribes to the provider's events once per provider. */
export function watchProvider(provider: Eip1193Provider): void {
  if (watched === provider || !provider.on) return;
  if (watched?.removeListener) {
    watched.removeListener('accountsChanged', onAccountsChanged);
    watched.removeListener('chainChanged', onChainChanged);
    watched.removeListener('disconnect', onDisconnect);
  }
  provider.on('accountsChanged', onAccountsChanged);
  provider.on('chainChanged', onChainChanged);
  provider.on('disconnect', onDisconnect);
  watched = provider;
}

/** On load a stored address restores "connected" (spec §4); the token, if any, restores the login. */
export function restoreWallet(): void {
  const provider = injectedProvider();
  const stored = useAuth.getState().walletAddress;
  if (!provider || !stored) return;
  useWallet.setState({
    provider,
    client: makeClient(provider),
    address: getAddress(stored),
    connected: true,
  });
  watchProvider(provider);
  void provider.request({ method: 'eth_chainId' }).then(
    (value) => useWallet.setState({ chainId: parseChainId(value) }),
    () => undefined,
  );
}
