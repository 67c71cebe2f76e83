import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemAccount } from '../../ledger/index.ts';
import { HOUR_MS, MONEY_PATHS, restartApp } from '../identity/test-support.ts';
import {
  balanceOf,
  expectHealthyLedger,
  expectOk,
  fund,
  get,
  type Harness,
  plainUser,
  post,
  spot,
  startWalletHarness,
  type TestUser,
} from '../wallet/test-support.ts';
import type { ExchangeRecord, FlashPair } from './service.ts';

/** Every test runs twice: on the SQL path the server runs today, and on the sequenced core (issue 19's cut-over). */
describe.each(MONEY_PATHS)('flash convert on $on', ({ moneyCore }) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startWalletHarness(null, {}, { moneyCore });
    await h.app.market.simulator.tick();
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
    await h.close();
  });

  const SPREAD = Dec.parse('0.002');

  async function pair(user: TestUser, from: string, to: string): Promise<FlashPair> {
    const pairs = (await expectOk(get(h, '/flash/flashCoin', user.token))).data as FlashPair[];
    const found = pairs.find((entry) => entry.from === from && entry.to === to);
    if (!found) throw new Error(`no pair ${from}→${to}`);
    return found;
  }

  function price(coin: string): Dec {
    const tick = h.app.market.index.current(coin);
    if (!tick) throw new Error(`no ${coin} price`);
    return tick.price;
  }

  describe('flash exchange', () => {
    it('quotes every priced coin against USDT both ways at the index price less the spread, locked for 10 s', async () => {
      const user = await plainUser(h);
      const sell = await pair(user, 'BTC', 'USDT');
      const buy = await pair(user, 'USDT', 'BTC');
      const keep = Dec.ONE.sub(SPREAD);
      expect(sell).toMatchObject({
        min: '0.0001',
        max: '2',
        rate: price('BTC').mul(keep).floorTo(12).toString(),
        // The fee the rate takes, for the confirm step to show.
        feeRate: SPREAD.toString(),
      });
      expect(buy).toMatchObject({
        min: '10',
        max: '100000',
        rate: keep.div(price('BTC')).floorTo(12).toString(),
        feeRate: SPREAD.toString(),
      });
      expect(sell.expiresAt).toBe(h.clock.now() + 10_000);
      expect(sell.quoteId).not.toBe(buy.quoteId);
    });

    it('exchanges at the quoted rate through the treasury and records consumed, received and rate', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const quote = await pair(user, 'USDT', 'BTC');
      const treasuryBefore = await balanceOf(h, systemAccount('treasury'), 'USDT');
      h.clock.advance(9_000);
      await h.app.market.simulator.tick();
      const answer = await expectOk(
        post(h, '/flash/addFlash', { quoteId: quote.quoteId, number: '250' }, user.token),
      );
      const received = Dec.parse('250').mul(Dec.parse(quote.rate)).floorTo(8).toString();
      expect(answer).toMatchObject({
        msg: 'Exchange completed',
        data: { from: 'USDT', to: 'BTC', consumed: '250', received, rate: quote.rate },
      });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '750', locked: '0' });
      expect(await balanceOf(h, spot(user), 'BTC')).toEqual({ available: received, locked: '0' });
      const treasury = await balanceOf(h, systemAccount('treasury'), 'USDT');
      expect(Dec.parse(treasury.available).sub(Dec.parse(treasuryBefore.available)).toString()).toBe('250');
      const records = await expectOk(get(h, '/flash/flashOrder', user.token));
      expect(records.data).toMatchObject([
        { consumed: '250', received, rate: quote.rate, time: h.clock.now() },
      ]);
      const history = await expectOk(get(h, '/account/financeByTypeCoin?coin=BTC', user.token));
      expect((history.data as { items: { typeName: string }[] }).items[0]?.typeName).toBe('Flash exchange');
    });

    it("refuses an expired quote, a used one, another user's, and changes nothing", async () => {
      const user = await plainUser(h);
      const other = await plainUser(h);
      await fund(h, user.id, { BTC: '1' });
      const expired = await pair(user, 'BTC', 'USDT');
      h.clock.advance(10_001);
      expect(
        (await post(h, '/flash/addFlash', { quoteId: expired.quoteId, number: '0.1' }, user.token)).msg,
      ).toBe('The rate has expired; please get a new quote');
      const fresh = await pair(user, 'BTC', 'USDT');
      expect(
        (await post(h, '/flash/addFlash', { quoteId: fresh.quoteId, number: '0.1' }, other.token)).msg,
      ).toBe('This quote does not exist');
      await expectOk(post(h, '/flash/addFlash', { quoteId: fresh.quoteId, number: '0.1' }, user.token));
      expect(
        (await post(h, '/flash/addFlash', { quoteId: fresh.quoteId, number: '0.1' }, user.token)).msg,
      ).toBe('The rate has expired; please get a new quote');
      expect(await balanceOf(h, spot(user), 'BTC')).toEqual({ available: '0.9', locked: '0' });
      expect((await expectOk(get(h, '/flash/flashOrder', user.token))).data).toHaveLength(1);
    });

    it('uses a quote once when exchanges race for it', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { BTC: '1' });
      const quote = await pair(user, 'BTC', 'USDT');
      // All sent at once: each can pass the edge's check, then the quote's single use (SQL) or the state (core) decides.
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          post(h, '/flash/addFlash', { quoteId: quote.quoteId, number: '0.1' }, user.token),
        ),
      );
      expect(answers.filter((answer) => answer.code === 200)).toHaveLength(1);
      for (const refused of answers.filter((answer) => answer.code !== 200))
        expect(refused).toMatchObject({ code: 400, msg: 'The rate has expired; please get a new quote' });
      expect(await balanceOf(h, spot(user), 'BTC')).toEqual({ available: '0.9', locked: '0' });
      expect((await expectOk(get(h, '/flash/flashOrder', user.token))).data).toHaveLength(1);
    });

    it('keeps numbering the exchanges, and a used quote used, across a restart', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { BTC: '1' });
      const used = await pair(user, 'BTC', 'USDT');
      const unused = await pair(user, 'BTC', 'USDT');
      const first = await expectOk(
        post(h, '/flash/addFlash', { quoteId: used.quoteId, number: '0.1' }, user.token),
      );
      // On the core, the state comes back from its journal.
      await restartApp(h);
      expect(
        (await post(h, '/flash/addFlash', { quoteId: used.quoteId, number: '0.1' }, user.token)).msg,
      ).toBe('The rate has expired; please get a new quote');
      const next = await expectOk(
        post(h, '/flash/addFlash', { quoteId: unused.quoteId, number: '0.2' }, user.token),
      );
      expect((next.data as ExchangeRecord).id).toBe((first.data as ExchangeRecord).id + 1);
      expect(await balanceOf(h, spot(user), 'BTC')).toEqual({ available: '0.7', locked: '0' });
      expect((await expectOk(get(h, '/flash/flashOrder', user.token))).data).toHaveLength(2);
    });

    it('refuses below the minimum, above the maximum, beyond the balance, without an amount, when frozen', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { USDT: '200000' });
      const quote = await pair(user, 'USDT', 'ETH');
      const refusal = async (number: string) =>
        (await post(h, '/flash/addFlash', { quoteId: quote.quoteId, number }, user.token)).msg;
      expect(await refusal('9.99')).toBe('The minimum is 10');
      expect(await refusal('100001')).toBe('The maximum is 100000');
      expect(await refusal('200001')).toBe('Insufficient balance');
      expect(await refusal('')).toBe('Please enter an amount');
      await h.app.identity.service.freeze({
        userId: user.id,
        reason: 'Review',
        setBy: 'ops',
        endsAt: h.clock.now() + HOUR_MS,
      });
      expect(await refusal('20')).toContain('Review');
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '200000', locked: '0' });
      expect(await balanceOf(h, spot(user), 'ETH')).toEqual({ available: '0', locked: '0' });
      expect((await expectOk(get(h, '/flash/flashOrder', user.token))).data).toEqual([]);
    });
  });
});
