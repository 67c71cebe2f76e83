import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../core/journal-jetstream/test-support.ts';
import { FuturesService } from '../futures/index.ts';
import { SpotService } from './service.ts';
import { type PairRow, selectPairs } from './store.ts';
import { fundedUser, type Harness, limit, placed, startHarness } from './test-support.ts';

/**
 * Cluster mode's spot pairs and futures contracts (docs/cluster.md, "What the gateways share"): a
 * pair listed or changed through one gateway opens or changes on every
 * gateway, from the money state (its replica applies the `openPair`), not
 * from the route. Here a second spot service follows the same core as the
 * app's, as a second gateway follows the same journal; nothing tells it of
 * the change but the state.
 */
describe('the spot pairs and futures contracts of a second gateway', () => {
  let h: Harness;
  let other: SpotService;
  let otherFutures: FuturesService;
  const errors: unknown[] = [];
  const SETTINGS = {
    priceAccuracy: 4,
    amountAccuracy: 2,
    minNumber: '1',
    maxNumber: '100000',
    makerFee: '0.001',
    takerFee: '0.002',
    enabled: true,
    sort: 7,
  };
  const COINS = { tradcoin: 'ZZT', maincoin: 'USDT' };

  beforeAll(async () => {
    h = await startHarness({ moneyCore: true });
    const { app } = h;
    other = new SpotService({
      db: h.store.db,
      ledger: app.ledger,
      clock: h.clock,
      identity: app.identity.service,
      referral: app.referral.service.fees,
      market: app.market,
      publisher: { publish: () => {} },
      core: app.moneyCore!,
      onError: (error) => errors.push(error),
    });
    await other.load();
    otherFutures = new FuturesService({
      db: h.store.db,
      ledger: app.ledger,
      clock: h.clock,
      identity: app.identity.service,
      market: app.market,
      publisher: { publish: () => {} },
      fundingIntervalMs: 8 * 3_600_000,
      referral: app.referral.service.fees,
      core: app.moneyCore!,
      onError: (error) => errors.push(error),
    });
    await otherFutures.load();
  });

  afterAll(async () => {
    other?.close();
    otherFutures?.close();
    await h?.close();
  });

  it('opens a pair listed through the first gateway', async () => {
    expect(() => other.market(COINS)).toThrow();
    const spot = h.app.spot.service;
    await h.store.db.transaction().execute((trx) => spot.insertListing(trx, COINS, SETTINGS));
    // As the approval does after its commit: the listing gateway opens the pair (openPair).
    await spot.load();
    await eventually(() => other.symbols().some((row) => row.tradcoin === 'ZZT'));
    expect(other.market(COINS).pair).toMatchObject({ price_accuracy: 4, maker_fee: expect.anything() });
    expect(other.symbols().find((row) => row.tradcoin === 'ZZT')).toMatchObject({
      state: 1,
      price_accuracy: 4,
    });
    expect(errors).toEqual([]);
  });

  it('takes the settings changed through the first gateway, the enabled flag too', async () => {
    const { id } = h.app.spot.service.pairSettings().find((pair) => pair.tradcoin === 'ZZT')!;
    // What any gateway reads the moment its replica applies the change: the row must be written already.
    const core = h.app.moneyCore!;
    const before = core.state.pairs.get('ZZT/USDT');
    let readAtOnce: Promise<PairRow[]> | null = null;
    const stop = core.sequencer.subscribe(() => {
      if (readAtOnce === null && core.state.pairs.get('ZZT/USDT') !== before)
        readAtOnce = selectPairs(h.store.db);
    });
    await h.app.spot.service.changePairSettings(id, { ...SETTINGS, enabled: false, makerFee: '0.003' });
    stop();
    const rows = await readAtOnce!;
    expect(rows.find((row) => row.autoid === id)).toMatchObject({ state: 0 });
    await eventually(() => other.market(COINS).pair.state === 0);
    expect(other.pairSettings().find((pair) => pair.id === id)).toMatchObject({
      enabled: false,
      makerFee: '0.003',
    });
    expect(errors).toEqual([]);
  });

  it("does not read the store again when a trade only moves a pair's last price", async () => {
    const seller = await fundedUser(h, { BTC: '1' });
    const buyer = await fundedUser(h, { USDT: '100000' });
    const loads = vi.spyOn(other, 'load');
    try {
      const lastBefore = h.app.moneyCore!.state.pairs.get('BTC/USDT')!;
      await placed(limit('sell', seller, '50000', '0.01', h));
      const bought = await placed(limit('buy', buyer, '50000', '0.01', h));
      expect(bought.state).toBe('filled');
      // The trade replaced the pair's state (its last price) but not its settings.
      expect(h.app.moneyCore!.state.pairs.get('BTC/USDT')).not.toBe(lastBefore);
      expect(loads).not.toHaveBeenCalled();
    } finally {
      loads.mockRestore();
    }
  });

  it('finds a futures contract listed through the first gateway', async () => {
    const futures = h.app.futures.service;
    const listing = { ...COINS, name: 'ZZT perpetual', unit: '1' };
    const settings = {
      priceAccuracy: 4,
      minNumber: '1',
      maxNumber: '1000',
      maxLever: 20,
      fee: '0.0005',
      maintenanceMarginRate: '0.01',
      enabled: true,
      sort: 3,
    };
    expect(() => otherFutures.contract(COINS)).toThrow();
    const id = await h.store.db.transaction().execute((trx) => futures.insertListing(trx, listing, settings));
    await futures.openListed(id);
    // The state holds it (every replica applied the listing): no notice, no reload.
    expect(otherFutures.contract(COINS).contract.autoid).toBe(id);
    expect(() => otherFutures.checkListing(listing, settings)).toThrow();
  });
});
