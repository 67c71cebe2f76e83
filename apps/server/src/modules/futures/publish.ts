// After a group commits, and only then: the touched markets' shown depth and
// latest trades (what reads and pushes show), then the pushes to the
// realtime publisher (book rows, the trade list) and the trades for the
// K-lines. A rolled-back group shows and pushes nothing.
import { Dec } from '@halyard/money';
import { type MarketRef, marketKey } from '@halyard/protocol';
import { depthRows } from '@halyard/rules';
import type { ContractMarket, FuturesState } from '../../core/state/futures-book.ts';
import type { GroupEffects } from '../../core/state/futures-commands.ts';
import type { MarketData } from '../../market/index.ts';
import { type Publisher, tradePushRow } from '../../realtime/publisher.ts';
import type { CommittedEffects, FuturesWriter } from './writer.ts';

/** The futures book shows 7 rows a side (spec §9). */
export const FUTURES_BOOK_ROWS = 7;

/** Takes the committed books' depth (settlement prepended each command's trades to the latest already). */
export function refreshSnapshots(state: FuturesState, effects: GroupEffects): void {
  for (const id of effects.contracts) state.refreshDepth(id);
}

/** Pushes each touched contract's book rows and, when it traded, its trade list; records the trades for the K-lines. */
export function publishCommitted(
  effects: CommittedEffects,
  to: { markets: Pick<FuturesWriter, 'market'>; publisher: Publisher; data: MarketData },
): void {
  const { markets, publisher, data } = to;
  for (const id of effects.contracts) {
    const market = markets.market(id);
    const ref = marketRef(market);
    const key = marketKey(ref);
    publisher.publish({ type: 'buy', key, data: depthRows(market.depth.bids, FUTURES_BOOK_ROWS) });
    publisher.publish({ type: 'sell', key, data: depthRows(market.depth.asks, FUTURES_BOOK_ROWS) });
    const trades = effects.trades.filter((trade) => trade.contract_id === id);
    if (trades.length === 0) continue;
    // On the core the projector charts the trades (market/kline-writer.ts).
    if (data.recordsPrints)
      data.recordTrades(
        ref,
        trades.map((trade) => ({
          price: Dec.parse(trade.price),
          amount: Dec.parse(trade.number).mul(market.unit),
          ts: trade.wdate,
        })),
      );
    publisher.publish({ type: 'contop', key, data: market.trades.map(toTradePush) });
  }
}

export function marketRef(market: ContractMarket): MarketRef {
  return { kind: 'contract', maincoin: market.contract.maincoin, tradcoin: market.contract.tradcoin };
}

export const toTradePush = (trade: {
  price: string;
  number: string;
  taker_side: 'buy' | 'sell';
  wdate: number;
}) =>
  tradePushRow({ price: trade.price, amount: trade.number, takerSide: trade.taker_side, wdate: trade.wdate });
