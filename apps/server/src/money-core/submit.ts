import { CODE, type MessageParams } from '@halyard/protocol';
import type { MoneyCommand, MoneyResult } from '../core/state/index.ts';
import { AppError } from '../http/errors.ts';
import { LEDGER_ERRORS, LedgerError, type LedgerErrorKey } from '../ledger/index.ts';
import type { MoneyCoreHandle } from './handle.ts';

const LEDGER_KEYS: ReadonlySet<string> = new Set(Object.values(LEDGER_ERRORS));
const NONE: ReadonlyMap<string, number> = new Map();

/**
 * A refusal (the money state's answer `{ ok: false, error, params }`, or a
 * rule's) as the error a module's SQL path throws for it (issue 19's
 * cut-over: same key, parameters and HTTP code): a refusal of the ledger as
 * the LedgerError the SQL ledger throws, the code the caller names for its
 * own keys (`codes`: 404 for something missing, 429 for busy), a 400 for the rest.
 */
export function refusalError(
  key: string,
  params: MessageParams | undefined,
  codes: ReadonlyMap<string, number> = NONE,
): AppError {
  if (LEDGER_KEYS.has(key)) {
    const transferId = params?.transferId;
    return new LedgerError(key as LedgerErrorKey, transferId === undefined ? null : String(transferId));
  }
  return new AppError(key, params, codes.get(key) ?? CODE.badRequest);
}

/**
 * A command of a moved route: submitted, its refusal thrown as the SQL path's
 * error (`refusalError`), its result answered once SQL holds it (`readable`:
 * never an error once the command is durable), so the user's next read sees
 * the write.
 */
export async function submitProjected(
  core: MoneyCoreHandle,
  command: MoneyCommand,
  codes: ReadonlyMap<string, number> = NONE,
): Promise<Extract<MoneyResult, { ok: true }>> {
  const { result, seq } = await core.submit(command);
  if (!result.ok) throw refusalError(result.error, result.params, codes);
  await core.readable(seq);
  return result;
}
