import type { ApprovalView, WithdrawalReleasePayload } from '@halyard/protocol';
import type { WithdrawalMove } from '../../core/state/index.ts';
import type { OperatorIdentity } from '../../http/auth.ts';
import { badRequest } from '../../http/errors.ts';
import type { Trx } from '../../store/database.ts';
import type { WithdrawalFourEyes } from '../wallet/index.ts';
import type { ApprovalHandler, ApprovalService } from './service.ts';

export const WITHDRAWAL_RELEASE = 'withdrawal_release';

/** The wallet's side of a release: the wallet keeps its own rules (still in review, audited, the sender woken). */
export interface WithdrawalReleaser {
  releaseApproved(trx: Trx, id: number, operator: string, details: object): Promise<void>;
  sendSoon(): void;
  /** On the core: the state's approve (WalletService.approveReleased), the sender woken once SQL holds it. */
  approveReleased(id: number, operator: string, details: Record<string, unknown>): Promise<void>;
}

/**
 * The second approval of a withdrawal above the four-eyes threshold: the
 * first operator's approval made this request; a second operator with
 * `withdrawals.review` releases it to the signer. If the withdrawal left
 * review meanwhile (rejected, refunded), the wallet refuses and the request
 * is recorded as failed.
 */
export function withdrawalReleaseHandler(
  wallet: WithdrawalReleaser,
  onCore: boolean,
): ApprovalHandler<WithdrawalReleasePayload> {
  return {
    permissionToRequest: 'withdrawals.review',
    permissionToApprove: 'withdrawals.review',
    validate: releasePayload,
    describe: (release) => ({
      summary: `release withdrawal ${release.withdrawalId}: ${release.amount} ${release.coin} (${release.usdtValue ?? 'no price'} USDT)`,
      subject: subjectOf(release.withdrawalId),
    }),
    async execute(release, { trx, requestId, requestedBy, approvedBy, afterCommit }) {
      const details = releaseDetails(requestId, requestedBy);
      await wallet.releaseApproved(trx, release.withdrawalId, approvedBy.email, details);
      afterCommit(() => wallet.sendSoon());
      return { withdrawalId: release.withdrawalId };
    },
    // On the core the approval is recorded first, then the state's approve releases the withdrawal. It
    // answers nothing: the approvals writer records the request executed from the approve's own event.
    ...(onCore
      ? {
          async submit(release: WithdrawalReleasePayload, { requestId, requestedBy, approvedBy }) {
            const details = releaseDetails(requestId, requestedBy);
            await wallet.approveReleased(release.withdrawalId, approvedBy.email, details);
          },
        }
      : {}),
  };
}

/** The audit details of a release's approve: the request that released it and who approved first. */
export function releaseDetails(requestId: number, requestedBy: { email: string }) {
  return { fourEyes: { approvalId: requestId, firstApprover: requestedBy.email } };
}

/**
 * The four-eyes request a withdrawal's move carried out, if it is a
 * release: the state's approve with the request in its audit details
 * (`releaseDetails`). On the core the approvals writer marks that request
 * executed from it, in the transaction that writes the withdrawal approved.
 */
export function releasedRequestOf(move: WithdrawalMove): number | null {
  if (move.patch.state !== 'approved' || move.audit?.action !== 'withdrawal.approve') return null;
  const { fourEyes } = move.audit.details;
  if (typeof fourEyes !== 'object' || fourEyes === null || !Object.hasOwn(fourEyes, 'approvalId'))
    return null;
  const { approvalId } = fourEyes as { approvalId: unknown };
  return typeof approvalId === 'number' && Number.isSafeInteger(approvalId) ? approvalId : null;
}

/**
 * What the wallet module is given as its `fourEyes`: the first approval of
 * a large withdrawal makes the request; an approval by another operator
 * while it is pending is the second one (the requester again is refused).
 * A refused execution answers its error to the approving operator.
 */
export function withdrawalFourEyes(approvals: () => ApprovalService): WithdrawalFourEyes {
  return {
    async release(release, operator: OperatorIdentity): Promise<ApprovalView> {
      const service = approvals();
      const pending = await service.pendingAbout(WITHDRAWAL_RELEASE, subjectOf(release.withdrawalId));
      if (!pending) {
        const reason = `above the four-eyes threshold (${release.usdtValue ?? 'no price'} USDT)`;
        return service.request(WITHDRAWAL_RELEASE, release, operator, reason);
      }
      const { approval, failure } = await service.approve(pending.id, operator);
      if (failure) throw failure;
      return approval;
    },
  };
}

function subjectOf(withdrawalId: number): string {
  return `withdrawal:${withdrawalId}`;
}

function releasePayload(payload: unknown): WithdrawalReleasePayload {
  const body = (payload ?? {}) as Record<string, unknown>;
  const { withdrawalId, coin, amount, usdtValue } = body;
  if (
    typeof withdrawalId !== 'number' ||
    !Number.isSafeInteger(withdrawalId) ||
    typeof coin !== 'string' ||
    typeof amount !== 'string' ||
    (usdtValue !== null && typeof usdtValue !== 'string')
  ) {
    throw badRequest('common.invalidParams', { field: 'withdrawalId' });
  }
  return { withdrawalId, coin, amount, usdtValue };
}
