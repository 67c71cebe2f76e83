// How the engine's rows become the wire shapes of spec §3 (entrust, position,
// TP/SL order, contract, exposure, pages; the shared ones in @halyard/protocol): reads only.
import { Dec } from '@halyard/money';
import type {
  FuturesEntrust,
  FuturesPage,
  FuturesPosition,
  FuturesSymbolRow,
  FuturesTrigger,
} from '@halyard/protocol';
import { crossLiquidationPrice, isolatedLiquidationUnits } from '../../core/state/futures-liquidation.ts';
import { averagePrice, sizeOf, unrealisedPnl } from '../../core/state/futures-margin.ts';
import type { EntrustRow, PositionRow, TriggerRow } from '../../core/state/futures-rows.ts';
import type { MarketData } from '../../market/index.ts';
import type { ContractMarket } from './engine.ts';
import { marketRef } from './publish.ts';
import type { FuturesWriter } from './writer.ts';

const HUNDRED = Dec.fromInt(100);

/** The wire shapes, named as the module reads them. */
export type EntrustView = FuturesEntrust;
export type PositionView = FuturesPosition;
export type TriggerView = FuturesTrigger;
export type PageView<T> = FuturesPage<T>;

/** Per settlement coin: open positions' margin and unrealised PnL, and open entrusts' remaining hold. */
export interface FuturesExposureView {
  coin: string;
  margin: Dec;
  profit: Dec;
  entrust: Dec;
}

/** Rows as the API shows them, valued at the engine's marks and latest prices. */
export class FuturesViews {
  constructor(
    private readonly engine: FuturesWriter,
    private readonly data: MarketData,
  ) {}

  /** Spec §3 "Futures pair": a contract with its latest price, ticker and best quotes. */
  symbol(market: ContractMarket): FuturesSymbolRow {
    const { contract, depth } = market;
    const ticker = this.data.ticker(marketRef(market));
    return {
      autoid: contract.autoid,
      tradcoin: contract.tradcoin,
      maincoin: contract.maincoin,
      price: (this.engine.latestPrice(contract.autoid) ?? Dec.ZERO).toFixed(contract.price_accuracy),
      rise: ticker?.rise ?? '0.00',
      volume: ticker?.volume ?? '0',
      state: contract.state,
      plate: contract.plate,
      minnumber: Dec.canonical(contract.minnumber),
      price_accuracy: contract.price_accuracy,
      amount_accuracy: 0,
      buyprice: depth.bestBid?.toString() ?? '0',
      sellprice: depth.bestAsk?.toString() ?? '0',
      unit: market.unit.toString(),
      isOptional: false,
      gas: market.gas.toString(),
      maxnumber: Dec.canonical(contract.maxnumber),
      max_lever: contract.max_lever,
      chinaname: contract.chinaname,
      symbol: contract.symbol,
    };
  }

  entrust(row: EntrustRow): EntrustView {
    const market = this.engine.market(row.contract_id);
    const filled = Dec.parse(row.number).sub(Dec.parse(row.unfilled));
    return {
      autoid: row.autoid,
      id: String(row.autoid),
      type: row.type,
      action: row.action,
      tdMode: row.td_mode,
      lever: row.lever,
      tradcoin: market.contract.tradcoin,
      maincoin: market.contract.maincoin,
      wdate: row.wdate,
      entrust_price: row.price === null ? '0' : Dec.canonical(row.price),
      price: (this.engine.latestPrice(row.contract_id) ?? Dec.ZERO).toString(),
      deal_price: filled.isPositive()
        ? Dec.parse(row.deal_money).div(filled).floorTo(market.contract.price_accuracy).toString()
        : '0',
      profitPrice: priceText(row.profit_price),
      lossPrice: priceText(row.loss_price),
      number: Dec.canonical(row.number),
      unfilled: Dec.canonical(row.unfilled),
      style: row.style,
      point: market.contract.price_accuracy,
      state: row.state,
      margin: Dec.canonical(row.margin),
      fee: Dec.canonical(row.fee),
      feeCoin: market.contract.maincoin,
      feeHal: Dec.canonical(row.fee_hal),
    };
  }

  /** `free` is the user's free futures balance: a cross position's liquidation price draws on it. */
  position(row: PositionRow, free: Dec): PositionView {
    const market = this.engine.market(row.contract_id);
    const accuracy = market.contract.price_accuracy;
    const figures = this.engine.positionFigures(row);
    const mark = this.engine.markOf(row.contract_id) ?? Dec.ZERO;
    const open = row.state === 'open';
    const profit = open ? unrealisedPnl(figures, mark) : Dec.ZERO;
    const margin = figures.margin;
    const triggers = [...this.engine.triggers.values()].filter(
      (trigger) => trigger.position_id === row.autoid,
    );
    const realised = Dec.parse(row.realised);
    // A closed position's margin is gone: its income is measured on the margin it was opened with (cost / lever).
    const closedCost = open ? Dec.ZERO : closedEntryCost(row, market);
    const closedSize = Dec.parse(row.closed_number).mul(market.unit);
    const closedMargin = open ? margin : closedCost.div(Dec.fromInt(row.lever));
    return {
      autoid: row.autoid,
      type: row.type,
      tdMode: row.td_mode,
      lever: row.lever,
      tradcoin: market.contract.tradcoin,
      maincoin: market.contract.maincoin,
      wdate: row.wdate,
      price: (open ? averagePrice(figures) : closedSize.isPositive() ? closedCost.div(closedSize) : Dec.ZERO)
        .floorTo(accuracy)
        .toString(),
      open_price: Dec.canonical(row.open_price),
      number: figures.lots.toString(),
      unfilled: figures.lots.toString(),
      position: margin.toString(),
      profit: profit.toString(),
      profit_rate: percentOf(profit, margin),
      realised: realised.toString(),
      gas: market.gas.toString(),
      fess: Dec.canonical(row.fees),
      funding: Dec.canonical(row.funding),
      point: accuracy,
      profitOrder: triggers.length,
      mark_price: mark.toString(),
      liquidation_price: open ? this.liquidationPriceOf(row, free) : '0',
      value: sizeOf(figures).mul(mark).toString(),
      tp_price: priceText(triggers.find((trigger) => trigger.profit_price !== null)?.profit_price),
      sl_price: priceText(triggers.find((trigger) => trigger.loss_price !== null)?.loss_price),
      state: row.state,
      closedate: row.closedate,
      close_price: row.close_price === null ? '' : Dec.canonical(row.close_price),
      last_profit: realised.toString(),
      income: open ? percentOf(profit, margin) : percentOf(realised, closedMargin),
    };
  }

  private liquidationPriceOf(row: PositionRow, free: Dec): string {
    const market = this.engine.market(row.contract_id);
    const figures = this.engine.positionFigures(row);
    const accuracy = market.contract.price_accuracy;
    if (row.td_mode === 'lsolate') {
      const units = isolatedLiquidationUnits(figures, market.mmf);
      return units === null ? '0' : Dec.fromUnits(units).floorTo(accuracy).toString();
    }
    const mark = this.engine.markOf(row.contract_id) ?? Dec.ZERO;
    const own = { ...figures, mark, mmf: market.mmf };
    const price = crossLiquidationPrice(free, own, this.engine.crossPositionsOf(row.owner, row.autoid));
    return price === null ? '0' : price.floorTo(accuracy).toString();
  }

  trigger(row: TriggerRow): TriggerView {
    const position = this.engine.positions.get(row.position_id);
    const market = position ? this.engine.market(position.contract_id) : null;
    return {
      id: row.autoid,
      autoid: row.position_id,
      tradcoin: market?.contract.tradcoin ?? '',
      maincoin: market?.contract.maincoin ?? '',
      type: position?.type ?? 'buy',
      profitPrice: priceText(row.profit_price),
      lossPrice: priceText(row.loss_price),
      number: priceText(row.number),
      state: row.state,
      wdate: row.wdate,
    };
  }
}

/**
 * The entry notional of a closed position, recovered from its closes: what
 * the closes traded for minus the realised PnL for a long, plus it for a
 * short (a liquidation closed at the bankruptcy price with PnL −margin fits
 * the same identity).
 */
function closedEntryCost(row: PositionRow, market: ContractMarket): Dec {
  const closedNotional = Dec.parse(row.close_money).mul(market.unit);
  const realised = Dec.parse(row.realised);
  return row.type === 'buy' ? closedNotional.sub(realised) : closedNotional.add(realised);
}

/** A stored optional price as canonical text, '' when none. */
function priceText(text: string | null | undefined): string {
  return text === null || text === undefined ? '' : Dec.canonical(text);
}

function percentOf(value: Dec, base: Dec): string {
  return base.isPositive() ? value.mul(HUNDRED).div(base).toFixed(2) : '0.00';
}
