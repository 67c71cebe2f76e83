import { Dec } from '@halyard/money';
import type { AdjustmentCategory, AdjustmentDirection, BalanceAdjustmentRequest } from '@halyard/protocol';
import { checkBalanceAdjustment } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import {
  adjustmentDebitRefusal,
  adjustmentTransfer,
  type BalanceAdjustment,
} from '../../core/state/index.ts';
import { badRequest } from '../../http/errors.ts';
import { type Ledger, USER_WALLETS, type UserWallet, userAccount } from '../../ledger/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { submitProjected } from '../../money-core/submit.ts';
import type { ApprovalHandler } from './service.ts';

export const BALANCE_ADJUSTMENT = 'balance_adjustment';

/** What is stored as the request's payload and executed (core/state/adjustments.ts, shared with the money state). */
export type { BalanceAdjustment };

export interface AdjustmentDeps {
  ledger: Ledger;
  /** Throws the identity module's localised not-found when there is no such user. */
  requireUser: (userId: number) => Promise<void>;
  /** Every coin the exchange knows (chains, index, launched tokens). */
  knownCoins: () => Promise<string[]>;
  /** Stamps an execution's time on the core (the state never reads a clock). */
  clock: Clock;
  /** The sequenced core (issue 19's cut-over): an approved adjustment is the state's `adjust`. */
  core?: MoneyCoreHandle;
}

/**
 * A manual credit or debit of one user wallet against the
 * `operator_adjustments` system account, executed by the ledger when a
 * second operator approves. A debit beyond what the wallet has available
 * is refused when requested and, should the balance have moved since, by
 * the ledger itself at approval (the request is then recorded as failed).
 * On the core the approval submits `adjust`, whose state makes the same
 * checks on its own balances and pays the same transfer.
 */
export function balanceAdjustmentHandler(deps: AdjustmentDeps): ApprovalHandler<BalanceAdjustment> {
  const { core, clock } = deps;
  return {
    permissionToRequest: 'adjustments.request',
    permissionToApprove: 'adjustments.approve',
    async validate(payload) {
      const input = adjustmentInput(payload);
      const refused = checkBalanceAdjustment(input, USER_WALLETS);
      if (refused) throw badRequest(refused.key, refused.params);
      await deps.requireUser(input.userId);
      if (!(await deps.knownCoins()).includes(input.coin)) {
        throw badRequest('wallet.unknownCoin', { coin: input.coin });
      }
      const adjustment: BalanceAdjustment = {
        ...input,
        wallet: input.wallet as UserWallet,
        direction: input.direction,
        category: input.category,
        amount: Dec.canonical(input.amount),
        reason: input.reason.trim(),
      };
      if (adjustment.direction === 'debit') await requireAvailable(deps.ledger, adjustment);
      return adjustment;
    },
    describe(adjustment) {
      const { direction, amount, coin, userId, wallet, category } = adjustment;
      return {
        summary: `${direction} ${amount} ${coin} ${direction === 'credit' ? 'to' : 'from'} user ${userId} (${wallet}), ${category}`,
        subject: `user:${userId}`,
      };
    },
    async execute(adjustment, { trx, requestId }) {
      const [transfer] = await deps.ledger.execute([adjustmentTransfer(requestId, adjustment)], trx);
      return { transferId: transfer!.id };
    },
    ...(core
      ? {
          // Answers nothing: the approvals writer records the request executed with the transfer's id.
          async submit(adjustment: BalanceAdjustment, { requestId }) {
            await submitProjected(core, { kind: 'adjust', requestId, adjustment, at: clock.now() });
          },
        }
      : {}),
  };
}

async function requireAvailable(ledger: Ledger, adjustment: BalanceAdjustment): Promise<void> {
  const account = { ...userAccount(adjustment.userId, adjustment.wallet), asset: adjustment.coin };
  const refused = adjustmentDebitRefusal(adjustment, (await ledger.balance(account)).available);
  if (refused) throw badRequest(refused.key, refused.params);
}

/** The request body's fields with their JSON types checked (the route's schema did it too; a stored payload is re-read here). */
function adjustmentInput(payload: unknown): BalanceAdjustmentRequest {
  const body = (payload ?? {}) as Record<string, unknown>;
  const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
  return {
    userId: typeof body.userId === 'number' ? body.userId : 0,
    wallet: text('wallet'),
    coin: text('coin'),
    direction: text('direction') as AdjustmentDirection,
    amount: text('amount'),
    category: text('category') as AdjustmentCategory,
    reason: text('reason'),
  };
}
