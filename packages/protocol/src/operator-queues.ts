import type { AdminKycSubmission } from './backoffice.ts';

/**
 * The operators' work queues on the wire that predate the console (issue 18):
 * identity verification (GET /admin/identity/kyc) and withdrawals
 * (GET /admin/wallet/withdrawals). Times are epoch milliseconds, amounts
 * decimal strings.
 */

export const KYC_STATES = ['review', 'failed', 'succeeded'] as const;
export type KycState = (typeof KYC_STATES)[number];

/** A row of GET /admin/identity/kyc?state=: one submission and whose it is. */
export interface KycQueueEntry extends AdminKycSubmission {
  userId: number;
}

/**
 * A withdrawal's internal step: review (above the approval threshold), approved (waiting for the
 * signer), broadcast, flagged (the sender gave up: an operator's turn), completed, rejected.
 */
export const WITHDRAWAL_STATES = [
  'review',
  'approved',
  'broadcast',
  'flagged',
  'completed',
  'rejected',
] as const;
export type WithdrawalState = (typeof WITHDRAWAL_STATES)[number];

/** An operator's hold on a withdrawal in review: it cannot be approved until released (issue 18). */
export interface WithdrawalHold {
  reason: string;
  /** The operator who put the hold on. */
  by: string;
  at: number;
}

/**
 * A row of GET /admin/wallet/withdrawals?state=: a withdrawal as its owner's
 * records show it, whose it is, and an operator's hold on it (null when none).
 */
export interface WithdrawalQueueRow {
  id: number;
  userId: number;
  coin: string;
  chain: number;
  blockname: string;
  address: string;
  amount: string;
  fee: string;
  state: 'waiting' | 'completed' | 'rejected';
  step: WithdrawalState;
  txHash: string | null;
  reason: string | null;
  time: number;
  hold: WithdrawalHold | null;
}
