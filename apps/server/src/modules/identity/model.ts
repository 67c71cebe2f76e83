import type { KycState } from './store.ts';

/** The identity module's public shapes: what its routes answer and other modules read. */

export type KycStatus = 'none' | KycState;

/** What other modules may read about a user (never the password hashes). */
export interface UserSummary {
  id: number;
  email: string | null;
  areaCode: string | null;
  phone: string | null;
  walletAddress: string | null;
  invitationCode: string;
  parentId: number | null;
  kyc: KycStatus;
  hasFundPassword: boolean;
  lockedUntil: number | null;
  createdAt: number;
}

export interface FreezeView {
  reason: string;
  setBy: string;
  startsAt: number;
  endsAt: number;
}

/** `/user/userInfo`, and `data.member` of the login answers. */
export interface UserInfo {
  id: number;
  email: string | null;
  /** Masked: the middle four of eleven digits are asterisks. */
  phone: string | null;
  areaCode: string | null;
  walletAddress: string | null;
  invitationCode: string;
  verification: KycStatus;
  /** Why the last identity verification failed, if it did. */
  verificationReason: string | null;
  recomurl: string;
  hasLoginPassword: boolean;
  hasFundPassword: boolean;
  /** Withdrawals and fiat deposits are blocked until then (ms), or null. */
  lockedUntil: number | null;
  frozen: FreezeView | null;
}

/** One operator action (AMENDMENTS A6). */
export interface AuditEntry {
  id: number;
  at: number;
  operator: string;
  action: string;
  userId: number | null;
  details: Record<string, unknown>;
}

/** What `/user/getCode` answers. */
export interface SentCode {
  cooldownSeconds: number;
  /**
   * Demo mode without a real channel for the account: the code itself, shown
   * to the one who asked for it and to nobody else (nothing is sent).
   */
  demoCode?: string;
}

export interface LoginResult {
  member: UserInfo;
  token: string;
}
