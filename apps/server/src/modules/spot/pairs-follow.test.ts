import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../core/journal-jetstream/test-support.ts';
import { SpotService } from './service.ts';
import { type Harness, startHarness } from './test-support.ts';

/**
 * Cluster mode's spot pairs (docs/cluster.md, "What the gateways share"): a
 * pair listed or changed through one gateway opens or changes on every
 * gateway, from the money state (its replica applies the `openPair`), not
 * from the route. Here a second spot service follows the same core as the
 * app's, as a second gateway follows the same journal; nothing tells it of
 * the change but the state.
 */
describe('the spot pairs of a second gateway', () => {
  let h: Harness;
  let other: SpotService;
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
  });

  afterAll(async () => {
    other?.close();
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
    await h.app.spot.service.changePairSettings(id, { ...SETTINGS, enabled: false, makerFee: '0.003' });
    await eventually(() => other.market(COINS).pair.state === 0);
    expect(other.pairSettings().find((pair) => pair.id === id)).toMatchObject({
      enabled: false,
      makerFee: '0.003',
    });
    expect(errors).toEqual([]);
  });
});
