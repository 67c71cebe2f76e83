import { Dec } from '@halyard/money';
import type { AdjustmentCategory, AdjustmentDirection } from '@halyard/protocol';
import { checkBalanceAdjustment, type RuleError } from '@halyard/rules';
import {
  systemAccount,
  type TransferInput,
  USER_WALLETS,
  type UserWallet,
  userAccount,
} from '../../ledger/index.ts';
import type { Applied } from '../sequencer/index.ts';
import type { AdjustCommand, MoneyEvent, MoneyResult } from './commands.ts';
import { available, type MoneyState } from './money-state.ts';
import { refused } from './wallet-flows.ts';
import { applyLedgerBatch } from './wallet-moves.ts';

/**
 * An operator's balance adjustment (modules/approvals/adjustments.ts): the
 * payload, its one transfer and the debit's check, shared by the module's
 * four-eyes handler and the money state's `adjust`.
 */

/** A validated adjustment: what is stored as the request's payload and executed. */
export interface BalanceAdjustment {
  userId: number;
  wallet: UserWallet;
  coin: string;
  direction: AdjustmentDirection;
  amount: string;
  category: AdjustmentCategory;
  reason: string;
}

const ADJUSTMENTS = systemAccount('operator_adjustments');

/** One transfer against `operator_adjustments`, its id derived from the request so a retry can never pay twice. */
export function adjustmentTransfer(requestId: number, adjustment: BalanceAdjustment): TransferInput {
  const user = userAccount(adjustment.userId, adjustment.wallet);
  const credit = adjustment.direction === 'credit';
  return {
    id: `adjustment:${requestId}`,
    debit: credit ? ADJUSTMENTS : user,
    credit: credit ? user : ADJUSTMENTS,
    asset: adjustment.coin,
    amount: Dec.parse(adjustment.amount),
    code: `adjustment_${adjustment.category}`,
    reference: String(requestId),
  };
}

/** A debit beyond what the wallet has available now is refused, with what it has. */
export function adjustmentDebitRefusal(adjustment: BalanceAdjustment, usable: Dec): RuleError | null {
  if (adjustment.direction !== 'debit' || !usable.lt(Dec.parse(adjustment.amount))) return null;
  return { key: 'approvals.debitExceedsBalance', params: { available: usable.toString() } };
}

/**
 * `adjust`, after the second signature: the payload's rules again (a
 * malformed command is refused as a value), the debit against the state's
 * balance, then the transfer. A repeat adds no transfer (its id is the
 * request's) and answers the same id.
 */
export function applyAdjust(
  state: MoneyState,
  command: AdjustCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  const { adjustment } = command;
  if (!Number.isSafeInteger(command.requestId) || typeof adjustment !== 'object' || adjustment === null)
    return refused({ key: 'approvals.userInvalid' });
  const transfer = adjustmentTransfer(command.requestId, adjustment);
  // A repeat goes straight to the ledger, which answers it as a retry: its debit is already made.
  const repeat = state.ledger.transfers.has(transfer.id);
  const refusal = repeat
    ? null
    : (checkBalanceAdjustment(adjustment, USER_WALLETS) ??
      adjustmentDebitRefusal(
        adjustment,
        available(state, userAccount(adjustment.userId, adjustment.wallet), adjustment.coin),
      ));
  if (refusal) return refused(refusal);
  const applied = applyLedgerBatch(state, [transfer], command.at, seq, emit);
  if (!applied.result.ok || applied.events.length === 0) return applied;
  const adjusted = { requestId: command.requestId, transferId: transfer.id, at: command.at };
  return { result: applied.result, events: [...applied.events, { type: 'adjusted', adjusted }] };
}
