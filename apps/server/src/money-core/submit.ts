import { CODE, type MessageParams } from '@halyard/protocol';
import type { MoneyCommand, MoneyEvent, MoneyResult } from '../core/state/index.ts';
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

/** A command's answer when the money state took it. */
export type Accepted = Extract<MoneyResult, { ok: true }>;

/** The command submitted; its refusal thrown as the SQL path's error (`refusalError`). */
async function accepted(
  core: MoneyCoreHandle,
  command: MoneyCommand,
  codes: ReadonlyMap<string, number>,
): Promise<{ result: Accepted; seq: number }> {
  const { result, seq } = await core.submit(command);
  if (!result.ok) throw refusalError(result.error, result.params, codes);
  return { result, seq };
}

/**
 * A command whose caller reads SQL next and has no session guard to wait in
 * (an operator's, the clock's, the chain watcher's), or whose reply is read
 * back from SQL: its result answered once SQL holds it (`readable`: never an
 * error once the command is durable).
 */
export async function submitProjected(
  core: MoneyCoreHandle,
  command: MoneyCommand,
  codes: ReadonlyMap<string, number> = NONE,
): Promise<Accepted> {
  const { result, seq } = await accepted(core, command, codes);
  await core.readable(seq);
  return result;
}

/**
 * A user's command, answered as soon as it is durable (docs/core.md,
 * "Read-your-writes per user"): the user's next request waits in the
 * session guard until SQL holds it (`answeredAhead`). So the reply is built
 * from the command, its result and its own events (`OwnEvents`), never read
 * back from SQL.
 */
export async function submitAhead(
  core: MoneyCoreHandle,
  userId: number,
  command: MoneyCommand,
  codes: ReadonlyMap<string, number> = NONE,
): Promise<Accepted> {
  const { result, seq } = await accepted(core, command, codes);
  core.answeredAhead(userId, seq);
  return result;
}

/**
 * The events of a module's commands that its replies are built from (the
 * rows the projector will write), kept by sequence from the moment they are
 * durable until the command's caller takes them: a reply shows its own
 * command, never a later one the state has applied but the disk may not hold
 * yet. Every command that publishes an event `pick` keeps must go through
 * `submit`, which takes them (else they stay).
 */
export class OwnEvents<Picked extends MoneyEvent> {
  private readonly unanswered = new Map<number, Picked[]>();

  constructor(
    private readonly core: MoneyCoreHandle,
    pick: (event: MoneyEvent) => event is Picked,
  ) {
    // The module lives as long as the core, so it never unsubscribes. Every batch passes here (a spot order's
    // too): no array is made for a command with nothing to keep.
    core.sequencer.subscribe((published) => {
      for (const { seq, events } of published) {
        let picked: Picked[] | undefined;
        for (const event of events) {
          if (!pick(event)) continue;
          picked ??= [];
          picked.push(event);
        }
        if (picked) this.unanswered.set(seq, picked);
      }
    });
  }

  /**
   * As `submitAhead` for a user's command (`userId`), or `submitProjected`
   * for one no session waits for (null), with its own picked events.
   */
  async submit(
    userId: number | null,
    command: MoneyCommand,
    codes: ReadonlyMap<string, number> = NONE,
  ): Promise<{ result: Accepted; events: Picked[] }> {
    const { result, seq } = await this.core.submit(command);
    // The listener ran before this resumed: the sequencer answers a batch, then publishes it, in one turn.
    const events = this.unanswered.get(seq) ?? [];
    this.unanswered.delete(seq);
    if (!result.ok) throw refusalError(result.error, result.params, codes);
    if (userId === null) await this.core.readable(seq);
    else this.core.answeredAhead(userId, seq);
    return { result, events };
  }
}
