import { CODE } from '@halyard/protocol';
import type {
  WithdrawalOutcomeCommand,
  WithdrawalRequestedCommand,
  WithdrawalReviewedCommand,
} from '../../core/state/index.ts';
import { AppError } from '../../http/errors.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { submitProjected } from '../../money-core/submit.ts';

/** The HTTP codes the SQL path throws the state's withdrawal refusals with (the rest, a rule's, are 400s). */
const WITHDRAWAL_REFUSAL_CODES: ReadonlyMap<string, number> = new Map([
  ['wallet.withdrawalNotFound', CODE.notFound],
  ['wallet.withdrawalNotInReview', CODE.conflict],
  ['wallet.withdrawalHeld', CODE.conflict],
  ['wallet.withdrawalAlreadyHeld', CODE.conflict],
  ['wallet.withdrawalNotHeld', CODE.conflict],
  ['wallet.withdrawalNotResendable', CODE.conflict],
]);

/**
 * A withdrawal's command on the sequenced core (issue 19's cut-over): its
 * refusal thrown as the SQL path's AppError, answered with the withdrawal's
 * id once SQL holds what it did (the wallet's projection writes the row).
 */
export async function submitWithdrawalCommand(
  core: MoneyCoreHandle,
  command: WithdrawalRequestedCommand | WithdrawalReviewedCommand | WithdrawalOutcomeCommand,
): Promise<number> {
  const { withdrawalId } = await submitProjected(core, command, WITHDRAWAL_REFUSAL_CODES);
  if (withdrawalId === undefined) throw new Error(`${command.kind} answered no withdrawal id`);
  return withdrawalId;
}

/**
 * Whether a refusal says another writer moved the withdrawal first (the
 * state refuses an outcome from a step it left), as the SQL path's
 * conditional move finds nothing to move.
 */
export function movedMeanwhile(error: unknown): boolean {
  return error instanceof AppError && error.key === 'wallet.withdrawalNotResendable';
}
