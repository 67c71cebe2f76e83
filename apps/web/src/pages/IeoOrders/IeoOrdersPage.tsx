import type { IeoOrder, Locale } from '@halyard/protocol';
import { Button, Tag } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { fetchProof, useIeoOrders } from '../../features/ieo/api.ts';
import { saveBlob } from '../../shared/download.ts';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import '../../features/ieo/ieo.css';

/** Saves the user's allocation proof as a JSON file (issue 15: anyone can check it by hand). */
async function downloadProof(order: IeoOrder) {
  const proof = await fetchProof(order.projectId);
  saveBlob(
    new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' }),
    `allocation-proof-${order.coin}-${order.projectId}.json`,
  );
}

function OrderCard({ order }: { order: IeoOrder }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const coin = (amount: string, symbol: string, digits = 8) =>
    `${formatMoney(amount, digits, locale)} ${symbol}`;
  const rows: [string, string][] = [
    [t(order.mode === 'commit' ? 'ieoPage.committed' : 'ieoPage.paid'), coin(order.amount, order.paycoin)],
  ];
  if (order.state !== 'committed') {
    rows.push([t('ieoPage.tokens'), coin(order.tokens, order.coin)]);
    if (order.gift !== '0') rows.push([t('ieoPage.gift'), coin(order.gift, order.coin)]);
    if (order.mode === 'commit' || order.refund !== '0') {
      rows.push(
        [t('ieoPage.spent'), coin(order.spent, order.paycoin)],
        [t('ieoPage.refund'), coin(order.refund, order.paycoin)],
      );
    }
    rows.push(
      [t('ieoPage.locked'), coin(order.locked, order.coin)],
      [t('ieoPage.released'), coin(order.released, order.coin)],
    );
    const next = order.nextRelease;
    if (next)
      rows.push([
        t('ieoPage.nextRelease'),
        `${coin(next.amount, order.coin)} · ${
          next.until === null
            ? formatDateTime(next.releaseAt, locale)
            : t('ieoPage.linearUntil', { until: formatDateTime(next.until, locale) })
        }`,
      ]);
  }
  return (
    <div className="hy-ieo-card" data-testid={`ieo-order-${order.coin}`}>
      <div className="hy-ieo-card-head">
        <b>{order.coin}</b>
        <span className="hy-muted">{formatDateTime(order.time, locale)}</span>
        <Tag color={order.state === 'locked' ? 'warning' : 'default'} fill="outline">
          {t(`ieoPage.orderState.${order.state}`)}
        </Tag>
      </div>
      {rows.map(([label, value]) => (
        <div className="hy-ieo-card-row" key={label}>
          <span className="hy-muted">{label}</span>
          <span className="hy-num">{value}</span>
        </div>
      ))}
      {order.mode === 'commit' && order.state !== 'committed' && order.state !== 'refunded' ? (
        <Button size="small" onClick={() => downloadProof(order).catch(() => undefined)}>
          {t('ieoPage.proof')}
        </Button>
      ) : null}
    </div>
  );
}

/** /ieoOrders (spec §2 "order records"): each subscription with its locked, released and next release. */
export function IeoOrdersPage() {
  const { t } = useTranslation();
  const orders = useIeoOrders(true);
  return (
    <PageFrame title={t('route.ieoOrders')} fallback="/ieo">
      <div className="hy-ieo-list">
        {(orders.data ?? []).map((order) => (
          <OrderCard key={order.id} order={order} />
        ))}
        {orders.isSuccess && orders.data.length === 0 ? (
          <EmptyState>{t('ieoPage.noOrders')}</EmptyState>
        ) : null}
      </div>
    </PageFrame>
  );
}
