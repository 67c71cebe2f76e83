import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userAccount } from '../../ledger/index.ts';
import { HOUR_MS, MONEY_PATHS } from '../identity/test-support.ts';
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
} from './test-support.ts';

/** Every test runs twice: on the SQL path the server runs today, and on the sequenced core (issue 19's cut-over). */
describe.each(MONEY_PATHS)('assets on $on', ({ moneyCore }) => {
  let h: Harness;
  beforeEach(async () => {
    h = await startWalletHarness(null, {}, { moneyCore });
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
    await h.close();
  });

  const futures = (user: TestUser) => userAccount(user.id, 'futures');
  const fiat = (user: TestUser) => userAccount(user.id, 'fiat');

  function contractTransfer(user: TestUser, number: string, from: string, to: string, coin = 'USDT') {
    return post(h, '/account/contractTransfer', { coin, number, from, to }, user.token);
  }

  describe('transfers between wallets', () => {
    it('spot → futures and back, spot ⇄ fiat, each through the ledger', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { USDT: '500' });
      const answer = await expectOk(contractTransfer(user, '120.5', 'spot', 'futures'));
      expect(answer).toMatchObject({
        msg: 'Transfer completed',
        data: { amount: '120.5', from: 'spot', to: 'futures' },
      });
      expect(await balanceOf(h, futures(user), 'USDT')).toEqual({ available: '120.5', locked: '0' });
      await expectOk(contractTransfer(user, '20.5', 'futures', 'spot'));
      await expectOk(
        post(h, '/account/c2cTransfer', { coin: 'USDT', number: '50', from: 'spot', to: 'fiat' }, user.token),
      );
      await expectOk(
        post(h, '/account/c2cTransfer', { coin: 'USDT', number: '10', from: 'fiat', to: 'spot' }, user.token),
      );
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '360', locked: '0' });
      expect(await balanceOf(h, futures(user), 'USDT')).toEqual({ available: '100', locked: '0' });
      expect(await balanceOf(h, fiat(user), 'USDT')).toEqual({ available: '40', locked: '0' });
      const contractBalance = await expectOk(get(h, '/account/contractBalance?coin=USDT', user.token));
      expect(contractBalance.data).toEqual({ coin: 'USDT', usable: '100', disable: '0' });
      expect((await expectOk(get(h, '/account/c2cBalance?coin=USDT', user.token))).data).toMatchObject({
        usable: '40',
      });
      expect((await expectOk(get(h, '/account/tradBalance?coin=USDT', user.token))).data).toMatchObject({
        usable: '360',
      });
    });

    it('refuse more than the balance, no amount, a bad amount, the same wallet, a wallet off the route, a frozen user', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { USDT: '100' });
      expect((await contractTransfer(user, '100.01', 'spot', 'futures')).msg).toBe('Insufficient balance');
      expect((await contractTransfer(user, '', 'spot', 'futures')).msg).toBe('Please enter an amount');
      expect((await contractTransfer(user, '-1', 'spot', 'futures')).code).toBe(400);
      expect((await contractTransfer(user, '1', 'spot', 'spot')).msg).toBe(
        'Please choose two different accounts',
      );
      expect((await contractTransfer(user, '1', 'spot', 'fiat')).code).toBe(400);
      expect((await contractTransfer(user, '1', 'spot', 'futures', 'NOPE')).msg).toBe(
        'NOPE is not available on this chain',
      );
      await h.app.identity.service.freeze({
        userId: user.id,
        reason: 'Review',
        setBy: 'ops',
        endsAt: h.clock.now() + HOUR_MS,
      });
      expect((await contractTransfer(user, '1', 'spot', 'futures')).code).toBe(403);
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '100', locked: '0' });
      expect(await balanceOf(h, futures(user), 'USDT')).toEqual({ available: '0', locked: '0' });
    });

    it('moves racing for one balance: those it covers pass, the rest are refused and change nothing', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { USDT: '100' });
      // All sent at once: each can pass the edge's check, then the ledger (SQL) or the state (core) decides.
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => contractTransfer(user, '30', 'spot', 'futures')),
      );
      expect(answers.filter((answer) => answer.code === 200)).toHaveLength(3);
      for (const refused of answers.filter((answer) => answer.code !== 200))
        expect(refused).toMatchObject({ code: 400, msg: 'Insufficient balance' });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '10', locked: '0' });
      expect(await balanceOf(h, futures(user), 'USDT')).toEqual({ available: '90', locked: '0' });
    });
  });

  describe('assets and totals', () => {
    it('list every coin per wallet with usable, held and USDT value at the index price, floored', async () => {
      await h.app.market.simulator.tick();
      const btcPrice = h.app.market.index.current('BTC')?.price;
      if (!btcPrice) throw new Error('no BTC price');
      const user = await plainUser(h);
      await fund(h, user.id, { USDT: '1000', BTC: '0.5' });
      await expectOk(contractTransfer(user, '300', 'spot', 'futures'));
      await expectOk(
        post(h, '/account/c2cTransfer', { coin: 'BTC', number: '0.1', from: 'spot', to: 'fiat' }, user.token),
      );

      const mine = (await expectOk(get(h, '/account/myAccount', user.token))).data as Record<
        string,
        string
      >[];
      const btcValue = Dec.parse('0.4').mul(btcPrice).floorTo(8).toString();
      expect(mine.find((row) => row.coin === 'BTC')).toEqual({
        coin: 'BTC',
        blockname: 'BNB',
        usable: '0.4',
        disable: '0',
        usdt: btcValue,
      });
      expect(mine.find((row) => row.coin === 'USDT')).toMatchObject({ usable: '700', usdt: '700' });
      expect(mine.find((row) => row.coin === 'ETH')).toMatchObject({ usable: '0', usdt: '0' });

      const contract = (await expectOk(get(h, '/account/contractAssets', user.token))).data as Record<
        string,
        string
      >[];
      expect(contract.find((row) => row.coin === 'USDT')).toEqual({
        coin: 'USDT',
        usable: '300',
        orders: '0',
        profit: '0',
        entrust: '0',
      });
      const c2c = (await expectOk(get(h, '/account/c2cAccount', user.token))).data as Record<
        string,
        string
      >[];
      expect(c2c.find((row) => row.coin === 'BTC')).toMatchObject({ usable: '0.1' });

      const fiatBtc = Dec.parse('0.1').mul(btcPrice).floorTo(8);
      const totals = await expectOk(get(h, '/account/myAccountCount', user.token));
      expect(totals.data).toEqual({
        usdt: Dec.parse('1000').add(Dec.parse(btcValue)).add(fiatBtc).toString(),
        assets: { BTC: '0.4', USDT: '700' },
        assets_amount: Dec.parse('700').add(Dec.parse(btcValue)).toString(),
        contract_assets: { USDT: '300' },
        contract_assets_amount: '300',
        c2c_assets: { BTC: '0.1' },
        c2c_assets_amount: fiatBtc.toString(),
      });
    });

    it('answer a balance per coin, and refuse an unknown coin', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { HAL: '12.5' });
      expect((await expectOk(get(h, '/account/balance?coin=HAL', user.token))).data).toEqual({
        coin: 'HAL',
        usable: '12.5',
        disable: '0',
      });
      expect((await get(h, '/account/balance?coin=ZZZ', user.token)).code).toBe(400);
      expect((await get(h, '/account/balance?coin=HAL')).code).toBe(401);
    });
  });

  describe('the balance record', () => {
    it("lists one wallet's movements of a coin, newest first, signed, with a localised type, paged", async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { USDT: '100' });
      await expectOk(contractTransfer(user, '30', 'spot', 'futures'));
      await expectOk(contractTransfer(user, '10', 'futures', 'spot'));
      const first = await expectOk(
        get(h, '/account/financeByTypeCoin?coin=USDT&limit=2', user.token, { lang: 'cn' }),
      );
      const page = first.data as {
        items: { type: string; typeName: string; amount: string }[];
        next: number | null;
      };
      expect(page.items.map(({ type, typeName, amount }) => ({ type, typeName, amount }))).toEqual([
        { type: 'transfer', typeName: '划转', amount: '10' },
        { type: 'transfer', typeName: '划转', amount: '-30' },
      ]);
      const rest = await expectOk(
        get(h, `/account/financeByTypeCoin?coin=USDT&limit=2&before=${page.next}`, user.token),
      );
      expect((rest.data as { items: { typeName: string; amount: string }[] }).items).toMatchObject([
        { typeName: 'Other', amount: '100' },
      ]);
      const inFutures = await expectOk(
        get(h, '/account/financeByTypeCoin?coin=USDT&wallet=futures', user.token),
      );
      expect((inFutures.data as { items: { amount: string }[] }).items.map((item) => item.amount)).toEqual([
        '-10',
        '30',
      ]);
    });
  });

  describe('rates, coins and contracts', () => {
    it('give local-currency demo rates and coin index prices', async () => {
      expect((await expectOk(get(h, '/account/getExchangeRateByCoin?coin=CNY'))).data).toEqual({
        symbol: '¥',
        price: '7.2',
        coin: 'CNY',
      });
      expect((await get(h, '/account/getExchangeRateByCoin?coin=BTC')).msg).toBe(
        'No price for BTC yet; please try again shortly',
      );
      // The route takes upper-case symbols only; the service itself reads no prototype member as a currency.
      expect(() => h.app.wallet.assets.rate('constructor')).toThrow('wallet.noPrice');
      await h.app.market.simulator.tick();
      const btc = await expectOk(get(h, '/account/getExchangeRateByCoin?coin=BTC'));
      expect(btc.data).toEqual({
        symbol: 'USDT',
        price: h.app.market.index.current('BTC')?.price.toString(),
        coin: 'BTC',
      });
    });

    it('list the wallet coins with isin/isout and their chains, and the token contracts', async () => {
      const coins = (await expectOk(get(h, '/account/coins'))).data as {
        coin: string;
        isin: boolean;
        isout: boolean;
        chains: { chain: number; decimals: number }[];
      }[];
      expect(coins.map((entry) => entry.coin)).toEqual(['USDT', 'BTC', 'ETH', 'BNB', 'SOL', 'HAL']);
      expect(coins[0]).toMatchObject({
        isin: true,
        isout: true,
        chains: [
          { chain: 1, decimals: 6 },
          { chain: 56, decimals: 18 },
        ],
      });
      const info = (await expectOk(get(h, '/account/getContractInfo'))).data as {
        tokens: { contract: string }[];
      };
      expect(info.tokens).toHaveLength(12);
      expect(new Set(info.tokens.map((token) => token.contract)).size).toBe(6);
    });
  });
});
