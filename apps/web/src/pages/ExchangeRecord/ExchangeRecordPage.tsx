import { DISPLAY_PRECISION } from '@halyard/rules';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useSpotSymbols } from '../../features/market/api.ts';
import { pairFromRecordPath, useSpotHistory } from '../../features/spot/api.ts';
import { OrderCard } from '../../features/spot/OpenOrders.tsx';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import '../../features/spot/spot.css';

/** /exchangeRecord/BTC_USDT: the pair's filled and cancelled orders, newest first. */
export function ExchangeRecordPage() {
  const { t } = useTranslation();
  const pair = pairFromRecordPath(useParams().data);
  const history = useSpotHistory(pair);
  const { data: symbols } = useSpotSymbols();
  const row = symbols?.find(
    (symbol) => symbol.tradcoin === pair.tradcoin && symbol.maincoin === pair.maincoin,
  );
  const orders = history.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <PageFrame
      title={`${t('route.exchangeRecord')} · ${pair.tradcoin}/${pair.maincoin}`}
      fallback="/coinExchange"
    >
      <div className="hy-spot-record" data-testid="exchange-record">
        {orders.length === 0 ? (
          <EmptyState>{history.isLoading ? t('common.loading') : t('exchange.noHistory')}</EmptyState>
        ) : (
          orders.map((order) => (
            <OrderCard
              key={order.autoid}
              order={order}
              priceDigits={row?.price_accuracy ?? DISPLAY_PRECISION.total}
              amountDigits={row?.amount_accuracy ?? DISPLAY_PRECISION.total}
            />
          ))
        )}
        {history.hasNextPage ? (
          <Button
            block
            fill="none"
            loading={history.isFetchingNextPage}
            onClick={() => {
              history.fetchNextPage().catch(() => undefined);
            }}
          >
            {t('exchange.loadMore')}
          </Button>
        ) : orders.length > 0 ? (
          <div className="hy-muted hy-center">{t('common.noMore')}</div>
        ) : null}
      </div>
    </PageFrame>
  );
}
