// What the futures service drives: the SQL engine (engine.ts) or the same
// face on the sequenced core (core-futures.ts).
import type { Dec } from '@halyard/money';
import type { ContractMarket } from '../../core/state/futures-book.ts';
import type { CommandResult, FuturesCommand } from '../../core/state/futures-commands.ts';
import type { CrossPosition } from '../../core/state/futures-liquidation.ts';
import type { PositionFigures } from '../../core/state/futures-margin.ts';
import type { EntrustRow, FuturesTradeRow, PositionRow, TriggerRow } from '../../core/state/futures-rows.ts';

/** What a committed group (SQL) or durable batch (the core) changed, for the pushes after it. */
export interface CommittedEffects {
  contracts: ReadonlySet<number>;
  trades: readonly Omit<FuturesTradeRow, 'autoid'>[];
}

/**
 * The futures engine as the service sees it: the contracts, open orders,
 * positions and triggers it holds, its commands (each answered with the rows
 * the engine answers, a refusal thrown as the HTTP layer's error) and the
 * marks it is sent.
 */
export interface FuturesWriter {
  readonly markets: ReadonlyMap<number, ContractMarket>;
  readonly open: ReadonlyMap<number, EntrustRow>;
  readonly positions: ReadonlyMap<number, PositionRow>;
  readonly triggers: ReadonlyMap<number, TriggerRow>;
  /** Commands waiting (the back office's dashboard). */
  readonly queued: number;
  /** (Re)reads what the store lists (the contracts; on SQL everything) after a start or a seed. */
  restore(): Promise<void>;
  /** The contract, else `futures.contractNotFound` (404). */
  market(contractId: number): ContractMarket;
  submit(command: FuturesCommand): Promise<CommandResult>;
  /** A coin's new mark (an index tick): TP/SL, liquidations, funding when due; resolves once done. */
  applyMark(coin: string, price: Dec): Promise<void>;
  /**
   * The mark at a start, from the index's current tick: the SQL engine
   * records it (its next tick runs the risk pass); the core is sent it as a
   * mark (its marks are the state's, which only commands change).
   */
  startMark(coin: string, price: Dec): Promise<void>;
  idle(): Promise<void>;
  positionFigures(row: PositionRow): PositionFigures;
  markOf(contractId: number): Dec | null;
  latestPrice(contractId: number): Dec | null;
  /** The user's open cross positions, each with its mark (null mark: left out, it cannot be valued). */
  crossPositionsOf(owner: string, excludeId?: number | null): CrossPosition[];
}
