import { CODE } from '@halyard/protocol';
import { AppError } from '../http/errors.ts';

/** The message key of every refusal; callers branch on `error.key`. */
export const LEDGER_ERRORS = {
  insufficientBalance: 'ledger.insufficientBalance',
  idConflict: 'ledger.idConflict',
  holdNotFound: 'ledger.holdNotFound',
  holdClosed: 'ledger.holdClosed',
  exceedsHold: 'ledger.exceedsHold',
  invalidTransfer: 'ledger.invalidTransfer',
  busy: 'ledger.busy',
} as const;
export type LedgerErrorKey = (typeof LEDGER_ERRORS)[keyof typeof LEDGER_ERRORS];

/**
 * A refused batch. It is an AppError, so a route may let it through and the
 * user reads it in their language; `transferId` names the transfer that was
 * refused. A refusal is decided before anything is written: nothing changed.
 */
export class LedgerError extends AppError {
  override name = 'LedgerError';

  constructor(
    override readonly key: LedgerErrorKey,
    readonly transferId: string | null,
    params: Record<string, string> = {},
  ) {
    super(key, params, codeOf(key));
  }
}

function codeOf(key: LedgerErrorKey): number {
  if (key === LEDGER_ERRORS.idConflict) return CODE.conflict;
  if (key === LEDGER_ERRORS.busy) return CODE.tooManyRequests;
  return CODE.badRequest;
}

export function isLedgerError(error: unknown): error is LedgerError {
  return error instanceof LedgerError;
}
