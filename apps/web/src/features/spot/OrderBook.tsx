import type { Locale } from '@halyard/protocol';
import { useTranslation } from 'react-i18next';
import { formatMoney, trendOf } from '../../shared/format.ts';
import type { SpotInfo, SpotSnapshot } from './api.ts';
import { type BookRow, bookSide } from './book.ts';

/** What the book needs of a pair: coins, latest price and change, digits. */
export type BookInfo = Pick<
  SpotInfo,
  'tradcoin' | 'maincoin' | 'price' | 'rise' | 'price_accuracy' | 'amount_accuracy'
>;

interface OrderBookProps {
  snapshot: Pick<SpotSnapshot, 'buy' | 'sell'> & { info: BookInfo };
  onPick(price: string): void;
}

function Level({
  row,
  side,
  priceDigits,
  amountDigits,
  onPick,
}: {
  row: BookRow | null;
  side: 'buy' | 'sell';
  priceDigits: number;
  amountDigits: number;
  onPick(price: string): void;
}) {
  const { i18n } = useTranslation();
  const locale = i18n.language as Locale;
  if (row === null) {
    return (
      <div className="hy-book-row empty">
        <span>--</span>
        <span>--</span>
      </div>
    );
  }
  return (
    <button type="button" className={`hy-book-row ${side}`} onClick={() => onPick(row.price)}>
      <i className="hy-book-bar" style={{ width: `${row.width}%` }} />
      <span className={side === 'buy' ? 'hy-up' : 'hy-down'}>
        {formatMoney(row.price, priceDigits, locale)}
      </span>
      <span>{formatMoney(row.amount, amountDigits, locale)}</span>
    </button>
  );
}

/**
 * The 20+20 book (spec §2): asks above, lowest nearest the middle, bids below,
 * each side at least 6 rows with depth bars; a tap hands the price to the form.
 */
export function OrderBook({ snapshot, onPick }: OrderBookProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const { info } = snapshot;
  // Lowest ask first: the column runs bottom-up, so it sits next to the price.
  const asks = bookSide(snapshot.sell);
  const bids = bookSide(snapshot.buy);
  const level = (side: 'buy' | 'sell') => (row: BookRow | null, index: number) => (
    <Level
      key={`${side}-${row?.price ?? index}`}
      row={row}
      side={side}
      priceDigits={info.price_accuracy}
      amountDigits={info.amount_accuracy}
      onPick={onPick}
    />
  );
  return (
    <section className="hy-book" data-testid="order-book">
      <div className="hy-book-head">
        {/* <wbr>: a long word (RU "Количество") may put the coin on a second line rather than overflow. */}
        <span>
          {t('exchange.price')}
          <wbr />({info.maincoin})
        </span>
        <span>
          {t('exchange.amount')}
          <wbr />({info.tradcoin})
        </span>
      </div>
      <div className="hy-book-side asks" data-testid="book-asks">
        {asks.map(level('sell'))}
      </div>
      <div
        className={`hy-book-mid ${trendOf(info.rise) === 'up' ? 'hy-up' : 'hy-down'}`}
        data-testid="book-price"
      >
        {formatMoney(info.price, info.price_accuracy, locale)}
      </div>
      <div className="hy-book-side bids" data-testid="book-bids">
        {bids.map(level('buy'))}
      </div>
    </section>
  );
}
