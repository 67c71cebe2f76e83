import { Dec } from '@halyard/money';
import type { FiatOffer, FiatPayee, FiatPayType, FiatSide, Locale } from '@halyard/protocol';
import { checkFiatAmount, checkFiatPayee, EMPTY_FIAT_PAYEE } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, Selector, Tabs, Tag } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  clockText,
  fiatApi,
  OPEN_STATES,
  secondsUntil,
  useFiatOffers,
  useFiatOrders,
  useFiatQuote,
  useFiatStanding,
} from '../../features/fiat/api.ts';
import { useUsable } from '../../features/funds/api.ts';
import { ruleText } from '../../i18n/index.ts';
import { formatDateTime } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';
import { AdTerms } from './AdTerms.tsx';
import { OtcMerchant } from './OtcMerchant.tsx';
import { OtcOrderPanel } from './OtcOrderPanel.tsx';
import { payeeFields } from './payee-fields.ts';
import '../../features/funds/funds.css';
import './otc.css';

/** The ban in force with its reason and end, or the ladder before it bites (AMENDMENTS A6). */
function Standing() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const standing = useFiatStanding().data;
  if (!standing) return null;
  const ladder = t('otc.ladder', {
    steps: standing.ladderMinutes.map((minutes) => t('otc.minutes', { minutes })).join(' → '),
  });
  if (standing.ban) {
    return (
      <section className="hy-otc-ban" data-testid="otc-ban">
        <b>{t('otc.banned', { until: formatDateTime(standing.ban.endsAt, locale) })}</b>
        <div>{standing.ban.reason}</div>
        <div className="hy-small">{ladder}</div>
      </section>
    );
  }
  return (
    <section className="hy-otc-rules hy-small hy-muted" data-testid="otc-rules">
      {standing.lockedUntil ? (
        <div>{t('otc.locked', { until: formatDateTime(standing.lockedUntil, locale) })}</div>
      ) : null}
      <div>{t('otc.payRule')}</div>
      <div>
        {t('otc.cancelRule', { count: standing.cancelsBeforeBan, today: standing.cancelsToday })} {ladder}
      </div>
    </section>
  );
}

/** Buy or sell: coin and fiat pickers, amount within the limits, method, payee details for a sale. */
function PlaceForm({ side, onPlaced }: { side: FiatSide; onPlaced(id: number): void }) {
  const { t } = useTranslation();
  const offers = useFiatOffers(side).data ?? [];
  const [coin, setCoin] = useState('USDT');
  const [fiat, setFiat] = useState('CNY');
  const [amount, setAmount] = useState('');
  const [payType, setPayType] = useState<FiatPayType>('bank');
  const [payee, setPayee] = useState<FiatPayee>(EMPTY_FIAT_PAYEE);
  const [matching, setMatching] = useState(false);
  const coins = [...new Set(offers.map((offer) => offer.coin))];
  const offer: FiatOffer | undefined =
    offers.find((item) => item.coin === coin && item.fiat === fiat) ??
    offers.find((item) => item.coin === coin);
  const fiats = offers.filter((item) => item.coin === (offer?.coin ?? coin)).map((item) => item.fiat);
  // A sale takes the coin from the c2c (fiat) wallet: its usable balance is shown beside the amount.
  const usable = useUsable('fiat', offer?.coin ?? coin);
  const parsed = Dec.tryParse(amount);
  const number =
    offer && parsed?.isPositive() ? parsed.div(Dec.parse(offer.price)).floorTo(8).toString() : '0';
  // Once the amount fits, the ad the order would go to: its window and terms are read before ordering.
  const quote = useFiatQuote(
    side,
    offer && checkFiatAmount(amount, offer.min, offer.max) === null
      ? { coin: offer.coin, fiat: offer.fiat, amount, payType }
      : null,
  ).data;

  async function place() {
    if (!offer) return;
    const error =
      checkFiatAmount(amount, offer.min, offer.max) ??
      (side === 'sell' ? checkFiatPayee(payType, offer.fiat, payee) : null);
    if (error) {
      toast(ruleText(error));
      return;
    }
    setMatching(true);
    try {
      const fields = {
        coin: offer.coin,
        fiat: offer.fiat,
        amount,
        payType,
        ...(quote ? { adId: quote.adId } : {}),
      };
      const order = side === 'buy' ? await fiatApi.buy(fields) : await fiatApi.sell({ ...fields, ...payee });
      setAmount('');
      onPlaced(order.id);
    } finally {
      setMatching(false);
    }
  }

  if (offers.length === 0) return <EmptyState>{t('common.loading')}</EmptyState>;
  return (
    <div className="hy-otc-form">
      <Selector
        columns={4}
        options={coins.map((value) => ({ label: value, value }))}
        value={[offer?.coin ?? coin]}
        onChange={(values) => values[0] && setCoin(values[0])}
        data-testid="otc-coin"
      />
      <Selector
        columns={4}
        options={fiats.map((value) => ({ label: value, value }))}
        value={[offer?.fiat ?? fiat]}
        onChange={(values) => values[0] && setFiat(values[0])}
        data-testid="otc-fiat"
      />
      {offer ? (
        <section className="hy-otc-card hy-facts" data-testid="otc-offer">
          <span className="hy-muted">{t('otc.price')}</span>
          <span className="hy-num">
            {offer.price} {offer.fiat}
            {offer.floating ? (
              <div className="hy-small hy-muted" data-testid="otc-offer-floats">
                {t('otc.floats')}
              </div>
            ) : null}
          </span>
          <span className="hy-muted">{t('otc.limits')}</span>
          <span className="hy-num">
            {offer.min} – {offer.max} {offer.fiat}
          </span>
        </section>
      ) : null}
      <div className="hy-field">
        <div className="hy-field-label">
          {side === 'buy' ? t('otc.amountToPay') : t('otc.amountToReceive')}
        </div>
        <div className="hy-field-box">
          <Input
            value={amount}
            onChange={setAmount}
            inputMode="decimal"
            placeholder={offer ? `${offer.min} – ${offer.max}` : ''}
            data-testid="otc-amount"
          />
          <b>{offer?.fiat}</b>
        </div>
        <div className="hy-muted hy-small" data-testid="otc-number">
          ≈ {number} {offer?.coin}
          {side === 'sell'
            ? ` · ${t('otc.c2cUsable', { amount: usable.data?.usable ?? '0', coin: offer?.coin ?? '' })}`
            : ''}
        </div>
      </div>
      <Selector
        columns={2}
        options={(offer?.methods ?? []).map((value) => ({ label: t(`otc.method.${value}`), value }))}
        value={[payType]}
        onChange={(values) => values[0] && setPayType(values[0])}
      />
      {quote ? (
        <section className="hy-otc-card" data-testid="otc-quote">
          <div className="hy-otc-row">
            <span>
              {quote.merchant.name} {quote.merchant.demo ? <Tag color="warning">DEMO</Tag> : null}
            </span>
            <span className="hy-num">
              {quote.price} {offer?.fiat}
            </span>
          </div>
          <div className="hy-muted hy-small" data-testid="otc-quote-window">
            {t('otc.adPayWithin', { minutes: quote.payWindowMinutes })}
          </div>
          {quote.terms !== '' ? <AdTerms terms={quote.terms} /> : null}
        </section>
      ) : null}
      {side === 'sell' && offer
        ? payeeFields(payType, offer.fiat).map((field) => (
            <div className="hy-field" key={field}>
              <div className="hy-field-label">{t(`otc.field.${field}`)}</div>
              <div className="hy-field-box">
                <Input
                  value={payee[field]}
                  onChange={(value) => setPayee({ ...payee, [field]: value })}
                  data-testid={`otc-payee-${field}`}
                />
              </div>
            </div>
          ))
        : null}
      <Button
        block
        color={side === 'buy' ? 'success' : 'danger'}
        loading={matching}
        loadingText={t('otc.matching')}
        data-testid="otc-submit"
        onClick={() => {
          place().catch(() => undefined);
        }}
      >
        {side === 'buy'
          ? t('otc.buy', { coin: offer?.coin ?? '' })
          : t('otc.sell', { coin: offer?.coin ?? '' })}
      </Button>
    </div>
  );
}

function OrderList({ onOpen }: { onOpen(id: number): void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const orders = useFiatOrders().data ?? [];
  const now = Date.now();
  if (orders.length === 0) return <EmptyState>{t('otc.noOrders')}</EmptyState>;
  return (
    <div data-testid="otc-orders">
      {orders.map((order) => (
        <button type="button" className="hy-otc-list-row" key={order.id} onClick={() => onOpen(order.id)}>
          <span>
            <b className={order.side === 'buy' ? 'hy-up' : 'hy-down'}>
              {order.side === 'buy'
                ? t('otc.buy', { coin: order.coin })
                : t('otc.sell', { coin: order.coin })}
            </b>
            <div className="hy-muted hy-small">{formatDateTime(order.createdAt, locale)}</div>
          </span>
          <span className="hy-num">
            {order.amount} {order.fiat}
            <div className="hy-small">
              {t(`otc.state.${order.state}`)}
              {order.state === 'to_pay' ? ` · ${clockText(secondsUntil(order.expiresAt, now))}` : ''}
            </div>
          </span>
        </button>
      ))}
    </div>
  );
}

/** /otc (spec §1, §2): buy and sell coins for fiat through merchants; ?order=<id> opens one order. */
export function OtcPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<'buy' | 'sell' | 'orders' | 'merchant'>('buy');
  const orderId = Number(params.get('order')) || null;
  const open = (id: number) => {
    client.invalidateQueries({ queryKey: ['fiat'] }).catch(() => undefined);
    setParams({ order: String(id) });
  };
  const orders = useFiatOrders().data ?? [];
  const openCount = orders.filter((order) => OPEN_STATES.includes(order.state)).length;
  return (
    <PageFrame title={t('route.otc')} fallback="/">
      <div className="hy-otc-page">
        {orderId !== null ? (
          <>
            <button type="button" className="hy-link" onClick={() => setParams({})}>
              ← {t('otc.backToTrade')}
            </button>
            <OtcOrderPanel id={orderId} />
          </>
        ) : (
          <>
            <Standing />
            <Tabs activeKey={tab} onChange={(key) => setTab(key as typeof tab)}>
              <Tabs.Tab title={t('otc.tabBuy')} key="buy" />
              <Tabs.Tab title={t('otc.tabSell')} key="sell" />
              <Tabs.Tab
                title={openCount > 0 ? `${t('otc.tabOrders')} (${openCount})` : t('otc.tabOrders')}
                key="orders"
              />
              <Tabs.Tab title={t('otc.tabMerchant')} key="merchant" />
            </Tabs>
            {tab === 'orders' ? <OrderList onOpen={open} /> : null}
            {tab === 'merchant' ? <OtcMerchant onOpen={open} /> : null}
            {tab === 'buy' || tab === 'sell' ? <PlaceForm key={tab} side={tab} onPlaced={open} /> : null}
          </>
        )}
      </div>
    </PageFrame>
  );
}
