/**
 * Liquidation-engine throughput: open isolated positions re-checked against a
 * new mark price, the scan the futures engine runs on every index tick.
 *
 *   npx tsx bench/futures-liquidation.bench.ts
 *
 * 100,000 open positions (half long, half short, leverage 2× to 100×) on one
 * contract; each tick walks all of them and flags those at or past their
 * liquidation price. Prints position checks per second and the ratio to the
 * anchor (issue 5: at least 1,000,000 checks/s).
 */
import { performance } from 'node:perf_hooks';
import { Dec } from '@halyard/money';
import {
  type IsolatedRiskEntry,
  isolatedLiquidationUnits,
  scanIsolated,
} from '../apps/server/src/core/state/futures-liquidation.ts';
import { marginOf } from '../apps/server/src/core/state/futures-margin.ts';

/** The anchor: the target figure, not a measurement. */
const ANCHOR_CHECKS_PER_SECOND = 1_000_000;
const POSITIONS = 100_000;
const TICKS = 200;
const UNIT = Dec.parse('0.001');
const MMF = Dec.parse('0.005');
const LEVERS = [2, 5, 10, 20, 50, 100];

function positions(): IsolatedRiskEntry[] {
  return Array.from({ length: POSITIONS }, (_, index) => {
    const long = index % 2 === 0;
    const lots = Dec.fromInt(1 + (index % 97));
    const entry = Dec.parse(`${95_000 + (index % 10_000)}.${index % 100}`);
    const cost = entry.mul(lots).mul(UNIT);
    const margin = marginOf(cost, LEVERS[index % LEVERS.length]!);
    const figures = {
      direction: long ? ('long' as const) : ('short' as const),
      lots,
      unit: UNIT,
      cost,
      margin,
    };
    return {
      positionId: index + 1,
      contractId: 1,
      long,
      liquidationUnits: isolatedLiquidationUnits(figures, MMF),
    };
  });
}

function main(): void {
  const entries = positions();
  const marks = Array.from(
    { length: TICKS },
    (_, tick) => Dec.parse(`${99_000 + ((tick * 37) % 2_000)}.5`).units,
  );
  // Warm-up, then the measured ticks.
  for (let tick = 0; tick < 20; tick++) scanIsolated(entries, 1, marks[tick]!);
  let flagged = 0;
  const started = performance.now();
  for (const mark of marks) flagged += scanIsolated(entries, 1, mark).length;
  const seconds = (performance.now() - started) / 1000;
  const perSecond = Math.round((POSITIONS * TICKS) / seconds);
  const ratio = (perSecond / ANCHOR_CHECKS_PER_SECOND).toFixed(2);
  console.log(
    `liquidation scan: ${POSITIONS.toLocaleString('en')} positions × ${TICKS} ticks, ` +
      `${perSecond.toLocaleString('en')} position checks/s (${ratio}× the anchor of 1,000,000 checks/s); ` +
      `${((seconds * 1000) / TICKS).toFixed(2)} ms per tick; ${flagged.toLocaleString('en')} flags`,
  );
}

main();
