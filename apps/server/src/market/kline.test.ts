import { Dec } from '@halyard/money';
import { KLINE_MINUTES, type KlineMinutes } from '@halyard/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type Store } from '../store/connect.ts';
import {
  bucketStart,
  type Candle,
  formatSeriesRow,
  KlineAggregator,
  type Print,
  packTime,
  pageEnd,
  periodFor,
  unpackTime,
} from './kline.ts';

const at = (iso: string) => Date.parse(iso);

describe('bucketStart', () => {
  const ts = at('2026-03-18T13:47:29.500Z'); // a Wednesday
  it.each([
    [1, '2026-03-18T13:47:00.000Z'],
    [5, '2026-03-18T13:45:00.000Z'],
    [15, '2026-03-18T13:45:00.000Z'],
    [30, '2026-03-18T13:30:00.000Z'],
    [60, '2026-03-18T13:00:00.000Z'],
    [240, '2026-03-18T12:00:00.000Z'],
    [1440, '2026-03-18T00:00:00.000Z'],
    [10080, '2026-03-16T00:00:00.000Z'],
  ] as const)('aligns %i-minute bars in UTC', (period, expected) => {
    expect(new Date(bucketStart(ts, period)).toISOString()).toBe(expected);
  });

  it('starts the week on Monday 00:00 UTC', () => {
    const monday = at('2026-03-16T00:00:00.000Z');
    expect(bucketStart(monday, 10080)).toBe(monday);
    expect(bucketStart(monday - 1, 10080)).toBe(at('2026-03-09T00:00:00.000Z'));
    expect(bucketStart(at('2026-03-22T23:59:59.999Z'), 10080)).toBe(monday); // Sunday night
    expect(bucketStart(at('2027-01-01T12:00:00.000Z'), 10080)).toBe(at('2026-12-28T00:00:00.000Z'));
    // Before the epoch's first Monday too.
    expect(bucketStart(at('1970-01-01T00:00:00.000Z'), 10080)).toBe(at('1969-12-29T00:00:00.000Z'));
  });

  it('puts the last millisecond of a bar in that bar and the next one in the next', () => {
    for (const period of KLINE_MINUTES) {
      const start = bucketStart(at('2026-03-18T13:47:29.500Z'), period);
      const length = period * 60_000;
      expect(bucketStart(start + length - 1, period)).toBe(start);
      expect(bucketStart(start + length, period)).toBe(start + length);
    }
  });
});

describe('packed date-time', () => {
  it('is yyyymmdd × 1,000,000 + hhmmss in UTC', () => {
    const packed = packTime(at('2026-01-05T08:30:07.900Z'));
    expect(packed).toBe(20260105083007);
    expect(Math.floor(packed / 1_000_000)).toBe(20260105);
    expect(packed % 1_000_000).toBe(83007);
    expect(packTime(at('2026-12-31T23:59:59Z'))).toBe(20261231235959);
  });

  it('unpacks back to the instant and refuses impossible dates', () => {
    expect(unpackTime(20260105083007)).toBe(at('2026-01-05T08:30:07Z'));
    expect(unpackTime(20260230000000)).toBeNaN();
    expect(unpackTime(20260105246000)).toBeNaN();
  });

  it('reads the paging date as 0, epoch ms or packed', () => {
    expect(pageEnd(0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(pageEnd(at('2026-01-05T08:30:00Z'))).toBe(at('2026-01-05T08:30:00Z'));
    expect(pageEnd(20260105083000)).toBe(at('2026-01-05T08:30:00Z'));
    expect(pageEnd(20261399000000)).toBeNaN();
  });

  it('formats a series row with canonical decimals', () => {
    const candle: Candle = {
      kind: 'trad',
      pair: 'BTC/USDT',
      period: 1,
      start: at('2026-01-05T08:30:00Z'),
      open: Dec.parse('96500.10'),
      high: Dec.parse('96510'),
      low: Dec.parse('96490.5'),
      close: Dec.parse('96501'),
      volume: Dec.parse('0.25'),
      firstTs: 0,
      lastTs: 0,
    };
    expect(formatSeriesRow(candle)).toBe('20260105083000|96500.1|96510|96490.5|96501|0.25');
  });
});

describe('periodFor', () => {
  it('maps the spec period codes', () => {
    expect(periodFor(-1, 1)).toBe(1);
    expect(periodFor(-1, 60)).toBe(1);
    for (const mine of [1, 5, 15, 30, 60, 240] as const) expect(periodFor(0, mine)).toBe(mine);
    expect(periodFor(1, 1440)).toBe(1440);
    expect(periodFor(2, 10080)).toBe(10080);
    expect(periodFor(0, 7)).toBeNull();
  });
});

/** The oracle: bars recomputed from scratch with calendar arithmetic instead of bucketStart. */
function naiveBucket(ts: number, period: KlineMinutes): number {
  const date = new Date(ts);
  const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  if (period === 10080) return midnight - ((date.getUTCDay() + 6) % 7) * 86_400_000;
  const minuteOfDay = date.getUTCHours() * 60 + date.getUTCMinutes();
  return midnight + (minuteOfDay - (minuteOfDay % period)) * 60_000;
}

function naiveBars(prints: readonly Print[], period: KlineMinutes): string[] {
  const groups = new Map<number, Print[]>();
  for (const print of prints) {
    const start = naiveBucket(print.ts, period);
    groups.set(start, [...(groups.get(start) ?? []), print]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([start, group]) => {
      const minTs = Math.min(...group.map((print) => print.ts));
      const maxTs = Math.max(...group.map((print) => print.ts));
      const open = group.find((print) => print.ts === minTs)?.price;
      const close = group.findLast((print) => print.ts === maxTs)?.price;
      const high = group.reduce((top, print) => Dec.max(top, print.price), group[0]?.price ?? Dec.ZERO);
      const low = group.reduce((bottom, print) => Dec.min(bottom, print.price), group[0]?.price ?? Dec.ZERO);
      const volume = Dec.sum(group.map((print) => print.amount));
      return `${packTime(start)}|${open}|${high}|${low}|${close}|${volume}`;
    });
}

describe('KlineAggregator', () => {
  let store: Store;
  const flushed: Candle[][] = [];
  const errors: unknown[] = [];
  let aggregator: KlineAggregator;

  beforeAll(async () => {
    store = await openTestStore();
    aggregator = new KlineAggregator({
      db: store.db,
      flushDelayMs: 60_000,
      onFlushed: (bars) => flushed.push([...bars]),
      onError: (error) => errors.push(error),
    });
  });

  afterAll(async () => {
    await aggregator.close();
    await store.close();
    expect(errors).toEqual([]);
  });

  const print = (price: string, amount: string, iso: string): Print => ({
    price: Dec.parse(price),
    amount: Dec.parse(amount),
    ts: at(iso),
  });

  it('writes one bar per period per flush, merging later prints into stored bars', async () => {
    const series = { kind: 'trad' as const, pair: 'ETH/USDT', period: 1 };
    aggregator.record('trad', 'ETH/USDT', print('3450', '1', '2026-03-18T10:00:05Z'));
    aggregator.record('trad', 'ETH/USDT', print('3460', '2', '2026-03-18T10:00:35Z'));
    await aggregator.flush();
    expect(flushed.at(-1)).toHaveLength(KLINE_MINUTES.length);
    aggregator.record('trad', 'ETH/USDT', print('3440', '0.5', '2026-03-18T10:00:50Z'));
    // A late print that opens the bar earlier than the stored open.
    aggregator.record('trad', 'ETH/USDT', print('3455', '1', '2026-03-18T10:00:01Z'));
    await aggregator.flush();
    expect(flushed.at(-1)).toHaveLength(KLINE_MINUTES.length);
    const bars = await aggregator.series(series, 10, Number.MAX_SAFE_INTEGER);
    expect(bars.map(formatSeriesRow)).toEqual(['20260318100000|3455|3460|3440|3440|4.5']);
    const week = await aggregator.series({ ...series, period: 10080 }, 10, Number.MAX_SAFE_INTEGER);
    expect(week.map(formatSeriesRow)).toEqual(['20260316000000|3455|3460|3440|3440|4.5']);
  });

  it('takes index ticks as zero-volume prints', async () => {
    aggregator.record('cycle', 'SOL/USDT', print('185.1', '0', '2026-03-18T10:00:01Z'));
    aggregator.record('cycle', 'SOL/USDT', print('185.3', '0', '2026-03-18T10:00:02Z'));
    const bars = await aggregator.series(
      { kind: 'cycle', pair: 'SOL/USDT', period: 5 },
      1,
      Number.MAX_SAFE_INTEGER,
    );
    expect(bars.map(formatSeriesRow)).toEqual(['20260318100000|185.1|185.3|185.1|185.3|0']);
  });

  it('pages back through history with an exclusive end time', async () => {
    const series = { kind: 'trad' as const, pair: 'LTC/USDT', period: 1 };
    for (let minute = 0; minute < 10; minute += 1) {
      aggregator.record('trad', 'LTC/USDT', {
        price: Dec.fromInt(100 + minute),
        amount: Dec.ONE,
        ts: at('2026-03-18T10:00:00Z') + minute * 60_000 + 1,
      });
    }
    const newest = await aggregator.series(series, 3, pageEnd(0));
    expect(newest.map((bar) => bar.close.toString())).toEqual(['107', '108', '109']);
    const older = await aggregator.series(series, 3, pageEnd(packTime(newest[0]?.start ?? 0)));
    expect(older.map((bar) => bar.close.toString())).toEqual(['104', '105', '106']);
    const oldest = await aggregator.series(series, 300, pageEnd(older[0]?.start ?? 0));
    expect(oldest.map((bar) => bar.close.toString())).toEqual(['100', '101', '102', '103']);
    expect(await aggregator.series(series, 300, pageEnd(oldest[0]?.start ?? 0))).toEqual([]);
  });

  it('matches a naive recomputation for any prints in any order, flushed at any points', async () => {
    const base = at('2026-03-14T00:00:00Z'); // a Saturday: the range crosses a week boundary
    const printArbitrary = fc.record({
      cents: fc.integer({ min: 1, max: 10_000_000 }),
      milli: fc.integer({ min: 0, max: 100_000 }),
      // Coarse steps over four days, so equal times (ties for open and close) are common.
      offsetMs: fc.integer({ min: 0, max: 2000 }).map((step) => step * 173_000),
      flushAfter: fc.boolean(),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(printArbitrary, { minLength: 1, maxLength: 60 }), async (drawn) => {
        run += 1;
        const pair = `P${run}/USDT`;
        const prints: Print[] = [];
        for (const item of drawn) {
          const next: Print = {
            price: Dec.fromUnits(BigInt(item.cents) * 10n ** 16n),
            amount: Dec.fromUnits(BigInt(item.milli) * 10n ** 15n),
            ts: base + item.offsetMs,
          };
          prints.push(next);
          aggregator.record('contract', pair, next);
          if (item.flushAfter) await aggregator.flush();
        }
        for (const period of KLINE_MINUTES) {
          const bars = await aggregator.series(
            { kind: 'contract', pair, period },
            1000,
            Number.MAX_SAFE_INTEGER,
          );
          expect(bars.map(formatSeriesRow)).toEqual(naiveBars(prints, period));
        }
      }),
      { numRuns: 40 },
    );
  });
});
