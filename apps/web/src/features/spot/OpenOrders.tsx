import type { Locale } from '@halyard/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { toast } from '../../shared/ui/toast.ts';
import { cancelAllSpotOrders, cancelSpotOrder, type SpotOrder, type SpotPair } from './api.ts';
import { orderFeeText } from './fee.ts';

interface OrderCardProps {
  order: SpotOrder;
  priceDigits: number;
  amountDigits: number;
  action?: React.ReactNode;
}

/** One order: side, pair, time, price, amount, filled (spec §3 "Open order (spot)"). */
export function OrderCard({ order, priceDigits, amountDigits, action }: OrderCardProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const fee = orderFeeText(order, locale);
  const price =
    order.style === 'market' && order.price === '0'
      ? t('exchange.marketPrice')
      : formatMoney(order.price, priceDigits, locale);
  return (
    <div className="hy-order-card" data-testid="order-card">
      <div className="hy-order-card-head">
        <span className={order.type === 'buy' ? 'hy-up' : 'hy-down'}>
          {t(order.type === 'buy' ? 'exchange.buy' : 'exchange.sell')} ·{' '}
          {t(order.style === 'limit' ? 'exchange.limit' : 'exchange.market')}
        </span>
        <b>
          {order.tradcoin}/{order.maincoin}
        </b>
        <span className="hy-muted">{formatDateTime(order.wdate, locale)}</span>
        {action}
      </div>
      <div className="hy-order-card-grid">
        <span className="hy-muted">{t('exchange.price')}</span>
        <span className="hy-muted">{t('exchange.amount')}</span>
        <span className="hy-muted">{t('exchange.filled')}</span>
        <span className="hy-num">{price}</span>
        <span className="hy-num">{formatMoney(order.number, amountDigits, locale)}</span>
        <span className="hy-num">{formatMoney(order.deal_amount, amountDigits, locale)}</span>
      </div>
      <div className="hy-order-card-state hy-muted">
        {t(`exchange.state.${order.state}`)}
        {fee === null ? null : <span data-testid="order-fee"> · {t('exchange.feePaid', { fee })}</span>}
      </div>
    </div>
  );
}

/** Cancels all the user's open orders in the pair, after a confirm naming how many and which pair. */
export function CancelAllOrders({ pair, count }: { pair: SpotPair; count: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  if (count === 0) return null;
  async function cancelAll() {
    const confirmed = await Dialog.confirm({
      content: t('exchange.cancelAllConfirm', { count, pair: `${pair.tradcoin}/${pair.maincoin}` }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    const cancelled = await cancelAllSpotOrders(pair);
    toast(t('exchange.allCancelled', { count: cancelled.length }));
    await client.invalidateQueries({ queryKey: ['spot'] });
  }
  return (
    <button
      type="button"
      className="hy-cancel"
      data-testid="cancel-all-orders"
      onClick={() => {
        cancelAll().catch(() => undefined);
      }}
    >
      {t('exchange.cancelAll')}
    </button>
  );
}

/** The user's open orders in the pair, each with a cancel that asks first. */
export function OpenOrders({
  orders,
  priceDigits,
  amountDigits,
}: {
  orders: SpotOrder[];
  priceDigits: number;
  amountDigits: number;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  async function cancel(order: SpotOrder) {
    const confirmed = await Dialog.confirm({
      content: t('exchange.cancelConfirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    await cancelSpotOrder(order.autoid);
    toast(t('exchange.cancelled'));
    await client.invalidateQueries({ queryKey: ['spot'] });
  }
  if (orders.length === 0) return <EmptyState>{t('exchange.noOpenOrders')}</EmptyState>;
  return (
    <div data-testid="open-orders">
      {orders.map((order) => (
        <OrderCard
          key={order.autoid}
          order={order}
          priceDigits={priceDigits}
          amountDigits={amountDigits}
          action={
            <button
              type="button"
              className="hy-cancel"
              data-testid="cancel-order"
              onClick={() => {
                cancel(order).catch(() => undefined);
              }}
            >
              {t('exchange.cancel')}
            </button>
          }
        />
      ))}
    </div>
  );
}
