// The futures engine's in-memory state: books, open orders, positions,
// triggers, marks and the funding clock. modules/futures' engine and the
// money state (futures.ts) each hold one; the engine rebuilds its own from
// the store (modules/futures/state.ts, `restoreFutures`).
import { type DepthSnapshot, OrderBook } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { TrackedMap } from '../sequencer/tracked-map.ts';
import type { GroupEffects } from './futures-commands.ts';
import { HOUSE_OWNER } from './futures-commands.ts';
import {
  type CrossPosition,
  directionOf,
  type IsolatedRiskEntry,
  isolatedLiquidationUnits,
} from './futures-liquidation.ts';
import type { PositionFigures } from './futures-margin.ts';
import type { ContractRow, EntrustRow, FuturesTradeRow, PositionRow, TriggerRow } from './futures-rows.ts';

export const TOP_TRADES = 20;
/** Book levels kept per side for pushes and reads (the screen shows 7). */
const DEPTH_LEVELS = 20;

export interface ContractMarket {
  contract: ContractRow;
  unit: Dec;
  gas: Dec;
  mmf: Dec;
  levers: number[];
  book: OrderBook;
  depth: DepthSnapshot;
  /** Newest first. */
  trades: FuturesTradeRow[];
}

/** What the state is rebuilt from: rows by id order, the latest trades (newest first) and funding slots by contract. */
export interface FuturesRows {
  contracts: readonly ContractRow[];
  orders: readonly EntrustRow[];
  positions: readonly PositionRow[];
  triggers: readonly TriggerRow[];
  trades: ReadonlyMap<number, FuturesTradeRow[]>;
  lastFunding: ReadonlyMap<number, number>;
}

/**
 * The futures engine's in-memory state: every contract's book, the open
 * orders, positions and triggers, the isolated positions' liquidation
 * prices, the marks and the funding clock. The stages change it while a
 * command runs; the engine rebuilds its own from the store after a
 * rolled-back group, the money state from a snapshot ({@link rebuild}).
 */
export class FuturesState {
  readonly markets = new Map<number, ContractMarket>();
  // TrackedMaps, so the money state's snapshot reads them a slice at a time while commands go on: rows are
  // changed in place, each after `beforeChange(id)` (a no-op in the engine, which never opens a capture).
  readonly open = new OwnedRows<EntrustRow>();
  readonly positions = new OwnedRows<PositionRow>();
  readonly triggers = new TrackedMap<number, TriggerRow>(copyRow);
  /** Isolated user positions' liquidation prices, refreshed whenever the position changes. */
  readonly isolatedRisk = new Map<number, IsolatedRiskEntry>();
  /** The mark (= index) of each trade coin. */
  readonly marks = new Map<string, Dec>();
  /** The funding slot each contract last settled. */
  readonly lastFunding = new Map<number, number>();

  /**
   * Everything from rows (the store's, or a money state snapshot's): each
   * contract's book from its resting orders, the open orders, positions
   * (re-priced for the scan) and active triggers. Marks are kept.
   */
  rebuild(rows: FuturesRows): void {
    this.markets.clear();
    for (const contract of rows.contracts) {
      const resting = rows.orders.filter((row) => row.contract_id === contract.autoid && row.price !== null);
      const book = OrderBook.restore(
        bookConfig(contract),
        resting.map((row) => ({
          orderId: String(row.autoid),
          userId: row.owner,
          side: row.type,
          price: Dec.parse(row.price ?? '0'),
          amount: Dec.parse(row.number),
          remaining: Dec.parse(row.unfilled),
          sequence: row.autoid,
        })),
      );
      this.markets.set(contract.autoid, {
        ...settingsOf(contract, book),
        depth: book.depth(DEPTH_LEVELS),
        trades: rows.trades.get(contract.autoid) ?? [],
      });
      const slot = rows.lastFunding.get(contract.autoid);
      if (slot !== undefined) this.lastFunding.set(contract.autoid, slot);
    }
    this.open.clear();
    for (const row of rows.orders) this.open.set(row.autoid, row);
    this.positions.clear();
    this.isolatedRisk.clear();
    for (const row of rows.positions) {
      this.positions.set(row.autoid, row);
      this.refreshRisk(row);
    }
    this.triggers.clear();
    for (const row of rows.triggers) this.triggers.set(row.autoid, row);
  }

  /**
   * Takes a contract's settings: in place for a known one (its book kept
   * unless the tick changed), else a new empty market whose funding starts
   * at `currentSlot`.
   */
  putContract(contract: ContractRow, currentSlot: () => number): void {
    const known = this.markets.get(contract.autoid);
    const sameTick = known?.contract.price_accuracy === contract.price_accuracy;
    const book = known && sameTick ? known.book : new OrderBook(bookConfig(contract));
    const settings = settingsOf(contract, book);
    if (known) {
      Object.assign(known, settings, { depth: book.depth(DEPTH_LEVELS) });
      return;
    }
    this.markets.set(contract.autoid, { ...settings, depth: book.depth(DEPTH_LEVELS), trades: [] });
    this.lastFunding.set(contract.autoid, currentSlot());
  }

  /**
   * After each settlement (the engine's and the money state's alike): the
   * touched markets' shown depth, and their trades prepended to the latest
   * (what `latestPrice` reads).
   */
  refreshMarkets(effects: GroupEffects): void {
    for (const id of effects.contracts) {
      const market = this.market(id);
      this.refreshDepth(id);
      const fresh = effects.trades.filter((trade) => trade.contract_id === id).reverse();
      market.trades = fresh.concat(market.trades).slice(0, TOP_TRADES);
    }
  }

  /** A market's shown depth, from its book now. */
  refreshDepth(contractId: number): void {
    const market = this.market(contractId);
    market.depth = market.book.depth(DEPTH_LEVELS);
  }

  market(contractId: number): ContractMarket {
    const market = this.markets.get(contractId);
    // The checks refuse an unknown contract first; a row of a contract that is not listed is a bug.
    if (!market) throw new Error(`futures: contract ${contractId} is not listed`);
    return market;
  }

  positionFigures(row: PositionRow): PositionFigures {
    const market = this.market(row.contract_id);
    return {
      direction: directionOf(row.type),
      lots: Dec.parse(row.number),
      unit: market.unit,
      cost: Dec.parse(row.cost),
      margin: Dec.parse(row.margin),
    };
  }

  markOf(contractId: number): Dec | null {
    return this.marks.get(this.market(contractId).contract.tradcoin) ?? null;
  }

  /** Last trade price, else the mark; null when neither is known. */
  latestPrice(contractId: number): Dec | null {
    const last = this.market(contractId).trades[0];
    return last ? Dec.parse(last.price) : this.markOf(contractId);
  }

  /** The user's open cross positions, each with its mark (null mark: left out, it cannot be valued). */
  crossPositionsOf(owner: string, excludeId: number | null = null): CrossPosition[] {
    const found: CrossPosition[] = [];
    for (const row of this.positions.ofOwner(owner)) {
      if (row.td_mode !== 'cross' || row.autoid === excludeId) continue;
      const mark = this.markOf(row.contract_id);
      if (mark === null) continue;
      found.push({ ...this.positionFigures(row), mark, mmf: this.market(row.contract_id).mmf });
    }
    return found;
  }

  /** Re-prices an isolated user position for the liquidation scan. */
  refreshRisk(position: PositionRow): void {
    if (position.td_mode !== 'lsolate' || position.owner === HOUSE_OWNER) return;
    const market = this.market(position.contract_id);
    this.isolatedRisk.set(position.autoid, {
      positionId: position.autoid,
      contractId: position.contract_id,
      long: position.type === 'buy',
      liquidationUnits: isolatedLiquidationUnits(this.positionFigures(position), market.mmf),
    });
  }
}

/**
 * Rows by id that also know each owner's ids, so a user's rows are found
 * without a scan of everyone's (the checks and fills run per order). The
 * index follows every `set`, `delete` and `clear`, whoever makes them; an
 * owner's rows come in the map's own order.
 */
export class OwnedRows<Row extends { owner: string }> extends TrackedMap<number, Row> {
  private readonly byOwner = new Map<string, Set<number>>();

  constructor() {
    super(copyRow);
  }

  override set(id: number, row: Row): this {
    const before = super.get(id);
    if (before && before.owner !== row.owner) this.unindex(id, before.owner);
    let ids = this.byOwner.get(row.owner);
    if (!ids) {
      ids = new Set();
      this.byOwner.set(row.owner, ids);
    }
    ids.add(id);
    return super.set(id, row);
  }

  override delete(id: number): boolean {
    const row = super.get(id);
    if (row) this.unindex(id, row.owner);
    return super.delete(id);
  }

  override clear(): void {
    this.byOwner.clear();
    super.clear();
  }

  /** An owner's rows, in the map's order. */
  *ofOwner(owner: string): Generator<Row> {
    const ids = this.byOwner.get(owner);
    if (!ids) return;
    for (const id of ids) yield super.get(id)!;
  }

  private unindex(id: number, owner: string): void {
    const ids = this.byOwner.get(owner);
    ids?.delete(id);
    if (ids?.size === 0) this.byOwner.delete(owner);
  }
}

/** A row's before-image: the rows hold strings, numbers and nulls only. */
function copyRow<Row extends object>(row: Row): Row {
  return { ...row };
}

function bookConfig(contract: ContractRow) {
  return { priceAccuracy: contract.price_accuracy, amountAccuracy: 0, minNumber: Dec.ONE };
}

/** A contract's parsed settings around its book. */
function settingsOf(contract: ContractRow, book: OrderBook): Omit<ContractMarket, 'depth' | 'trades'> {
  return {
    contract,
    unit: Dec.parse(contract.unit),
    gas: Dec.parse(contract.gas),
    mmf: Dec.parse(contract.maintenance_margin_rate),
    levers: JSON.parse(contract.levers) as number[],
    book,
  };
}
