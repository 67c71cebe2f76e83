import { DEFAULT_CHAIN } from '@halyard/rules';
import type { Address, WalletClient } from 'viem';
import { create } from 'zustand';
import { useAuth } from '../../shared/auth-store.ts';
import type { Eip1193Provider } from './provider.ts';

/**
 * The wallet's state, apart from the actions in wallet.ts: reading it needs
 * no viem (type imports only), so the home page's top bar renders without
 * the wallet stack, which loads when the user connects or a wallet is restored.
 */

/** Spec §3 "Wallet connection". */
export interface WalletState {
  chainId: number;
  address: Address | null;
  connected: boolean;
  connecting: boolean;
  provider: Eip1193Provider | null;
  /** viem's wallet client over the provider: the spec's "signer". */
  client: WalletClient | null;
}

export const DISCONNECTED = {
  address: null,
  connected: false,
  connecting: false,
  provider: null,
  client: null,
};

export const useWallet = create<WalletState>(() => ({ chainId: DEFAULT_CHAIN, ...DISCONNECTED }));

/** A 401 logout clears the stored address; the wallet follows. */
useAuth.subscribe((state, previous) => {
  if (previous.walletAddress !== null && state.walletAddress === null && useWallet.getState().connected) {
    useWallet.setState({ ...DISCONNECTED });
  }
});
