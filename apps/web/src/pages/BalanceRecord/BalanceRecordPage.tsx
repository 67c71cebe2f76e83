import type { Locale } from '@halyard/protocol';
import { DISPLAY_PRECISION } from '@halyard/rules';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useBalanceRecords, type WalletName } from '../../features/funds/api.ts';
import { formatDateTime, formatMoney, trendOf } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import '../../features/funds/funds.css';

const WALLETS: readonly WalletName[] = ['spot', 'futures', 'fiat'];

/** /balanceRecord?coin=USDT&wallet=spot: one wallet's movements of a coin, newest first, paged. */
export function BalanceRecordPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [params] = useSearchParams();
  const coin = (params.get('coin') ?? 'USDT').toUpperCase();
  const wallet = WALLETS.find((name) => name === params.get('wallet')) ?? 'spot';
  const records = useBalanceRecords(coin, wallet);
  const items = records.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <PageFrame title={`${t('route.balanceRecord')} · ${coin}`} fallback="/balances">
      <div className="hy-funds-page" data-testid="balance-record">
        {items.length === 0 ? (
          <EmptyState>{records.isLoading ? t('common.loading') : t('funds.noRecords')}</EmptyState>
        ) : (
          items.map((item) => (
            <div key={item.id} className="hy-record-row">
              <span>
                <div>{item.typeName}</div>
                <div className="hy-muted hy-small">{formatDateTime(item.time, locale)}</div>
              </span>
              <b className={`hy-num ${trendOf(item.amount) === 'up' ? 'hy-up' : 'hy-down'}`}>
                {trendOf(item.amount) === 'up' ? '+' : ''}
                {formatMoney(item.amount, DISPLAY_PRECISION.total, locale)} {item.coin}
              </b>
            </div>
          ))
        )}
        {records.hasNextPage ? (
          <Button
            block
            fill="none"
            loading={records.isFetchingNextPage}
            onClick={() => {
              records.fetchNextPage().catch(() => undefined);
            }}
          >
            {t('exchange.loadMore')}
          </Button>
        ) : items.length > 0 ? (
          <div className="hy-muted hy-center">{t('common.noMore')}</div>
        ) : null}
      </div>
    </PageFrame>
  );
}
