import { Dec } from '@halyard/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONEY_PATHS } from '../identity/test-support.ts';
import { houseDailyVolume } from '../spot/quoting.ts';
import { HOUSE_OWNER } from './engine.ts';
import { BTC, expectAuditClean, type Harness, startHarness } from './test-support.ts';

/** Whole minutes of ticks: enough for bars going both ways (each minute's ticks take tens of ms on a loaded machine). */
const MINUTES = 5;

describe.each(MONEY_PATHS)('futures market maker on $on', ({ moneyCore }) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ moneyCore });
  });

  afterAll(async () => {
    await h.close();
  });

  /** One index tick, the marks it gives and one requote of every contract, as the demo runs them. */
  async function step(): Promise<void> {
    h.clock.advance(1000);
    await h.app.market.simulator.tick();
    for (const { contract } of h.app.futures.service.engine.markets.values()) {
      const tick = h.app.market.index.current(contract.tradcoin);
      if (tick) await h.app.futures.service.onIndexTick(tick);
    }
    await h.app.futures.marketMaker.requoteAll();
  }

  /** The largest house position on any contract, in lots. */
  function largestHousePosition(): Dec {
    const lots = [...h.app.futures.service.engine.positions.values()]
      .filter((row) => row.owner === HOUSE_OWNER)
      .map((row) => Dec.parse(row.number));
    return lots.reduce((a, b) => Dec.max(a, b), Dec.ZERO);
  }

  describe('futures market maker', () => {
    it("crosses the spread so every minute's bar trades the seeded history's volume, going the index's way, the house netting to nothing", async () => {
      const { service } = h.app.futures;
      const market = [...service.engine.markets.values()].find((m) => m.contract.tradcoin === BTC.tradcoin)!;
      // Whole minutes of ticks, from a minute boundary.
      h.clock.set(Math.ceil(h.clock.now() / 60_000) * 60_000 - 1000);
      let largest = Dec.ZERO;
      for (let second = 0; second < MINUTES * 60; second += 1) {
        await step();
        largest = Dec.max(largest, largestHousePosition());
      }
      await service.idle();
      await h.app.market.data.flush();
      const bars = async (kind: 'contract' | 'cycle') =>
        (
          (await h.app.market.data.series({ kind, ...BTC }, 1, MINUTES, Number.MAX_SAFE_INTEGER)) as string[]
        ).map((row) =>
          row
            .split('|')
            .slice(1, 6)
            .map((text) => Dec.parse(text)),
        );
      const [futures, index] = [await bars('contract'), await bars('cycle')];
      expect(futures).toHaveLength(MINUTES);
      // The demo history's minute: a day of the house's crossings, in whole contracts, over 1440 minutes.
      const minuteVolume = houseDailyVolume(Dec.parse(market.contract.minnumber), 1000)
        .mul(market.unit)
        .div(Dec.fromInt(1440));
      expect(minuteVolume.isPositive()).toBe(true);
      for (const bar of futures) expect(bar[4]!.toString()).toBe(minuteVolume.toString());
      // Each minute's trades (the crossings) go the index's way in most minutes.
      const trades = await h.store.db
        .selectFrom('futures_trades')
        .select(['price', 'wdate'])
        .where('contract_id', '=', market.contract.autoid)
        .orderBy('autoid')
        .execute();
      const start = Math.floor(trades[0]!.wdate / 60_000) * 60_000;
      const minutes = index.map((_, minute) =>
        trades
          .filter((trade) => Math.floor((trade.wdate - start) / 60_000) === minute)
          .map((t) => Dec.parse(t.price)),
      );
      const direction = (open: Dec, close: Dec) => close.cmp(open);
      const agreeing = minutes.filter((prices, minute) => {
        const [open, , , close] = index[minute]!;
        return direction(prices[0]!, prices.at(-1)!) === direction(open!, close!);
      }).length;
      expect(minutes.every((prices) => prices.length >= 12)).toBe(true);
      console.log(`${agreeing} of ${MINUTES} minutes went the index's way`);
      expect(agreeing).toBeGreaterThanOrEqual(MINUTES - 2);
      expect(new Set(futures.map(([open, , , close]) => direction(open!, close!))).size).toBeGreaterThan(1);
      // The crossings meet the house's own quotes: its position never moved.
      expect(largest.toString()).toBe('0');
      const housePositions = await h.store.db
        .selectFrom('futures_positions')
        .select('autoid')
        .where('owner', '=', HOUSE_OWNER)
        .execute();
      expect(housePositions).toEqual([]);
      // The 24-hour ticker counts the live minutes' volume too.
      const ticker = h.app.market.data.ticker({ kind: 'contract', ...BTC });
      expect(Dec.parse(ticker!.volume).gte(minuteVolume.mul(Dec.fromInt(MINUTES)))).toBe(true);
      await expectAuditClean(h);
    }, 120_000);
  });
});
