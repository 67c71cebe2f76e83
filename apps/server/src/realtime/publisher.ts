import { Dec } from '@halyard/money';
import type { BroadcastPush, MarketDataPush, TradeRow } from '@halyard/protocol';

/** A push before the gateway stamps its time (distributes over the union). */
type Unstamped<P> = P extends unknown ? Omit<P, 'ts'> : never;

/** Anything the server can push: broadcast lists and market data, without the time. */
export type Publishable = Unstamped<BroadcastPush> | Unstamped<MarketDataPush>;

/**
 * How the rest of the server reaches live clients. Call it after the effects
 * are committed: a push announces what is already durable. Routing follows
 * the push: `overview`, `symbols` and `consymbols` go to every client; `kline`
 * to the clients subscribed to its key (market and period); the other market
 * pushes to every client on that market. Never blocks and never throws on a
 * slow client.
 */
export interface Publisher {
  publish(push: Publishable): void;
}

/** A trade as the `top` and `contop` pushes carry it (spec §3), from the stored row's fields. */
export function tradePushRow(trade: {
  price: string;
  amount: string;
  takerSide: 'buy' | 'sell';
  wdate: number;
}): TradeRow {
  return {
    price: Dec.canonical(trade.price),
    amount: Dec.canonical(trade.amount),
    type: trade.takerSide,
    wdate: trade.wdate,
  };
}
