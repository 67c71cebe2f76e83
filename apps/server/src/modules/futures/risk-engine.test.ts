import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MONEY_PATHS } from '../identity/test-support.ts';
import type { PositionView } from './service.ts';
import {
  balanceOf,
  expectAuditClean,
  expectOk,
  futuresOf,
  futuresUser,
  get,
  type Harness,
  HOUSE,
  INSURANCE,
  mark,
  order,
  POOL,
  placed,
  positionsOf,
  startHarness,
} from './test-support.ts';

describe.each(MONEY_PATHS)('futures risk on $on', ({ moneyCore }) => {
  let h: Harness;
  const INSURANCE_SEED = Dec.parse('1000000');

  beforeEach(async () => {
    h = await startHarness({ moneyCore });
    await mark(h, '100000');
  });

  afterEach(async () => {
    await expectAuditClean(h);
    await h.close();
  });

  /** A 20× isolated long of 10 lots at 100000 (margin 50, fee 0.5) against a cross short from another user. */
  async function leveragedLong() {
    const long = await futuresUser(h, '1000');
    const short = await futuresUser(h);
    await placed(order(h, short, 'sell', 'limit', '10', { price: '100000', lever: 20 }));
    await placed(order(h, long, 'buy', 'market', '10', { lever: 20, tdMode: 'lsolate' }));
    return { long, short };
  }

  async function insuranceEntries() {
    const page = await h.app.ledger.transfers(
      { ...INSURANCE, asset: 'USDT' },
      { codes: ['futures_liquidation', 'futures_insurance'] },
    );
    return page.items.map((entry) => ({
      side: entry.side,
      amount: entry.amount.toString(),
      code: entry.code,
    }));
  }

  describe('liquidation', () => {
    it('walks a 20× long into liquidation: the insurance fund takes the remaining margin, the user never goes negative', async () => {
      const { long } = await leveragedLong();
      const [position] = await positionsOf(h, long);
      expect(position).toMatchObject({ position: '50', liquidation_price: '95477.38' });
      const userBalances: string[] = [];
      // Scripted index prices: each one is the mark of the BTC contract.
      for (const price of ['99000', '97000', '95478', '95400']) {
        await mark(h, price);
        userBalances.push((await balanceOf(h, futuresOf(long))).available);
      }
      expect(userBalances.every((balance) => !Dec.parse(balance).isNegative())).toBe(true);
      // Still open at 95478 (equity 4.78 > MM 4.7739); liquidated at 95400 (equity 4 ≤ MM 4.77).
      expect(await positionsOf(h, long)).toEqual([]);
      const history = (await expectOk(get(h, '/contract/tradHistory', long.token))).data as {
        list: PositionView[];
      };
      // Closed at the bankruptcy price (1000 − 50) / 0.01: the owner loses exactly the margin.
      expect(history.list[0]).toMatchObject({
        state: 'liquidated',
        close_price: '95000',
        last_profit: '-50',
        price: '100000',
        income: '-100.00',
      });
      expect(await balanceOf(h, futuresOf(long))).toEqual({ available: '949.5', locked: '0' });
      // Equity at the mark, 50 + (954 − 1000) = 4, moved from the margin pool to the insurance fund.
      expect(await insuranceEntries()).toEqual([
        { side: 'credit', amount: '4', code: 'futures_liquidation' },
      ]);
      expect((await balanceOf(h, INSURANCE)).available).toBe(INSURANCE_SEED.add(Dec.parse('4')).toString());
      // The house took the long over at the mark; the short's margin 50 and its gain 46 stay in the pool.
      expect(await balanceOf(h, POOL)).toEqual({ available: '96', locked: '0' });
      const house = [...h.app.futures.service.engine.positions.values()].filter(
        (row) => row.owner === 'house',
      );
      expect(
        house.map((row) => ({
          type: row.type,
          number: Dec.parse(row.number).toString(),
          cost: Dec.parse(row.cost).toString(),
        })),
      ).toEqual([{ type: 'buy', number: '10', cost: '954' }]);
    });

    it('a gap past the bankruptcy price: the insurance fund covers the shortfall into the pool', async () => {
      const { long, short } = await leveragedLong();
      await mark(h, '94000');
      expect(await positionsOf(h, long)).toEqual([]);
      // Equity 50 + (940 − 1000) = −10: paid by the insurance fund, not by the user.
      expect(await insuranceEntries()).toEqual([{ side: 'debit', amount: '10', code: 'futures_insurance' }]);
      expect(await balanceOf(h, futuresOf(long))).toEqual({ available: '949.5', locked: '0' });
      expect(await balanceOf(h, POOL)).toEqual({ available: '110', locked: '0' });
      // The short's full gain stays backed: the house holds the long at the mark.
      const [shortPosition] = await positionsOf(h, short);
      expect(shortPosition).toMatchObject({ profit: '60', position: '50' });
    });

    it('cross margin: the account is liquidated when free balance plus equity meets maintenance; the whole wallet is the margin', async () => {
      const cross = await futuresUser(h, '100');
      const short = await futuresUser(h);
      await placed(order(h, short, 'sell', 'limit', '10', { price: '100000', lever: 20 }));
      await placed(order(h, cross, 'buy', 'market', '10', { lever: 20, tdMode: 'cross' }));
      // Free 49.5 + margin 50 = 99.5: liquidation where 99.5 + 0.01·(p − 100000) = 0.00005·p → p ≈ 90502.
      const [position] = await positionsOf(h, cross);
      expect(position!.liquidation_price).toBe('90502.51');
      await mark(h, '95000');
      expect(await positionsOf(h, cross)).toHaveLength(1);
      await mark(h, '90500');
      expect(await positionsOf(h, cross)).toEqual([]);
      // Free 49.5 and the remaining equity 50 + (905 − 1000) = −45 → the fund nets 4.5.
      expect(await balanceOf(h, futuresOf(cross))).toEqual({ available: '0', locked: '0' });
      expect((await balanceOf(h, INSURANCE)).available).toBe(INSURANCE_SEED.add(Dec.parse('4.5')).toString());
      expect((await balanceOf(h, HOUSE)).locked).toBe('0');
    });
  });

  describe('funding', () => {
    it('pays the clamped premium of the book mid over the index from longs to shorts through the ledger', async () => {
      const long = await futuresUser(h);
      const short = await futuresUser(h);
      const quoter = await futuresUser(h);
      await placed(order(h, short, 'sell', 'limit', '10', { price: '100000', tdMode: 'lsolate' }));
      await placed(order(h, long, 'buy', 'market', '10'));
      // A book quoting 100900 / 101100 around an index of 100000: premium 1 %, clamped to 0.75 %.
      await placed(order(h, quoter, 'buy', 'limit', '1', { price: '100900', lever: 5 }));
      await placed(order(h, quoter, 'sell', 'limit', '1', { price: '101100', lever: 5 }));
      const before = await balanceOf(h, futuresOf(long));

      await mark(h, '100000');
      expect(await balanceOf(h, futuresOf(long))).toEqual(before);
      h.clock.advance(8 * 3_600_000);
      await mark(h, '100000');

      // 10 lots × 0.001 × 100000 × 0.0075 = 7.5: the cross long pays from its free balance,
      // the isolated short receives into its margin.
      expect(Dec.parse((await balanceOf(h, futuresOf(long))).available).toString()).toBe(
        Dec.parse(before.available).sub(Dec.parse('7.5')).toString(),
      );
      const [shortPosition] = await positionsOf(h, short);
      expect(shortPosition).toMatchObject({ position: '107.5', funding: '7.5' });
      const [longPosition] = await positionsOf(h, long);
      expect(longPosition).toMatchObject({ funding: '-7.5' });
      expect(await balanceOf(h, POOL)).toEqual({ available: '207.5', locked: '0' });
      // The round is written once: another tick in the same interval pays nothing more.
      await mark(h, '100000');
      expect((await positionsOf(h, long))[0]).toMatchObject({ funding: '-7.5' });
    });
  });
});
