import { Dec } from '@halyard/money';
import type { IndexPriceSource } from '../../market/index.ts';
import { ladder, quotedSpread } from '../spot/market-maker.ts';
import { CROSS_MINIMUMS, CrossSchedule, reconcileQuotes, TickQuoter } from '../spot/quoting.ts';
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
 * whole lots (at least the contract's minimum). Like the spot house, every
 * few requotes its crossing role sends a market order of a few minimum lots
 * across the spread in the index's direction ({@link CrossSchedule}), so trades
 * print and the bars carry volume (demo mode only). The house trades through
 * the same engine, checks and book as anyone, holds no margin and keeps one
 * net position per contract backed by its account; a crossing that meets its
 * own quotes moves neither, so crossing never grows that position.
 */
export class FuturesMarketMaker extends TickQuoter<ContractMarket> {
  private readonly crossings = new CrossSchedule();

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
    await this.crossWhenDue(market, index);
  }

  /** When a crossing is due, a market order of the contract's minimum lots times CROSS_MINIMUMS. */
  private async crossWhenDue(market: ContractMarket, index: Dec): Promise<void> {
    const { contract } = market;
    const side = this.crossings.due(contract.autoid, index, quotedSpread(index));
    if (side === null) return;
    await this.options.futures
      .crossForHouse({
        tradcoin: contract.tradcoin,
        maincoin: contract.maincoin,
        side,
        style: 'market',
        number: Dec.parse(contract.minnumber).mul(CROSS_MINIMUMS).toString(),
        lever: contract.max_lever,
        tdMode: 'cross',
      })
      .catch(this.onError);
  }
}
