/**
 * Four-eyes approvals on the wire (issue 18 item 3): a sensitive action one
 * operator requests and a second, different operator approves or rejects.
 * Kinds: `balance_adjustment`, `withdrawal_release`, `market_listing`, and
 * those other modules register (`operator_role_change`). Times are epoch ms.
 */

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'executed', 'failed'] as const;
/** pending → executed | failed (approved is the instant between the decision and the execution), or pending → rejected. */
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** A row of GET /admin/approvals, and the answer of every approval action. */
export interface ApprovalView {
  id: number;
  kind: string;
  /** What the request is about, e.g. `withdrawal:12`, `user:7`, `spot:HAL/USDT`; null when nothing in particular. */
  subject: string | null;
  /** The validated request, as the handler executes it (kind-specific, see the request types below). */
  payload: unknown;
  /** One line for the queue, in English (operators' working language). */
  summary: string;
  /** The requester's reason. */
  reason: string;
  requestedBy: { id: number; email: string };
  requestedAt: number;
  status: ApprovalStatus;
  decidedBy: { id: number; email: string } | null;
  decidedAt: number | null;
  /** The rejecter's reason. */
  decisionReason: string | null;
  /** What the execution answered (e.g. the ledger transfer id). */
  result: unknown;
  /** Why the execution failed: a message key and its parameters (the approve answer's message shows it localised). */
  error: { key: string; params: Record<string, string | number> } | null;
}

export const ADJUSTMENT_DIRECTIONS = ['credit', 'debit'] as const;
export type AdjustmentDirection = (typeof ADJUSTMENT_DIRECTIONS)[number];

export const ADJUSTMENT_CATEGORIES = ['compensation', 'correction', 'promotion', 'chargeback'] as const;
export type AdjustmentCategory = (typeof ADJUSTMENT_CATEGORIES)[number];

/**
 * POST /admin/adjustments: a manual credit or debit of one user wallet,
 * against the `operator_adjustments` system account. `wallet` is a ledger
 * user wallet (spot, futures, fiat, cycle, ieo); `amount` an exact decimal string.
 */
export interface BalanceAdjustmentRequest {
  userId: number;
  wallet: string;
  coin: string;
  direction: AdjustmentDirection;
  amount: string;
  category: AdjustmentCategory;
  reason: string;
}

/** The payload of a `withdrawal_release` request: created by the first approval of a large withdrawal. */
export interface WithdrawalReleasePayload {
  withdrawalId: number;
  coin: string;
  amount: string;
  /** The withdrawal's value in USDT when requested (index price); null when the coin had no price. */
  usdtValue: string | null;
}

/**
 * POST /admin/wallet/withdrawals/:id/approve answers this: `released` when
 * the withdrawal went to the signer (one approval below the threshold, or
 * this was the second); otherwise `approval` is the request now waiting for
 * a second operator.
 */
export interface WithdrawalApproveAnswer {
  released: boolean;
  approval: ApprovalView | null;
}
