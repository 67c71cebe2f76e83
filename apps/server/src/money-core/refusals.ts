import type { MessageParams } from '@halyard/protocol';
import { type AppError, badRequest, notFound } from '../http/errors.ts';
import { LEDGER_ERRORS, LedgerError, type LedgerErrorKey } from '../ledger/index.ts';

const LEDGER_KEYS: ReadonlySet<string> = new Set(Object.values(LEDGER_ERRORS));
const NONE: ReadonlySet<string> = new Set();

/**
 * A refusal (the money state's answer `{ ok: false, error, params }`, or a
 * rule's) as the error a module's SQL path throws for it (issue 19's
 * cut-over: same key, parameters and HTTP code): a refusal of the ledger as
 * the LedgerError the SQL ledger throws, a 404 for the keys the caller names
 * as something missing, a 400 for the rest.
 */
export function refusalError(
  key: string,
  params: MessageParams | undefined,
  notFoundKeys: ReadonlySet<string> = NONE,
): AppError {
  if (LEDGER_KEYS.has(key)) {
    const transferId = params?.transferId;
    return new LedgerError(key as LedgerErrorKey, transferId === undefined ? null : String(transferId));
  }
  return notFoundKeys.has(key) ? notFound(key, params) : badRequest(key, params);
}
