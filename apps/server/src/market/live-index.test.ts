import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../modules/identity/test-support.ts';
import { createMarketModule, type IndexTick, type MarketModule } from './index.ts';
import { tickCharted } from './test-support.ts';

/**
 * Cluster mode's index (docs/cluster.md): one process runs the index source
 * and sends each tick to the core; another, following the same core's
 * events, must see the same index: the same ticks in the same order, and
 * the same current prices, which its convert quotes, valuations and pushes
 * read. Here both read one core's events, as two gateways read one journal.
 */
describe('the index of a gateway that follows the core', () => {
  let h: Harness;
  let follower: MarketModule;
  const errors: unknown[] = [];

  beforeAll(async () => {
    h = await startHarness({ moneyCore: true });
    follower = await createMarketModule({
      config: h.config,
      store: h.store,
      clock: h.clock,
      publisher: { publish: () => {} },
      core: h.app.moneyCore!,
      onError: (error) => errors.push(error),
    });
  });

  afterAll(async () => {
    await follower?.close();
    await h?.close();
  });

  const line = (tick: IndexTick) => `${tick.coin} ${tick.price.toString()} ${tick.ts} ${tick.source}`;

  it('sees the ticks of the source in order, and the same current prices', async () => {
    follower.followIndex();
    const sourced: string[] = [];
    const followed: string[] = [];
    h.app.market.index.subscribe((tick) => sourced.push(line(tick)));
    follower.index.subscribe((tick) => followed.push(line(tick)));
    for (let step = 0; step < 5; step++) {
      h.clock.advance(1_000);
      await tickCharted(h.app);
    }
    expect(sourced).toHaveLength(5 * h.app.market.index.coins().length);
    expect(followed).toEqual(sourced);
    for (const coin of h.app.market.index.coins())
      expect(line(follower.index.current(coin)!)).toBe(line(h.app.market.index.current(coin)!));
    expect(errors).toEqual([]);
  });

  it('runs the source when it takes the lead, continuing the walk from the last recorded tick', async () => {
    const last = h.app.market.index.current('BTC')!;
    await follower.leadIndex();
    expect(follower.index.following).toBe(false);
    // The walk continues from what SQL holds, not from where this process's simulator was when it started.
    expect(follower.simulator.current('BTC')).toEqual(last);
    follower.simulator.stop();
    h.clock.advance(1_000);
    const [first] = await follower.simulator.tick();
    expect(follower.index.current(first!.coin)).toEqual(first);
  });
});
