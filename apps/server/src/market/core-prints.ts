import { Dec } from '@halyard/money';
import type { MarketKind } from '@halyard/protocol';
import type { Published } from '../core/sequencer/index.ts';
import type { MoneyEvent } from '../core/state/index.ts';
import { selectContracts } from '../modules/futures/store.ts';
import type { Executor } from '../store/database.ts';
import { INDEX_QUOTE } from './index-price.ts';
import type { Print } from './kline.ts';
import { pairName } from './pair.ts';

/** A print and the market whose bars it moves. */
export interface MarketPrint {
  kind: MarketKind;
  pair: string;
  print: Print;
}

/** The money state's events that move a chart: spot trades, futures rows (their trades), index prices. */
export function isPrintEvent(event: MoneyEvent): boolean {
  return event.type === 'spotTrade' || event.type === 'futures' || event.type === 'indexPrices';
}

interface ContractMarket {
  pair: string;
  tradcoin: string;
  maincoin: string;
  /** Coins per lot: a trade's volume is its lots times this. */
  unit: Dec;
}

/**
 * The K-line prints of the money state's events, the ones the SQL path's
 * modules record into the aggregator: a spot trade on its pair (`trad`),
 * its amount in the trade coin; a futures trade on its contract's market
 * (`contract`), its lots times the contract's unit; an index price on the
 * coin's cycle market and on each of the coin's contracts in the index's
 * quote, with no volume, at the command's time (the tick's).
 *
 * The state names a contract by its id. The contracts are read from SQL,
 * where a listing writes them before the core hears of them (coins and unit
 * never change after): again when a trade names one not known yet, and with
 * every batch that holds index prices, since a contract listed since takes
 * marks before it trades.
 */
export class CorePrints {
  private contracts = new Map<number, ContractMarket>();

  /** The prints of these events, in the order the events were published. */
  async of(db: Executor, published: readonly Published<MoneyEvent>[]): Promise<MarketPrint[]> {
    await this.readContractsIfNeeded(db, published);
    const prints: MarketPrint[] = [];
    for (const { events } of published) {
      for (const event of events) {
        if (event.type === 'spotTrade') {
          const { pair, price, amount, at } = event.trade;
          prints.push({
            kind: 'trad',
            pair,
            print: { price: Dec.parse(price), amount: Dec.parse(amount), ts: at },
          });
        } else if (event.type === 'futures') {
          for (const trade of event.trades) {
            const contract = this.contract(trade.contract_id);
            const print = {
              price: Dec.parse(trade.price),
              amount: Dec.parse(trade.number).mul(contract.unit),
              ts: trade.wdate,
            };
            prints.push({ kind: 'contract', pair: contract.pair, print });
          }
        } else if (event.type === 'indexPrices') {
          for (const [coin, price] of event.prices)
            this.indexPrints(coin, Dec.parse(price), event.at, prints);
        }
      }
    }
    return prints;
  }

  private indexPrints(coin: string, price: Dec, ts: number, into: MarketPrint[]): void {
    const print = { price, amount: Dec.ZERO, ts };
    into.push({ kind: 'cycle', pair: pairName({ tradcoin: coin, maincoin: INDEX_QUOTE }), print });
    for (const contract of this.contracts.values())
      if (contract.tradcoin === coin && contract.maincoin === INDEX_QUOTE)
        into.push({ kind: 'contract', pair: contract.pair, print });
  }

  private contract(id: number): ContractMarket {
    const contract = this.contracts.get(id);
    // As the spot writer with a pair it cannot find: the batch fails and is retried, never skipped.
    if (!contract) throw new Error(`K-line prints: no futures contract ${id} in the store`);
    return contract;
  }

  private async readContractsIfNeeded(
    db: Executor,
    published: readonly Published<MoneyEvent>[],
  ): Promise<void> {
    const needed = published.some(({ events }) =>
      events.some(
        (event) =>
          event.type === 'indexPrices' ||
          (event.type === 'futures' && event.trades.some((trade) => !this.contracts.has(trade.contract_id))),
      ),
    );
    if (!needed) return;
    const rows = await selectContracts(db);
    this.contracts = new Map(
      rows.map((row) => [
        row.autoid,
        { pair: pairName(row), tradcoin: row.tradcoin, maincoin: row.maincoin, unit: Dec.parse(row.unit) },
      ]),
    );
  }
}
