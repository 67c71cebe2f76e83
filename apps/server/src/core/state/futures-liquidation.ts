import { Dec } from '@halyard/money';
import {
  crossEquityFor,
  type Direction,
  liquidationPrice,
  maintenanceMargin,
  type PositionFigures,
  positionEquity,
} from './futures-margin.ts';

/**
 * The liquidation engine's scan, kept apart from I/O so it can be measured
 * (bench/futures-liquidation.bench.ts) and tested on its own; the
 * liquidation itself (the take-over, its ledger legs) runs in the risk
 * passes (modules/futures/risk-pass.ts, futures-risk.ts).
 *
 * Isolated positions carry their liquidation price, computed when the
 * position last changed (a fill, a funding payment): on a mark tick the check
 * is one comparison of two bigints. Cross positions depend on the user's
 * whole account, so the scan names the users and {@link crossBreached}
 * decides from their free balance and every cross position at its mark.
 */
export interface IsolatedRiskEntry {
  positionId: number;
  contractId: number;
  long: boolean;
  /** The liquidation price in Dec units (10^-18), or null when it cannot be reached. */
  liquidationUnits: bigint | null;
}

export function isolatedLiquidationUnits(position: PositionFigures, mmf: Dec): bigint | null {
  return liquidationPrice(position, position.margin, mmf)?.units ?? null;
}

/** A long is liquidated when the mark is at or below its price, a short at or above. */
export function isLiquidatable(entry: IsolatedRiskEntry, markUnits: bigint): boolean {
  if (entry.liquidationUnits === null) return false;
  return entry.long ? markUnits <= entry.liquidationUnits : markUnits >= entry.liquidationUnits;
}

/** The isolated positions of one contract whose mark has reached their liquidation price. */
export function scanIsolated(
  entries: Iterable<IsolatedRiskEntry>,
  contractId: number,
  markUnits: bigint,
  found: number[] = [],
): number[] {
  for (const entry of entries) {
    if (entry.contractId === contractId && isLiquidatable(entry, markUnits)) found.push(entry.positionId);
  }
  return found;
}

export interface CrossPosition extends PositionFigures {
  mark: Dec;
  mmf: Dec;
}

/**
 * Cross margin shares the futures balance: the account is liquidated when
 * free balance + Σ (margin + unrealised PnL) of its cross positions falls to
 * Σ maintenance margin or below.
 */
export function crossBreached(free: Dec, positions: readonly CrossPosition[]): boolean {
  if (positions.length === 0) return false;
  const equity = free.add(Dec.sum(positions.map((position) => positionEquity(position, position.mark))));
  const maintenance = Dec.sum(
    positions.map((position) => maintenanceMargin(position, position.mark, position.mmf)),
  );
  return equity.lte(maintenance);
}

/**
 * A cross position's liquidation price: the closed form with e = free balance
 * + its own margin + what the other cross positions hold above their
 * maintenance, all at their current marks.
 */
export function crossLiquidationPrice(
  free: Dec,
  position: CrossPosition,
  others: readonly CrossPosition[],
): Dec | null {
  const othersAbove = Dec.sum(
    others.map((other) =>
      positionEquity(other, other.mark).sub(maintenanceMargin(other, other.mark, other.mmf)),
    ),
  );
  return liquidationPrice(position, crossEquityFor(free, position.margin, othersAbove), position.mmf);
}

export function directionOf(type: 'buy' | 'sell'): Direction {
  return type === 'buy' ? 'long' : 'short';
}
