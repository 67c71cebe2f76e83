import { Dec } from '@halyard/money';
import type { IndexPriceSource } from '../../market/index.ts';
import { ladder } from '../spot/market-maker.ts';
import type { ContractMarket } from './engine.ts';
import { HOUSE_OWNER } from './engine.ts';
import type { FuturesService } from './service.ts';

/** Cancels plus placements per contract per requote, at most (TIGER_STYLE: bounded work per tick). */
const CHANGES_MAX = 48;
/** The spot ladder's amounts are coins; this many decimals before they are cut into whole lots. */
const COIN_DIGITS = 8;

export interface FuturesMarketMakerOptions {
  futures: FuturesService;
  index: IndexPriceSource;
  onError: (error: unknown) => void;
}

/**
 * The house's quotes on every contract (DESIGN §6), on the spot market
 * maker's price grid ({@link ladder}) around the index, each level cut into
 * whole lots (at least the contract's minimum). The house trades through the
 * same engine, checks and book as anyone, holds no margin and keeps one net
 * position per contract backed by its account.
 */
export class FuturesMarketMaker {
  private readonly running = new Map<number, Promise<void>>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: FuturesMarketMakerOptions) {}

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.options.index.subscribe(() => {
      this.requoteAll().catch(this.options.onError);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await Promise.all(this.running.values());
  }

  /** One requote of every contract; one still busy with the previous requote is skipped. */
  async requoteAll(): Promise<void> {
    await Promise.all(
      [...this.options.futures.engine.markets.values()].map((market) => {
        const id = market.contract.autoid;
        const busy = this.running.get(id);
        if (busy) return busy;
        const run = this.requote(market)
          .catch(this.options.onError)
          .finally(() => this.running.delete(id));
        this.running.set(id, run);
        return run;
      }),
    );
  }

  private async requote(market: ContractMarket): Promise<void> {
    const { contract } = market;
    if (contract.maincoin !== this.options.index.quote || contract.state !== 1) return;
    const index = this.options.index.current(contract.tradcoin)?.price;
    if (!index?.isPositive()) return;
    const minLots = Dec.parse(contract.minnumber);
    const wanted = ladder(index, contract.price_accuracy, COIN_DIGITS, Dec.ZERO).map((quote) => ({
      side: quote.side,
      price: quote.price,
      lots: Dec.max(Dec.fromUnits(quote.amount.div(market.unit).floorToInteger() * Dec.ONE.units), minLots),
    }));
    const wantedKeys = new Set(wanted.map((quote) => `${quote.side}:${quote.price}`));
    const resting = [...this.options.futures.engine.open.values()].filter(
      (row) => row.owner === HOUSE_OWNER && row.contract_id === contract.autoid,
    );
    const restingKeys = new Set(resting.map((row) => `${row.type}:${Dec.parse(row.price ?? '0')}`));
    let changesLeft = CHANGES_MAX;
    // Stale levels first, so new quotes never meet the house's own old ones.
    for (const row of resting) {
      if (changesLeft <= 0) return;
      if (wantedKeys.has(`${row.type}:${Dec.parse(row.price ?? '0')}`)) continue;
      changesLeft -= 1;
      await this.options.futures.cancelForHouse(row.autoid).catch(this.options.onError);
    }
    const missing = wanted
      .filter((quote) => !restingKeys.has(`${quote.side}:${quote.price}`))
      .slice(0, changesLeft);
    await Promise.all(
      missing.map((quote) =>
        this.options.futures
          .placeForHouse({
            tradcoin: contract.tradcoin,
            maincoin: contract.maincoin,
            side: quote.side,
            style: 'limit',
            price: quote.price.toString(),
            number: quote.lots.toString(),
            lever: contract.max_lever,
            tdMode: 'cross',
          })
          .catch(this.options.onError),
      ),
    );
  }
}
