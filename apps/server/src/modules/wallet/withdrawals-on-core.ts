import { CODE } from '@halyard/protocol';
import type {
  MoneyEvent,
  WithdrawalOutcomeCommand,
  WithdrawalRecord,
  WithdrawalRequestedCommand,
  WithdrawalReviewedCommand,
} from '../../core/state/index.ts';
import { AppError } from '../../http/errors.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { OwnEvents, submitProjected } from '../../money-core/submit.ts';

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
 * An operator's or the sender's step on a withdrawal on the sequenced core
 * (issue 19's cut-over): its refusal thrown as the SQL path's AppError,
 * answered with the withdrawal's id once SQL holds what it did (the
 * wallet's projection writes the row): neither has a session guard that
 * would wait for it before their next read.
 */
export async function submitWithdrawalCommand(
  core: MoneyCoreHandle,
  command: WithdrawalReviewedCommand | WithdrawalOutcomeCommand,
): Promise<number> {
  const { withdrawalId } = await submitProjected(core, command, WITHDRAWAL_REFUSAL_CODES);
  if (withdrawalId === undefined) throw new Error(`${command.kind} answered no withdrawal id`);
  return withdrawalId;
}

type WithdrawalRequestedEvent = Extract<MoneyEvent, { type: 'withdrawalRequested' }>;
/** The withdrawals the users' requests write, which their replies show. */
export type WithdrawalRequests = OwnEvents<WithdrawalRequestedEvent>;

export function withdrawalRequests(core: MoneyCoreHandle): WithdrawalRequests {
  return new OwnEvents(
    core,
    (event): event is WithdrawalRequestedEvent => event.type === 'withdrawalRequested',
  );
}

/**
 * A user's withdrawal request, answered as soon as it is durable with the
 * withdrawal it wrote (the row the projector will insert); the user's next
 * request waits until SQL holds it.
 */
export async function submitWithdrawalRequest(
  requests: WithdrawalRequests,
  command: WithdrawalRequestedCommand,
): Promise<WithdrawalRecord> {
  const { events } = await requests.submit(command.userId, command, WITHDRAWAL_REFUSAL_CODES);
  const [requested] = events;
  if (!requested) throw new Error('withdrawalRequested wrote no withdrawal');
  return requested.withdrawal;
}

/**
 * Whether a refusal says another writer moved the withdrawal first (the
 * state refuses an outcome from a step it left), as the SQL path's
 * conditional move finds nothing to move.
 */
export function movedMeanwhile(error: unknown): boolean {
  return error instanceof AppError && error.key === 'wallet.withdrawalNotResendable';
}
