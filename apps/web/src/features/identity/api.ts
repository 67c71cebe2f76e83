import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type UserInfo, useAuth } from '../../shared/auth-store.ts';
import { api } from '../../shared/http.ts';
import type { AccountKind } from './checks.ts';

/** Request bodies of apps/server/src/modules/identity/routes.ts. */
export interface AccountFields {
  /** An email address or a phone number. */
  account: string;
  /** Dialling code without "+", for phone accounts. */
  areaCode?: string;
}

export type CodePurpose = 'register' | 'reset' | 'bind' | 'fund';

export interface LoginResult {
  member: UserInfo;
  token: string;
}

export interface SiweNonce {
  nonce: string;
  domain: string;
  uri: string;
  chainIds: number[];
  expiresAt: number;
}

/** The account an identity form is about: email or phone, the typed account and the phone's area code. */
export interface AccountEntry {
  kind: AccountKind;
  account: string;
  /** As the picker shows it, "+86". */
  area: string;
}

/** What the server takes for an account: the trimmed account, and for a phone the area code's digits. */
export function accountFields({ kind, account, area }: AccountEntry): AccountFields {
  return { account: account.trim(), ...(kind === 'phone' ? { areaCode: area.replace(/^\+/, '') } : {}) };
}

export const identityApi = {
  /** `demoCode`: demo mode without email or SMS answers the code itself, to be shown to this user. */
  sendCode: (fields: AccountFields & { purpose: CodePurpose }) =>
    api.get<{ cooldownSeconds: number; demoCode?: string }>(
      '/user/getCode',
      { ...fields },
      { spinner: true },
    ),
  login: (fields: AccountFields & { password: string }) =>
    api.post<LoginResult>('/member/login', { ...fields, device: 'web' }),
  register: (
    fields: AccountFields & {
      code: string;
      password: string;
      confirmPassword: string;
      invitationCode?: string;
      agreed: boolean;
    },
  ) => api.post<LoginResult>('/member/register', { ...fields, device: 'web' }),
  /** The reset routes name the account field by its kind: `email`, or `phone` with `areaCode`. */
  resetPassword: (
    kind: 'email' | 'phone',
    { account, ...rest }: AccountFields & { code: string; password: string; confirmPassword: string },
  ) =>
    api.post<null>(kind === 'email' ? '/member/forgetByEmail' : '/member/forgetByTel', {
      [kind]: account,
      ...rest,
    }),
  siweNonce: () => api.get<SiweNonce>('/member/siweNonce'),
  loginByAddress: (fields: { message: string; signature: string; address: string; parent?: string }) =>
    api.post<LoginResult>('/member/loginByAddress', { ...fields, device: 'web' }),
  userInfo: () => api.get<UserInfo>('/user/userInfo'),
  logout: () => api.post<null>('/user/logout'),
  changePassword: (fields: { oldPassword: string; password: string; confirmPassword: string }) =>
    api.post<null>('/user/editPassword', fields),
  setFundPassword: (fields: { payPassword: string; confirmPayPassword: string; code?: string }) =>
    api.post<null>('/user/updatePassword', fields),
  bindAccount: (fields: AccountFields & { code: string }) => api.post<null>('/user/setNewTelOrEmail', fields),
  submitKyc: (fields: { name: string; idNumber: string; photoUrl: string }) =>
    api.post<null>('/user/editRealName', fields),
  uploadImage: (file: Blob, name: string) => {
    const form = new FormData();
    form.append('imgurl', file, name);
    return api.upload<{ url: string }[]>('/user/img', form);
  },
};

/** The signed-in user's info, refreshed from the server and kept in the session store. */
export function useUserInfo() {
  const token = useAuth((state) => state.token);
  const stored = useAuth((state) => state.userInfo);
  return useQuery({
    queryKey: ['userInfo', token],
    enabled: token !== null,
    queryFn: async () => {
      const info = await identityApi.userInfo();
      useAuth.getState().setUserInfo(info);
      return info;
    },
    initialData: stored ?? undefined,
    initialDataUpdatedAt: 0,
  });
}

/** After a change to the profile: fetch user info again. */
export function useRefreshUserInfo() {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: ['userInfo'] }), [client]);
}
