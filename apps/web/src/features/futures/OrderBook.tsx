import type { Locale } from '@halyard/protocol';
import { useTranslation } from 'react-i18next';
import { formatChange, formatMoney, trendOf } from '../../shared/format.ts';
import { bookSide } from './calc.ts';
import type { BookRow, Side } from './types.ts';

interface OrderBookProps {
  buy: readonly BookRow[];
  sell: readonly BookRow[];
  price: string;
  rise: string;
  point: number;
  /** A tapped row's price (the page uses it as the limit price). */
  onPick(price: string): void;
}

function BookSide({
  rows,
  side,
  point,
  onPick,
}: {
  rows: readonly BookRow[];
  side: Side;
  point: number;
  onPick(price: string): void;
}) {
  const { i18n } = useTranslation();
  const locale = i18n.language as Locale;
  return (
    <>
      {bookSide(rows, side).map((row, index) =>
        row === null ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have nothing else to tell them apart
          <div key={`pad-${index}`} className="hy-fbook-row hy-muted">
            <span>--</span>
            <span>--</span>
          </div>
        ) : (
          <button
            key={row.price}
            type="button"
            className={`hy-fbook-row ${side}`}
            data-testid={`book-${side}`}
            onClick={() => onPick(row.price)}
          >
            <i className="hy-fbook-bar" style={{ width: `${row.width}%` }} />
            <span className={side === 'buy' ? 'hy-up' : 'hy-down'}>
              {formatMoney(row.price, point, locale)}
            </span>
            <span>{formatMoney(row.amount, 0, locale)}</span>
          </button>
        ),
      )}
    </>
  );
}

/** Spec §2: 7 sell rows over 7 buy rows, padded with dashes, depth bars, the current price between. */
export function OrderBook({ buy, sell, price, rise, point, onPick }: OrderBookProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const tone = trendOf(rise) === 'up' ? 'hy-up' : 'hy-down';
  return (
    <section className="hy-fbook" data-testid="futures-book">
      <div className="hy-fbook-row hy-fbook-head hy-muted">
        <span>{t('perp.price')}</span>
        <span>{t('perp.lots')}</span>
      </div>
      <BookSide rows={sell} side="sell" point={point} onPick={onPick} />
      <div className={`hy-fbook-price ${tone}`} data-testid="futures-price">
        <strong>{formatMoney(price, point, locale)}</strong>
        <small>{formatChange(rise, locale)}</small>
      </div>
      <BookSide rows={buy} side="buy" point={point} onPick={onPick} />
    </section>
  );
}
