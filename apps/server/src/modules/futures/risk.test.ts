import { Dec } from '@halyard/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  crossBreached,
  crossLiquidationPrice,
  isLiquidatable,
  isolatedLiquidationUnits,
  scanIsolated,
} from '../../core/state/futures-liquidation.ts';
import {
  averagePrice,
  bankruptcyPrice,
  bookMid,
  closeFigures,
  type Direction,
  feeOf,
  fundingPayment,
  fundingRate,
  liquidationPrice,
  maintenanceMargin,
  marginOf,
  marginRatioPercent,
  notionalOf,
  openingCost,
  type PositionFigures,
  positionEquity,
  roundRate,
  unrealisedPnl,
} from '../../core/state/futures-margin.ts';
import { triggerHit } from '../../core/state/futures-triggers.ts';
import { fundingSlot } from './funding.ts';

const d = (text: string) => Dec.parse(text);
const MMF = d('0.005');

function position(
  direction: Direction,
  lots: string,
  entry: string,
  margin: string,
  unit = '0.001',
): PositionFigures {
  return {
    direction,
    lots: d(lots),
    unit: d(unit),
    cost: d(entry).mul(d(lots)).mul(d(unit)),
    margin: d(margin),
  };
}

describe('margin, fee and PnL', () => {
  it('notional = price × lots × unit, margin = notional / lever, fee = notional × gas', () => {
    const notional = notionalOf(d('96500.5'), d('3'), d('0.001'));
    expect(notional.toString()).toBe('289.5015');
    expect(marginOf(notional, 20).toString()).toBe('14.475075');
    expect(feeOf(notional, d('0.0005')).toString()).toBe('0.14475075');
    expect(openingCost(d('96500.5'), d('3'), d('0.001'), 20, d('0.0005')).toString()).toBe('14.61982575');
  });

  it('unrealised PnL of a long and a short at the mark, and the equity', () => {
    const long = position('long', '10', '100000', '100');
    const short = position('short', '10', '100000', '100');
    expect(unrealisedPnl(long, d('101000')).toString()).toBe('10');
    expect(unrealisedPnl(short, d('101000')).toString()).toBe('-10');
    expect(positionEquity(short, d('101000')).toString()).toBe('90');
    expect(averagePrice(long).toString()).toBe('100000');
    expect(maintenanceMargin(long, d('100000'), MMF).toString()).toBe('5');
    expect(marginRatioPercent(d('50'), d('5'))?.toString()).toBe('10');
    expect(marginRatioPercent(d('-1'), d('5'))).toBeNull();
  });

  it('a partial close releases margin pro rata and rounds the cost in the pool’s favour; the last lot takes the rest', () => {
    const long = { ...position('long', '3', '100000', '100'), cost: d('300.000000000000000001') };
    const first = closeFigures(long, d('1'), d('100000'));
    expect(first.marginReleased.toString()).toBe('33.333333333333333333');
    // ⌈300.000000000000000001 / 3⌉: one unit up, so the long is paid a hair less.
    expect(first.costReleased.toString()).toBe('100.000000000000000001');
    expect(first.realised.toString()).toBe('-0.000000000000000001');
    const rest = closeFigures(
      {
        ...long,
        lots: d('2'),
        cost: long.cost.sub(first.costReleased),
        margin: long.margin.sub(first.marginReleased),
      },
      d('2'),
      d('100000'),
    );
    expect(rest.marginReleased.add(first.marginReleased).toString()).toBe('100');
    expect(rest.costReleased.add(first.costReleased).toString()).toBe('300.000000000000000001');
  });
});

describe('liquidation price', () => {
  it('matches the closed form p′ = (e − s·p) / (|s|·MMF − s) on a worked example', () => {
    const long = position('long', '10', '100000', '50');
    // (50 − 1000) / (0.01 × 0.005 − 0.01)
    expect(liquidationPrice(long, long.margin, MMF)?.toFixed(6)).toBe('95477.386934');
    const short = position('short', '10', '100000', '50');
    // (50 + 1000) / (0.01 × 0.005 + 0.01)
    expect(liquidationPrice(short, short.margin, MMF)?.toFixed(6)).toBe('104477.611940');
    // A 1× long cannot be liquidated: the price would be at or below zero.
    expect(liquidationPrice(position('long', '10', '100000', '1000'), d('1000'), MMF)).toBeNull();
  });

  it('is where equity first meets maintenance: the closed form agrees with a brute-force search', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Direction>('long', 'short'),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 10_000, max: 200_000 }),
        fc.constantFrom(2, 5, 10, 20, 50, 100),
        (direction, lots, entry, lever) => {
          const figures = position(direction, String(lots), String(entry), '0');
          const withMargin = { ...figures, margin: marginOf(figures.cost, lever) };
          const closed = liquidationPrice(withMargin, withMargin.margin, MMF);
          const found = bruteForce(withMargin, entry);
          if (closed === null) return found === null;
          // The search walks whole cents; the closed form must sit within one cent of the first breached price.
          expect(found).not.toBeNull();
          expect(closed.sub(found!).abs().lte(d('0.01'))).toBe(true);
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the bankruptcy price leaves exactly zero equity', () => {
    const long = position('long', '10', '100000', '50');
    expect(bankruptcyPrice(long, long.margin).toString()).toBe('95000');
    expect(positionEquity(long, d('95000')).toString()).toBe('0');
    const short = position('short', '10', '100000', '50');
    expect(bankruptcyPrice(short, short.margin).toString()).toBe('105000');
  });
});

/**
 * Binary search on cents for the first price at which equity ≤ maintenance
 * (long: the highest such price below entry; short: the lowest above).
 */
function bruteForce(figures: PositionFigures, entry: number): Dec | null {
  const breached = (cents: bigint) => {
    const price = Dec.fromUnits(cents * 10n ** 16n);
    return positionEquity(figures, price).lte(maintenanceMargin(figures, price, MMF));
  };
  const entryCents = BigInt(entry) * 100n;
  if (figures.direction === 'long') {
    if (!breached(1n)) return null;
    let low = 1n; // breached
    let high = entryCents; // not breached
    while (high - low > 1n) {
      const middle = (low + high) / 2n;
      if (breached(middle)) low = middle;
      else high = middle;
    }
    return Dec.fromUnits(low * 10n ** 16n);
  }
  let low = entryCents; // not breached
  let high = entryCents * 1000n; // breached
  if (!breached(high)) return null;
  while (high - low > 1n) {
    const middle = (low + high) / 2n;
    if (breached(middle)) high = middle;
    else low = middle;
  }
  return Dec.fromUnits(high * 10n ** 16n);
}

describe('the liquidation scan', () => {
  it('flags a long at or below its price and a short at or above, in the given contract only', () => {
    const long = position('long', '10', '100000', '50');
    const short = position('short', '10', '100000', '50');
    const entries = [
      { positionId: 1, contractId: 1, long: true, liquidationUnits: isolatedLiquidationUnits(long, MMF) },
      { positionId: 2, contractId: 1, long: false, liquidationUnits: isolatedLiquidationUnits(short, MMF) },
      { positionId: 3, contractId: 2, long: true, liquidationUnits: isolatedLiquidationUnits(long, MMF) },
    ];
    expect(scanIsolated(entries, 1, d('95478').units)).toEqual([]);
    expect(scanIsolated(entries, 1, d('95477').units)).toEqual([1]);
    expect(scanIsolated(entries, 1, d('104478').units)).toEqual([2]);
    expect(isLiquidatable({ positionId: 4, contractId: 1, long: true, liquidationUnits: null }, 1n)).toBe(
      false,
    );
  });

  it('cross: the account is breached when free balance plus equity falls to the maintenance', () => {
    const long = { ...position('long', '10', '100000', '50'), mark: d('95000'), mmf: MMF };
    // Equity 50 − 50 = 0 plus free 4.75 = 4.75 ≤ MM 4.75.
    expect(crossBreached(d('4.75'), [long])).toBe(true);
    expect(crossBreached(d('4.76'), [long])).toBe(false);
    expect(crossBreached(d('0'), [])).toBe(false);
    // Another cross position's surplus above its maintenance lowers this one's liquidation price.
    const alone = crossLiquidationPrice(d('0'), long, []);
    const helped = crossLiquidationPrice(d('0'), long, [
      { ...position('short', '10', '100000', '100'), mark: d('95000'), mmf: MMF },
    ]);
    expect(alone?.toFixed(2)).toBe('95477.38');
    expect(helped!.lt(alone!)).toBe(true);
  });
});

describe('funding', () => {
  it('rate = (mid − index) / index, clamped to ±0.75 % and cut to 8 decimals', () => {
    expect(fundingRate(d('100100'), d('100000')).toString()).toBe('0.001');
    expect(fundingRate(d('102000'), d('100000')).toString()).toBe('0.0075');
    expect(fundingRate(d('98000'), d('100000')).toString()).toBe('-0.0075');
    expect(fundingRate(d('99999.99'), d('100000')).toString()).toBe('-0.0000001');
    expect(roundRate({ bestBid: d('100900'), bestAsk: d('101100') }, d('100000'))).toEqual({
      rate: d('0.0075'),
      mid: d('101000'),
    });
    expect(roundRate({ bestBid: null, bestAsk: d('101100') }, d('100000')).rate.isZero()).toBe(true);
    expect(bookMid({ bestBid: d('1'), bestAsk: d('2') })?.toString()).toBe('1.5');
  });

  it('payments are exact and cancel out between longs and shorts of equal size', () => {
    const rate = d('0.00012345');
    const longs = [position('long', '3', '1', '0'), position('long', '7', '1', '0')];
    const shorts = [position('short', '10', '1', '0')];
    const paid = Dec.sum(longs.map((row) => fundingPayment(row, d('96500.5'), rate)));
    const received = Dec.sum(shorts.map((row) => fundingPayment(row, d('96500.5'), rate)));
    expect(paid.toString()).toBe('-0.11912986725');
    expect(received.add(paid).isZero()).toBe(true);
    expect(fundingPayment(shorts[0]!, d('100'), d('-0.001')).isNegative()).toBe(true);
  });

  it('rounds start on whole intervals', () => {
    const eightHours = 8 * 3_600_000;
    expect(fundingSlot(Date.UTC(2026, 0, 1, 7, 59), eightHours)).toBe(Date.UTC(2026, 0, 1, 0));
    expect(fundingSlot(Date.UTC(2026, 0, 1, 8, 0), eightHours)).toBe(Date.UTC(2026, 0, 1, 8));
  });
});

describe('TP/SL triggers', () => {
  it('long: TP at or above, SL at or below; short the reverse', () => {
    const prices = { profitPrice: d('110'), lossPrice: d('90') };
    expect(triggerHit('long', prices, d('110'))).toBe('profit');
    expect(triggerHit('long', prices, d('90'))).toBe('loss');
    expect(triggerHit('long', prices, d('100'))).toBeNull();
    const shortPrices = { profitPrice: d('90'), lossPrice: d('110') };
    expect(triggerHit('short', shortPrices, d('89'))).toBe('profit');
    expect(triggerHit('short', shortPrices, d('111'))).toBe('loss');
    expect(triggerHit('short', { profitPrice: null, lossPrice: null }, d('1'))).toBeNull();
  });
});
