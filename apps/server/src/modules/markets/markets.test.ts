import type { ApprovalView, MarketSettingsList, SpotPairSettings } from '@halyard/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  approveAs,
  asOperator,
  type OperatorSession,
  ok,
  operatorSession,
} from '../approvals/test-support.ts';
import { futuresUser, mark, positionsOf } from '../futures/test-support.ts';
import { MONEY_PATHS, restartApp } from '../identity/test-support.ts';
import {
  balanceOf,
  expectHealthyLedger,
  expectOk,
  fund,
  get,
  type Harness,
  post,
  spot,
  startWalletHarness,
  verifiedUser,
} from '../wallet/test-support.ts';

const LST = { tradcoin: 'LST', maincoin: 'USDT' } as const;
const XRP = { tradcoin: 'XRP', maincoin: 'USDT' } as const;
const DOGE = { tradcoin: 'DOGE', maincoin: 'USDT' } as const;

/**
 * The back office's markets on both paths (issue 19's cut-over): edits, and
 * listings through the four-eyes approvals. The tests of one path share an
 * app and run in order (an edit of the first is seen by the next).
 */
describe.each(MONEY_PATHS)('markets on $on', ({ moneyCore }) => {
  let h: Harness;
  let adminA: OperatorSession;
  let adminB: OperatorSession;
  let finance: OperatorSession;
  beforeAll(async () => {
    h = await startWalletHarness(null, {}, { moneyCore });
    adminA = await operatorSession(h.app, 'administrator', h.clock);
    adminB = await operatorSession(h.app, 'administrator', h.clock);
    finance = await operatorSession(h.app, 'finance', h.clock);
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
  });

  async function markets(): Promise<MarketSettingsList> {
    return ok(await asOperator(h, adminA, 'GET', '/admin/markets')).data as MarketSettingsList;
  }

  it('a spot edit is live for the next order and audited with before and after', async () => {
    const { spot: pairs } = await markets();
    const pair = pairs.find((row) => row.tradcoin === 'BTC')!;
    const { id, tradcoin, maincoin, ...settings } = pair;
    const changed: SpotPairSettings = { ...settings, minNumber: '0.5', takerFee: '0.002' };
    const answer = ok(
      await asOperator(h, adminA, 'PUT', `/admin/markets/spot/${id}`, changed, { fresh: true }),
    );
    expect(answer.data).toEqual({ before: settings, after: changed });

    const trader = await verifiedUser(h);
    await fund(h, trader.id, { USDT: '100000' });
    const order = await post(
      h,
      '/trad/buyLimit',
      { tradcoin, maincoin, price: '1000', number: '0.1' },
      trader.token,
    );
    expect(order.msg).toContain('0.5');

    const closed = ok(
      await asOperator(
        h,
        adminA,
        'PUT',
        `/admin/markets/spot/${id}`,
        { ...changed, enabled: false },
        { fresh: true },
      ),
    );
    expect(closed.data).toMatchObject({ after: { enabled: false } });
    const refused = await post(
      h,
      '/trad/buyLimit',
      { tradcoin, maincoin, price: '1000', number: '1' },
      trader.token,
    );
    expect(refused.code).not.toBe(200);
    ok(await asOperator(h, adminA, 'PUT', `/admin/markets/spot/${id}`, settings, { fresh: true }));

    const audit = ok(
      await asOperator(h, adminA, 'GET', `/admin/audit?action=markets.edit&subject=spot:${id}`),
    );
    const entries = (audit.data as { items: Array<{ details: string }> }).items;
    expect(entries.some((entry) => JSON.parse(entry.details).after?.minNumber === '0.5')).toBe(true);
  });

  it('refuses bad settings with the field, a precision change under resting orders, and a role without markets.edit', async () => {
    const { spot: pairs, futures, cycle } = await markets();
    const { id, tradcoin: _t, maincoin: _m, ...settings } = pairs[0]!;
    const bad = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/spot/${id}`,
      { ...settings, maxNumber: '0.000001' },
      { fresh: true, lang: 'ru' },
    );
    expect(bad.msg).toBe('Максимум должен быть больше минимума');
    const fee = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/spot/${id}`,
      { ...settings, makerFee: '0.5' },
      { fresh: true },
    );
    expect(fee.msg).toBe('A fee must be from 0 to 0.1');
    const { id: contractId, name: _n, unit: _u, tradcoin: _ft, maincoin: _fm, ...contract } = futures[0]!;
    const margin = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/futures/${contractId}`,
      { ...contract, maxLever: 200 },
      { fresh: true },
    );
    expect(margin.code).toBe(400);
    const mmr = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/futures/${contractId}`,
      { ...contract, maintenanceMarginRate: '0.5' },
      { fresh: true },
    );
    expect(mmr.msg).toBe('The maintenance margin rate must be above 0 and below 1 / maximum leverage');
    const { id: cycleId, tradcoin: _ct, maincoin: _cm, ...cyclePair } = cycle[0]!;
    const duplicate = await asOperator(
      h,
      adminA,
      'PUT',
      `/admin/markets/cycle/${cycleId}`,
      { ...cyclePair, options: [cyclePair.options[0], cyclePair.options[0]] },
      { fresh: true },
    );
    expect(duplicate.msg).toBe('Invalid value: seconds');
    expect(
      (await asOperator(h, finance, 'PUT', `/admin/markets/spot/${id}`, settings, { fresh: true })).code,
    ).toBe(403);
    expect(await markets()).toEqual({ spot: pairs, futures, cycle });

    const trader = await verifiedUser(h);
    await fund(h, trader.id, { USDT: '1000' });
    const { tradcoin, maincoin } = pairs[0]!;
    const order = { tradcoin, maincoin, price: '0.1', number: settings.minNumber };
    await expectOk(post(h, '/trad/buyLimit', order, trader.token));
    const finer = { ...settings, priceAccuracy: settings.priceAccuracy + 1 };
    const resting = await asOperator(h, adminA, 'PUT', `/admin/markets/spot/${id}`, finer, { fresh: true });
    expect(resting.msg).toBe('The price precision cannot change while orders rest in the book');
  });

  it('a futures edit and a cycle edit take effect', async () => {
    const { futures, cycle } = await markets();
    const { id, name: _n, unit: _u, tradcoin: _t, maincoin: _m, ...contract } = futures[0]!;
    const lowered = { ...contract, maxLever: 10, maintenanceMarginRate: '0.05' };
    ok(await asOperator(h, adminA, 'PUT', `/admin/markets/futures/${id}`, lowered, { fresh: true }));
    expect(h.app.futures.service.engine.market(id).levers).toEqual([1, 2, 3, 5, 10]);

    const { id: cycleId, tradcoin, maincoin, ...pair } = cycle[0]!;
    const shorter = { ...pair, options: pair.options.slice(1) };
    ok(await asOperator(h, adminA, 'PUT', `/admin/markets/cycle/${cycleId}`, shorter, { fresh: true }));
    const now = await markets();
    expect(now.cycle[0]).toEqual({ id: cycleId, tradcoin, maincoin, ...shorter });
    expect(now.futures[0]).toMatchObject({ maxLever: 10, maintenanceMarginRate: '0.05' });
  });

  it('a new listing needs a second administrator and opens once approved', async () => {
    const listing = {
      kind: 'spot',
      tradcoin: 'NEWC',
      maincoin: 'USDT',
      priceAccuracy: 4,
      amountAccuracy: 2,
      minNumber: '1',
      maxNumber: '100000',
      makerFee: '0.001',
      takerFee: '0.001',
      enabled: true,
      sort: 99,
      reason: 'board decision 12',
    };
    const requested = ok(
      await asOperator(h, adminA, 'POST', '/admin/markets/listings', listing, { fresh: true }),
    );
    const approval = requested.data as ApprovalView;
    expect(approval).toMatchObject({ kind: 'market_listing', subject: 'spot:NEWC/USDT', status: 'pending' });
    expect((await approveAs(h, adminA, approval.id)).msg).toBe(
      'You made this request: a second operator must approve it',
    );
    expect((await markets()).spot.some((pair) => pair.tradcoin === 'NEWC')).toBe(false);

    ok(await approveAs(h, adminB, approval.id));
    expect((await markets()).spot.find((pair) => pair.tradcoin === 'NEWC')).toMatchObject({
      minNumber: '1',
      enabled: true,
    });
    const spotPairs = (await expectOk(get(h, '/trad/symbols'))).data as Array<{ tradcoin: string }>;
    expect(spotPairs.some((row) => row.tradcoin === 'NEWC')).toBe(true);
    const again = await asOperator(h, adminA, 'POST', '/admin/markets/listings', listing, { fresh: true });
    expect(again.msg).toBe('This market is already listed');
    const incomplete = await asOperator(
      h,
      adminA,
      'POST',
      '/admin/markets/listings',
      { kind: 'futures', tradcoin: 'NEWC', maincoin: 'USDT', reason: 'x' },
      { fresh: true },
    );
    expect(incomplete.msg).toBe('Invalid value: name');
  });

  it('lists a futures contract and a cycle pair once a second administrator approves', async () => {
    const futures = {
      kind: 'futures',
      tradcoin: 'BTC',
      maincoin: 'USDC',
      name: 'BTC-USDC perpetual',
      unit: '0.001',
      priceAccuracy: 2,
      minNumber: '1',
      maxNumber: '5000',
      maxLever: 20,
      fee: '0.0005',
      maintenanceMarginRate: '0.01',
      enabled: true,
      sort: 9,
      reason: 'USDC margin',
    };
    const cycle = {
      kind: 'cycle',
      tradcoin: 'BNB',
      maincoin: 'USDT',
      priceAccuracy: 2,
      payCoins: ['USDT'],
      options: [
        { seconds: 60, minNumber: '10', maxNumber: '1000', profitRate: '0.85', lossRate: '1', fee: '0.02' },
      ],
      sort: 9,
      reason: 'more cycle pairs',
    };
    for (const listing of [futures, cycle]) {
      const { id } = ok(
        await asOperator(h, adminA, 'POST', '/admin/markets/listings', listing, { fresh: true }),
      ).data as ApprovalView;
      expect(ok(await approveAs(h, adminB, id)).data).toMatchObject({ status: 'executed' });
    }
    const now = await markets();
    const contract = now.futures.find((row) => row.maincoin === 'USDC');
    expect(contract).toMatchObject({ name: 'BTC-USDC perpetual', unit: '0.001', maxLever: 20 });
    expect(h.app.futures.service.engine.market(contract!.id).levers).toEqual([1, 2, 3, 5, 10, 20]);
    expect(now.cycle.find((row) => row.tradcoin === 'BNB')).toMatchObject({ payCoins: ['USDT'], sort: 9 });
    // The users' lists carry the new markets at once.
    const contracts = (await expectOk(get(h, '/contract/symbols'))).data as Array<{ maincoin: string }>;
    expect(contracts.some((row) => row.maincoin === 'USDC')).toBe(true);
    const cyclePairs = (await expectOk(get(h, '/cycle/symbols'))).data as Array<{ tradcoin: string }>;
    expect(cyclePairs.some((row) => row.tradcoin === 'BNB')).toBe(true);
  });

  /** Requested by one administrator, approved by the other: the listing executed. */
  async function listed(listing: object): Promise<void> {
    const { id } = ok(
      await asOperator(h, adminA, 'POST', '/admin/markets/listings', listing, { fresh: true }),
    ).data as ApprovalView;
    expect(ok(await approveAs(h, adminB, id)).data).toMatchObject({ status: 'executed' });
  }

  it('a listed spot pair, futures contract and cycle pair trade over HTTP, and still do after a restart', async () => {
    await listed({
      kind: 'spot',
      ...LST,
      priceAccuracy: 2,
      amountAccuracy: 2,
      minNumber: '1',
      maxNumber: '1000',
      makerFee: '0.001',
      takerFee: '0.001',
      enabled: true,
      sort: 98,
      reason: 'LST listing',
    });
    await listed({
      kind: 'futures',
      ...XRP,
      name: 'XRP perpetual',
      unit: '10',
      priceAccuracy: 4,
      minNumber: '1',
      maxNumber: '10000',
      maxLever: 20,
      fee: '0.0005',
      maintenanceMarginRate: '0.01',
      enabled: true,
      sort: 8,
      reason: 'XRP perpetual',
    });
    await listed({
      kind: 'cycle',
      ...DOGE,
      priceAccuracy: 5,
      payCoins: ['USDT'],
      options: [
        { seconds: 60, minNumber: '10', maxNumber: '1000', profitRate: '0.85', lossRate: '1', fee: '0.02' },
      ],
      sort: 8,
      reason: 'DOGE cycle',
    });
    const seller = await verifiedUser(h);
    await fund(h, seller.id, { LST: '10' });
    const buyer = await verifiedUser(h);
    await fund(h, buyer.id, { USDT: '1000' });
    const maker = await futuresUser(h);
    const taker = await futuresUser(h);

    /** One lot of LST bought from the seller's resting order, one XRP lot opened against the maker, one DOGE contract. */
    const trade = async () => {
      const bought = await expectOk(
        post(h, '/trad/buyLimit', { ...LST, price: '5', number: '1' }, buyer.token),
      );
      expect(bought.data).toMatchObject({ deal_amount: '1', state: 'filled' });
      await mark(h, '2.3', 'XRP');
      const contract = { ...XRP, number: '1', lever: 10, tdMode: 'cross' };
      await expectOk(post(h, '/contract/sellLimit', { ...contract, price: '2.3' }, maker.token));
      await expectOk(post(h, '/contract/buyMarket', contract, taker.token));
      await h.app.market.simulator.tick();
      const stake = { ...DOGE, paycoin: 'USDT', number: '10', lever: 60 };
      expect((await expectOk(post(h, '/cycle/buyMarket', stake, buyer.token))).data).toMatchObject({
        tradcoin: 'DOGE',
        number: '10',
      });
    };

    await expectOk(post(h, '/trad/sellLimit', { ...LST, price: '5', number: '3' }, seller.token));
    await trade();
    expect(await positionsOf(h, taker)).toMatchObject([{ ...XRP, type: 'buy', number: '1' }]);
    await expectHealthyLedger(h.store.db);

    await restartApp(h);
    const lists = await markets();
    expect(lists.spot.some((pair) => pair.tradcoin === LST.tradcoin)).toBe(true);
    expect(lists.futures.some((contract) => contract.tradcoin === XRP.tradcoin)).toBe(true);
    expect(lists.cycle.some((pair) => pair.tradcoin === DOGE.tradcoin)).toBe(true);
    await trade();
    // The seller's order rested across the restart: 2 of 3 sold, 1 still held.
    expect(await balanceOf(h, spot(seller), 'LST')).toEqual({ available: '7', locked: '1' });
    expect(await balanceOf(h, spot(seller), 'USDT')).toEqual({ available: '9.99', locked: '0' });
    expect(await positionsOf(h, taker)).toMatchObject([{ ...XRP, type: 'buy', number: '2' }]);
    // Both DOGE contracts settle at their expiry from the recorded ticks (the first perhaps at the restart's cut).
    const open = h.app.cycle.service.settlement.openOf(buyer.id, null);
    expect(open.length).toBeGreaterThan(0);
    h.clock.advance(61_000);
    await h.app.market.simulator.tick();
    const settled = await h.app.cycle.settleDue();
    expect(settled.map(({ order }) => order.orderid).sort()).toEqual(
      open.map((order) => order.orderid).sort(),
    );
    expect(h.app.cycle.service.settlement.openOf(buyer.id, null)).toEqual([]);
  });
});
