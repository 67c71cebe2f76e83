import { Dec } from '@halyard/money';
import type { MoneyState, PairConfig } from '../../core/state/index.ts';
import { restorePair } from '../../core/state/index.ts';
import type { Executor } from '../../store/database.ts';
import { type PairRow, selectPairs } from './store.ts';
import { traderOf } from './trader.ts';

/** Rows read per statement. */
const PAGE = 10_000;

/**
 * The spot part of the money state built from SQL (projection/initial-state.ts):
 * every pair with its latest trade's price, the resting orders with what their
 * holds reserved and spent, and the next order id after the highest ever
 * given; the books are rebuilt from the resting orders, in id order (the
 * state's time priority is the order id, as PairMarket's).
 */
export async function loadSpotState(db: Executor, state: MoneyState): Promise<void> {
  const pairs = await selectPairs(db);
  const symbols = new Map(pairs.map((pair) => [pair.autoid, symbolOf(pair)]));
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('spot_orders')
      .selectAll()
      .where('state', 'in', ['unfilled', 'partial'])
      .where('autoid', '>', after)
      .orderBy('autoid')
      .limit(PAGE)
      .execute();
    for (const row of rows) {
      const pair = symbols.get(row.pair_id);
      if (pair === undefined) throw new Error(`spot order ${row.autoid}: no pair ${row.pair_id}`);
      state.orders.set(row.autoid, {
        id: row.autoid,
        pair,
        owner: row.owner,
        account: traderOf(row.owner).account,
        side: row.type,
        style: row.style,
        price: row.price === null ? Dec.ZERO : Dec.parse(String(row.price)),
        amount: Dec.parse(String(row.number)),
        remaining: Dec.parse(String(row.unfilled)),
        held: Dec.parse(String(row.held)),
        holdSpent: Dec.parse(String(row.hold_spent)),
        dealMoney: Dec.parse(String(row.deal_money)),
        fee: Dec.parse(String(row.fee)),
        feeHal: Dec.parse(String(row.fee_hal)),
        placedAt: Number(row.wdate),
      });
    }
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.autoid;
  }
  const lastPrices = await latestPrices(db);
  for (const pair of pairs) restorePair(state, pairConfigOf(pair), lastPrices.get(pair.autoid) ?? null);
  const highest = await db
    .selectFrom('spot_orders')
    .select((eb) => eb.fn.max('autoid').as('id'))
    .executeTakeFirst();
  state.nextOrderId = Number(highest?.id ?? 0) + 1;
}

/** The pair's settings as the edge sends them in `openPair`. */
export function pairConfigOf(pair: PairRow): PairConfig {
  return {
    symbol: symbolOf(pair),
    tradcoin: pair.tradcoin,
    maincoin: pair.maincoin,
    priceAccuracy: pair.price_accuracy,
    amountAccuracy: pair.amount_accuracy,
    minNumber: decimalText(pair.minnumber),
    maxNumber: decimalText(pair.maxnumber),
    makerFee: decimalText(pair.maker_fee),
    takerFee: decimalText(pair.taker_fee),
  };
}

/** A NUMERIC column as the state writes decimals (PostgreSQL pads them with zeros). */
function decimalText(value: string): string {
  return Dec.parse(String(value)).toString();
}

function symbolOf(pair: PairRow): string {
  return `${pair.tradcoin}/${pair.maincoin}`;
}

/** Each pair's latest trade price: the trade with the highest id per pair. */
async function latestPrices(db: Executor): Promise<Map<number, Dec>> {
  const rows = await db
    .selectFrom('spot_trades')
    .select(['pair_id', 'price'])
    .where('autoid', 'in', (eb) =>
      eb
        .selectFrom('spot_trades')
        .select((inner) => inner.fn.max('autoid').as('id'))
        .groupBy('pair_id'),
    )
    .execute();
  return new Map(rows.map((row) => [row.pair_id, Dec.parse(String(row.price))]));
}
