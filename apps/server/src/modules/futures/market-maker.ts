import { Dec } from '@halyard/money';
import type { IndexPriceSource } from '../../market/index.ts';
import { ladder } from '../spot/market-maker.ts';
import { reconcileQuotes, TickQuoter } from '../spot/quoting.ts';
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
export class FuturesMarketMaker extends TickQuoter<ContractMarket> {
  constructor(private readonly options: FuturesMarketMakerOptions) {
    super(options.index, options.onError);
  }

  protected markets() {
    return [...this.options.futures.engine.markets.values()].map(
      (market) => [market.contract.autoid, market] as const,
    );
  }

  protected async requote(market: ContractMarket): Promise<void> {
    const { contract } = market;
    if (contract.maincoin !== this.options.index.quote || contract.state !== 1) return;
    const index = this.options.index.current(contract.tradcoin)?.price;
    if (!index?.isPositive()) return;
    const minLots = Dec.parse(contract.minnumber);
    await reconcileQuotes({
      wanted: ladder(index, contract.price_accuracy, COIN_DIGITS, Dec.ZERO).map((quote) => ({
        side: quote.side,
        price: quote.price,
        lots: Dec.max(Dec.fromUnits(quote.amount.div(market.unit).floorToInteger() * Dec.ONE.units), minLots),
      })),
      resting: [...this.options.futures.engine.open.values()].filter(
        (row) => row.owner === HOUSE_OWNER && row.contract_id === contract.autoid,
      ),
      changesMax: CHANGES_MAX,
      cancel: (row) => this.options.futures.cancelForHouse(row.autoid),
      place: (quote) =>
        this.options.futures.placeForHouse({
          tradcoin: contract.tradcoin,
          maincoin: contract.maincoin,
          side: quote.side,
          style: 'limit',
          price: quote.price.toString(),
          number: quote.lots.toString(),
          lever: contract.max_lever,
          tdMode: 'cross',
        }),
      onError: this.onError,
    });
  }
}
