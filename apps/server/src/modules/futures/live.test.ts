import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MONEY_PATHS, restartApp } from '../identity/test-support.ts';
import {
  expectAuditClean,
  expectOk,
  futuresUser,
  get,
  type Harness,
  mark,
  order,
  placed,
  positionsOf,
  startHarness,
} from './test-support.ts';

/** A decimal as one text: PostgreSQL's NUMERIC text, read back by the SQL engine, is padded with zeros. */
const canonical = (text: string) => Dec.parse(text).toString();

describe.each(MONEY_PATHS)('futures live data on $on', ({ moneyCore }) => {
  let h: Harness;

  beforeEach(async () => {
    h = await startHarness({ moneyCore });
  });

  afterEach(async () => {
    await expectAuditClean(h);
    await h.close();
  });

  describe('live data on the spec keys', () => {
    it('pushes consymbols, book rows, contop, coninfo and the contract kline', async () => {
      const pushes: Array<{ type: string; key?: string }> = [];
      vi.spyOn(h.app.realtime, 'publish').mockImplementation((push) => {
        pushes.push({ type: push.type, ...('key' in push ? { key: push.key } : {}) });
      });
      await mark(h, '100000');
      h.app.futures.service.publishSymbols();
      const long = await futuresUser(h);
      const short = await futuresUser(h);
      await placed(order(h, short, 'sell', 'limit', '3', { price: '100000' }));
      await placed(order(h, long, 'buy', 'market', '2'));
      // The ticker (coninfo) and the bars (kline) are announced when the market data's pending bars are written.
      await h.app.market.data.flush();
      const key = 'USDT_BTC_contract';
      expect(pushes).toContainEqual({ type: 'consymbols' });
      expect(pushes).toContainEqual({ type: 'sell', key });
      expect(pushes).toContainEqual({ type: 'buy', key });
      expect(pushes).toContainEqual({ type: 'contop', key });
      expect(pushes).toContainEqual({ type: 'coninfo', key });
      expect(pushes).toContainEqual({ type: 'kline', key: `${key}_1` });

      const book = (await expectOk(get(h, '/contract/contract?tradcoin=BTC&maincoin=USDT'))).data as {
        sell: Array<{ price: string; amount: string; width: string }>;
        top: Array<{ price: string; amount: string; type: string }>;
      };
      expect(book.sell).toEqual([{ price: '100000', amount: '1', width: '100.00' }]);
      expect(book.top).toEqual([expect.objectContaining({ price: '100000', amount: '2', type: 'buy' })]);

      const kline = (await expectOk(get(h, '/contract/kline?pairname=BTC/USDT&mine=1'))).data as {
        series: string[];
      };
      expect(kline.series.length).toBeGreaterThan(0);
      expect(kline.series.at(-1)).toContain('|100000|');
    });
  });

  describe('the house market maker', () => {
    it('quotes 7+ rows a side around the index and takes the other side of a user’s market order', async () => {
      await h.app.market.simulator.tick();
      const index = h.app.market.index.current('BTC')!.price;
      await mark(h, index.toString());
      await h.app.futures.marketMaker.requoteAll();
      const book = (await expectOk(get(h, '/contract/contract?tradcoin=BTC&maincoin=USDT'))).data as {
        buy: Array<{ price: string }>;
        sell: Array<{ price: string }>;
      };
      expect(book.buy).toHaveLength(7);
      expect(book.sell).toHaveLength(7);
      expect(Dec.parse(book.buy[0]!.price).lt(index)).toBe(true);
      expect(Dec.parse(book.sell[0]!.price).gt(index)).toBe(true);

      const user = await futuresUser(h);
      await placed(order(h, user, 'buy', 'market', '3', { lever: 20 }));
      const [position] = await positionsOf(h, user);
      expect(position).toMatchObject({ type: 'buy', number: '3', price: book.sell[0]!.price });
      const house = [...h.app.futures.service.engine.positions.values()].find((row) => row.owner === 'house');
      expect(house).toMatchObject({ type: 'sell' });
      expect(Dec.parse(house!.number).toString()).toBe('3');
    });
  });

  /** A position as numbers, canonical on both dialects (PostgreSQL numeric answers trailing zeros). */
  function positionFigures(row: {
    autoid: number;
    type: string;
    td_mode: string;
    number: string;
    cost: string;
    margin: string;
  }) {
    return {
      autoid: row.autoid,
      type: row.type,
      mode: row.td_mode,
      number: canonical(row.number),
      cost: canonical(row.cost),
      margin: canonical(row.margin),
    };
  }

  describe('restart', () => {
    // The whole app restarted: on SQL the engine rebuilds from the store, on the core the state is recovered
    // from its journal; either way the same books, open orders, positions and triggers, and the same reads.
    it('rebuilds books, open orders, positions and triggers', async () => {
      await mark(h, '100000');
      const long = await futuresUser(h);
      const short = await futuresUser(h);
      await placed(order(h, short, 'sell', 'limit', '5', { price: '100000' }));
      await placed(order(h, long, 'buy', 'market', '2', { profitPrice: '110000' }));
      const heldOf = async () => {
        const engine = h.app.futures.service.engine;
        return {
          depth: JSON.stringify(engine.market(1).book.depth(20)),
          open: [...engine.open.keys()],
          positions: [...engine.positions.values()].map(positionFigures),
          triggers: [...engine.triggers.keys()],
          trades: engine
            .market(1)
            .trades.map((trade) => [canonical(trade.price), canonical(trade.number), trade.wdate]),
          shown: await positionsOf(h, long),
        };
      };
      const before = await heldOf();
      expect(before.open).toHaveLength(1);
      expect(before.triggers).toHaveLength(1);
      expect(before.trades).toHaveLength(1);
      await restartApp(h);
      // SQL keeps no marks (the engine takes the next tick's); the core's are the state's, recovered with it.
      await mark(h, '100000');
      expect(await heldOf()).toEqual(before);
    });
  });
});
