import type { MessageParams } from '@halyard/protocol';
import type { MoneyCommand, MoneyResult } from '../core/state/index.ts';
import { type AppError, badRequest, notFound } from '../http/errors.ts';
import { LEDGER_ERRORS, LedgerError, type LedgerErrorKey } from '../ledger/index.ts';
import type { MoneyCore } from './start.ts';

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

/**
 * A command of a moved route: submitted, its refusal thrown as the SQL path's
 * error (`refusalError`), its result answered once SQL holds it, so the
 * user's next read sees the write.
 */
export async function submitProjected(
  core: MoneyCore,
  command: MoneyCommand,
  notFoundKeys: ReadonlySet<string> = NONE,
): Promise<Extract<MoneyResult, { ok: true }>> {
  const { result, seq } = await core.submit(command);
  if (!result.ok) throw refusalError(result.error, result.params, notFoundKeys);
  await core.projected(seq);
  return result;
}
