import { create } from 'zustand';
import { LOCAL_KEYS, local } from './storage.ts';

/** `/user/userInfo` and `data.member` of the login answers (apps/server identity module). */
export interface UserInfo {
  id: number;
  email: string | null;
  /** Masked by the server: the middle four of eleven digits are asterisks. */
  phone: string | null;
  areaCode: string | null;
  walletAddress: string | null;
  invitationCode: string;
  /** Identity verification (spec §4): not done, under review, failed, succeeded. */
  verification: 'none' | 'review' | 'failed' | 'succeeded';
  verificationReason: string | null;
  /** The referral link. */
  recomurl: string;
  hasLoginPassword: boolean;
  hasFundPassword: boolean;
  lockedUntil: number | null;
  frozen: { reason: string; setBy: string; startsAt: number; endsAt: number } | null;
}

/** Spec §3 "Store state": logged in exactly when user info is present. */
export interface AuthState {
  token: string | null;
  userInfo: UserInfo | null;
  walletAddress: string | null;
  isLoggedIn: boolean;
  signIn(token: string, userInfo: UserInfo): void;
  setUserInfo(userInfo: UserInfo): void;
  setWalletAddress(address: string | null): void;
  /** Clears token, user info and wallet address (spec §4 Login). */
  signOut(): void;
}

function restore(): Pick<AuthState, 'token' | 'userInfo' | 'walletAddress' | 'isLoggedIn'> {
  const token = local.get(LOCAL_KEYS.token);
  const userInfo = token ? local.getJson<UserInfo | null>(LOCAL_KEYS.userInfo, null) : null;
  return {
    token,
    userInfo,
    walletAddress: local.get(LOCAL_KEYS.walletAddress),
    isLoggedIn: token !== null && local.get(LOCAL_KEYS.loggedIn) === 'true',
  };
}

export const useAuth = create<AuthState>((set) => ({
  ...restore(),
  signIn(token, userInfo) {
    local.set(LOCAL_KEYS.token, token);
    local.setJson(LOCAL_KEYS.userInfo, userInfo);
    local.set(LOCAL_KEYS.loggedIn, 'true');
    set({ token, userInfo, isLoggedIn: true });
  },
  setUserInfo(userInfo) {
    local.setJson(LOCAL_KEYS.userInfo, userInfo);
    set({ userInfo });
  },
  setWalletAddress(walletAddress) {
    local.set(LOCAL_KEYS.walletAddress, walletAddress);
    set({ walletAddress });
  },
  signOut() {
    for (const key of [
      LOCAL_KEYS.token,
      LOCAL_KEYS.userInfo,
      LOCAL_KEYS.loggedIn,
      LOCAL_KEYS.walletAddress,
    ]) {
      local.set(key, null);
    }
    set({ token: null, userInfo: null, walletAddress: null, isLoggedIn: false });
  },
}));
