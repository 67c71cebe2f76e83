// The futures engine on the sequenced core (issue 19, docs/core.md "The
// cut-over, module by module"): the same face as FuturesEngine (the SQL
// path), its commands sent to the money state instead.
import type { Dec } from '@halyard/money';
import { CODE, type MessageParams } from '@halyard/protocol';
import type { ContractMarket, FuturesState } from '../../core/state/futures-book.ts';
import { refusalKindOf } from '../../core/state/futures-checks.ts';
import type { CommandResult, FuturesCommand } from '../../core/state/futures-commands.ts';
import { isHouse } from '../../core/state/futures-commands.ts';
import type { CrossPosition } from '../../core/state/futures-liquidation.ts';
import type { PositionFigures } from '../../core/state/futures-margin.ts';
import type { EntrustRow, PositionRow, TriggerRow } from '../../core/state/futures-rows.ts';
import type { FuturesRowsEvent, MoneyCommand, MoneyEvent, MoneyResult } from '../../core/state/index.ts';
import { type AppError, notFound } from '../../http/errors.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { refusalError } from '../../money-core/submit.ts';
import type { Executor } from '../../store/database.ts';
import { fundingSlot } from './funding.ts';
import { selectContracts } from './store.ts';
import type { CommittedEffects, FuturesWriter } from './writer.ts';

/** The checks' refusals as the SQL engine answers them (core/state/futures-checks.ts decides each key's kind). */
function refusedAs(key: string, params: MessageParams | undefined): AppError {
  const kind = refusalKindOf(key);
  const code = kind === 'notFound' ? CODE.notFound : kind === 'conflict' ? CODE.conflict : CODE.badRequest;
  return refusalError(key, params, new Map([[key, code]]));
}

export interface CoreFuturesOptions {
  core: MoneyCoreHandle;
  db: Executor;
  now: () => number;
  fundingIntervalMs: number;
  /** Before a user's open or close: the referral profile its fees read reaches the state (ReferralOnCore.beforeFee). */
  beforeFee?: (userId: number) => Promise<void>;
  /** After each durable batch that changed futures rows (pushes); must not throw. */
  onCommitted: (effects: CommittedEffects) => void;
  onError: (error: unknown) => void;
}

/**
 * A command of the engine's queue as the money state's command, stamped by
 * the edge: the time, and for a contract the funding slot at that time (the
 * state reads no clock). One mapping, which the equivalence test uses too.
 */
export function moneyCommandOf(command: FuturesCommand, at: number, fundingIntervalMs: number): MoneyCommand {
  switch (command.kind) {
    case 'open': {
      const { kind: _kind, price, profitPrice, lossPrice, ...rest } = command;
      return {
        ...rest,
        kind: 'futuresOpen',
        at,
        ...(price === undefined ? {} : { price }),
        ...(profitPrice === undefined ? {} : { profitPrice }),
        ...(lossPrice === undefined ? {} : { lossPrice }),
      };
    }
    case 'close':
      return {
        kind: 'futuresClose',
        at,
        userId: command.userId,
        positionId: command.positionId,
        number: command.number,
      };
    case 'cancel':
      return { kind: 'futuresCancel', at, owner: command.owner, orderId: command.autoid };
    case 'setTrigger': {
      const { kind: _kind, triggerId, profitPrice, lossPrice, number, ...rest } = command;
      return {
        ...rest,
        kind: 'futuresSetTrigger',
        at,
        ...(triggerId === undefined ? {} : { triggerId }),
        ...(profitPrice === undefined ? {} : { profitPrice }),
        ...(lossPrice === undefined ? {} : { lossPrice }),
        ...(number === undefined ? {} : { number }),
      };
    }
    case 'cancelTrigger':
      return { kind: 'futuresCancelTrigger', at, userId: command.userId, triggerId: command.triggerId };
    case 'settings':
      return {
        kind: 'futuresContract',
        at,
        contract: command.contract,
        fundingSlot: fundingSlot(at, fundingIntervalMs),
      };
    case 'risk':
      // The engine's per-contract pass after a mark; the state runs it inside `futuresMark`.
      throw new Error('futures: a risk pass is a futuresMark on the core');
  }
}

/** A coin's mark (an index tick) as the state's command: the time and the funding slot stamped by the edge. */
export function markCommandOf(coin: string, price: Dec, at: number, fundingIntervalMs: number): MoneyCommand {
  return {
    kind: 'futuresMark',
    at,
    coin,
    price: price.toString(),
    fundingSlot: fundingSlot(at, fundingIntervalMs),
  };
}

/**
 * The futures engine on the sequenced core: its state is the money state's
 * (`core.state.futures.book`, the class the SQL engine holds), its commands
 * the state's futures commands, one queue for all (the sequencer). A
 * command is answered with its rows as its own events left them, a user's
 * before SQL holds them (the user's next request waits until it does, see
 * `beforeReply`); a refusal is the SQL engine's AppError.
 */
export class CoreFutures implements FuturesWriter {
  /** The futures rows each command published, by sequence, until the command's caller takes them. */
  private readonly unanswered = new Map<number, FuturesRowsEvent[]>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: CoreFuturesOptions) {
    this.unsubscribe = options.core.sequencer.subscribe((published) => this.published(published));
  }

  private get book(): FuturesState {
    return this.options.core.state.futures.book;
  }

  get markets(): ReadonlyMap<number, ContractMarket> {
    return this.book.markets;
  }

  get open(): ReadonlyMap<number, EntrustRow> {
    return this.book.open;
  }

  get positions(): ReadonlyMap<number, PositionRow> {
    return this.book.positions;
  }

  get triggers(): ReadonlyMap<number, TriggerRow> {
    return this.book.triggers;
  }

  /** No command waits here: the core has one queue for every module. */
  get queued(): number {
    return 0;
  }

  /** Gives the state every contract SQL lists that it does not hold yet (the demo seed's, a listing's). */
  async restore(): Promise<void> {
    for (const contract of await selectContracts(this.options.db))
      if (!this.book.markets.has(contract.autoid)) await this.submit({ kind: 'settings', contract });
  }

  market(contractId: number): ContractMarket {
    const market = this.book.markets.get(contractId);
    if (!market) throw notFound('futures.contractNotFound');
    return market;
  }

  async submit(command: FuturesCommand): Promise<CommandResult> {
    const { now, fundingIntervalMs, beforeFee } = this.options;
    const payer = feePayerOf(command);
    if (payer !== null) await beforeFee?.(payer);
    const { result, seq } = await this.send(moneyCommandOf(command, now(), fundingIntervalMs));
    const events = this.take(seq);
    if (!result.ok) throw refusedAs(result.error, result.params);
    const answered = result.futures ?? { orders: [], positions: [], triggers: [] };
    const rows = {
      orders: latestRows(events, 'orders'),
      positions: latestRows(events, 'positions'),
      triggers: latestRows(events, 'triggers'),
    };
    const answer = {
      orders: answered.orders.map((id) => rowOf(rows.orders, id, seq)),
      positions: answered.positions.map((id) => rowOf(rows.positions, id, seq)),
      triggers: answered.triggers.map((id) => rowOf(rows.triggers, id, seq)),
    };
    await this.beforeReply(command, seq);
    return answer;
  }

  /**
   * A user's command is answered at once, from its own events: SQL may not
   * hold it yet, so the user's next request waits until it does
   * (`answeredAhead`, the session guard's `caughtUp`). A command of no user
   * (a contract's settings or listing) or of the house (the market maker,
   * no session) waits for SQL, as a reply did before.
   */
  private async beforeReply(command: FuturesCommand, seq: number): Promise<void> {
    const userId = userOf(command);
    if (userId === null) await this.options.core.readable(seq);
    else this.options.core.answeredAhead(userId, seq);
  }

  /** A new mark: the state records it and runs each contract's risk pass (TP/SL, liquidations, funding when due). */
  async applyMark(coin: string, price: Dec): Promise<void> {
    // Only a futures coin's tick is journaled: no contract reads another coin's mark (a contract listed later
    // takes its coin's next tick, a second away).
    if (![...this.book.markets.values()].some((market) => market.contract.tradcoin === coin)) return;
    const { now, fundingIntervalMs } = this.options;
    const { result, seq } = await this.send(markCommandOf(coin, price, now(), fundingIntervalMs));
    this.take(seq);
    if (!result.ok) throw refusedAs(result.error, result.params);
    await this.options.core.readable(seq);
  }

  startMark(coin: string, price: Dec): Promise<void> {
    return this.applyMark(coin, price);
  }

  async idle(): Promise<void> {
    await this.options.core.readable(this.options.core.sequencer.lastSequence());
  }

  positionFigures(row: PositionRow): PositionFigures {
    return this.book.positionFigures(row);
  }

  markOf(contractId: number): Dec | null {
    return this.book.markOf(contractId);
  }

  latestPrice(contractId: number): Dec | null {
    return this.book.latestPrice(contractId);
  }

  crossPositionsOf(owner: string, excludeId: number | null = null): CrossPosition[] {
    return this.book.crossPositionsOf(owner, excludeId);
  }

  /** Stops following the core's events. */
  close(): void {
    this.unsubscribe();
  }

  private send(command: MoneyCommand): Promise<{ result: MoneyResult; seq: number }> {
    return this.options.core.submit(command);
  }

  /** The command's futures events (every futures command goes through here, so each entry is taken). */
  private take(seq: number): FuturesRowsEvent[] {
    const events = this.unanswered.get(seq) ?? [];
    this.unanswered.delete(seq);
    return events;
  }

  /** A durable batch: each command's futures rows (for its reply), what changed (for the pushes). */
  private published(batch: readonly { seq: number; events: readonly MoneyEvent[] }[]): void {
    const effects = { contracts: new Set<number>(), trades: [] as CommittedEffects['trades'][number][] };
    for (const { seq, events } of batch) {
      const rows = events.filter((event): event is FuturesRowsEvent => event.type === 'futures');
      if (rows.length === 0) continue;
      this.unanswered.set(seq, rows);
      for (const event of rows) {
        for (const change of [...event.orders, ...event.positions])
          effects.contracts.add(change.row.contract_id);
        for (const trade of event.trades) {
          effects.contracts.add(trade.contract_id);
          effects.trades.push(trade);
        }
      }
    }
    if (effects.contracts.size === 0) return;
    try {
      this.options.onCommitted(effects);
    } catch (error) {
      this.options.onError(error);
    }
  }
}

/** Each row of one kind a command's events changed, as it stands after the command. */
function latestRows<Kind extends 'orders' | 'positions' | 'triggers'>(
  events: readonly FuturesRowsEvent[],
  kind: Kind,
): Map<number, FuturesRowsEvent[Kind][number]['row']> {
  const rows = new Map<number, FuturesRowsEvent[Kind][number]['row']>();
  for (const event of events) for (const change of event[kind]) rows.set(change.row.autoid, change.row);
  return rows;
}

function rowOf<Row>(rows: ReadonlyMap<number, Row>, id: number, seq: number): Row {
  const row = rows.get(id);
  if (!row) throw new Error(`futures: row ${id} is not in the events of command ${seq}`);
  return { ...row };
}

/** The user whose fee a command may charge (an open or a close of a user's), or null (the house, or no fee). */
function feePayerOf(command: FuturesCommand): number | null {
  return command.kind === 'open' || command.kind === 'close' ? userOf(command) : null;
}

/** The user a command is answered to, or null: the house's commands (it has no session) and a contract's settings. */
function userOf(command: FuturesCommand): number | null {
  switch (command.kind) {
    case 'open':
      return isHouse(command.trader.owner) ? null : command.trader.userId;
    case 'cancel':
      return isHouse(command.owner) ? null : Number(command.owner);
    case 'close':
    case 'setTrigger':
    case 'cancelTrigger':
      return command.userId;
    case 'settings':
    case 'risk':
      return null;
  }
}
