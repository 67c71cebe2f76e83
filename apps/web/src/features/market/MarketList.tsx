import type { Locale } from '@halyard/protocol';
import { DISPLAY_PRECISION } from '@halyard/rules';
import { useTranslation } from 'react-i18next';
import { formatChange, formatMoney, trendOf } from '../../shared/format.ts';
import { useLocalValue } from '../../shared/local-currency.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { pairName } from './api.ts';

/** Dollar stablecoins: a price quoted in them is valued at the USDT rate of the local currency. */
const USD_COINS = new Set(['USDT', 'USDC']);

export interface MarketRow {
  tradcoin: string;
  maincoin: string;
  price: string;
  rise: string;
  price_accuracy?: number;
}

interface MarketListProps {
  rows: MarketRow[] | undefined;
  loading: boolean;
  onPick?(row: MarketRow): void;
}

/** Pair, last price, approximate local-currency value and the 24 h change (green up, red down). */
export function MarketList({ rows, loading, onPick }: MarketListProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const localValue = useLocalValue(locale);
  if (!rows || rows.length === 0) {
    return <EmptyState>{loading ? t('common.loading') : t('market.empty')}</EmptyState>;
  }
  return (
    <div>
      {rows.map((row) => (
        <button type="button" key={pairName(row)} className="hy-market-row" onClick={() => onPick?.(row)}>
          <span className="hy-pair">
            <b>{row.tradcoin}</b>
            <span className="hy-muted">/{row.maincoin}</span>
          </span>
          <span className="hy-price">
            <div>{formatMoney(row.price, row.price_accuracy ?? DISPLAY_PRECISION.balance, locale)}</div>
            {USD_COINS.has(row.maincoin) ? <div className="hy-sub">{localValue(row.price)}</div> : null}
          </span>
          <span className={`hy-change ${trendOf(row.rise)}`}>{formatChange(row.rise, locale)}</span>
        </button>
      ))}
    </div>
  );
}
