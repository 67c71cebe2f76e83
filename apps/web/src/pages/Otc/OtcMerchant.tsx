import type {
  FiatAdInput,
  FiatMerchantView,
  FiatPayee,
  FiatPayType,
  FiatPriceType,
  FiatSide,
} from '@halyard/protocol';
import {
  checkFiatAdAvailable,
  checkFiatAdMethods,
  checkFiatAdTerms,
  checkFiatAdTermsText,
  checkFiatPayWindow,
  EMPTY_FIAT_PAYEE,
  FIAT_AD_TERMS_MAX_CHARS,
  FIAT_PAY_METHODS,
  FIAT_PAY_WINDOW_MINUTES,
} from '@halyard/rules';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Selector, Switch, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fiatApi } from '../../features/fiat/api.ts';
import { ruleText } from '../../i18n/index.ts';
import { toast } from '../../shared/ui/toast.ts';
import { payeeFields } from './payee-fields.ts';

/** The merchant's side of /otc (issue 16 item 1): apply, publish ads, take them offline, act on orders. */
export function OtcMerchant({ onOpen }: { onOpen(id: number): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const view = useQuery({ queryKey: ['fiat', 'merchant'], queryFn: fiatApi.merchant }).data;
  const refresh = (next: FiatMerchantView) => client.setQueryData(['fiat', 'merchant'], next);
  if (!view) return null;
  if (view.state === 'none' || view.state === 'rejected') {
    return (
      <section className="hy-otc-card" data-testid="otc-merchant">
        <div>{t('otc.merchantPitch', { amount: view.deposit.amount, coin: view.deposit.coin })}</div>
        {view.state === 'rejected' ? <div className="hy-muted">{t('otc.merchantRejected')}</div> : null}
        <Button
          block
          color="primary"
          data-testid="otc-apply"
          onClick={() => {
            fiatApi
              .applyMerchant()
              .then(refresh)
              .catch(() => undefined);
          }}
        >
          {t('otc.applyMerchant')}
        </Button>
      </section>
    );
  }
  if (view.state === 'review') {
    return (
      <section className="hy-otc-card" data-testid="otc-merchant">
        {t('otc.merchantReview')}
      </section>
    );
  }
  return (
    <div className="hy-otc-form" data-testid="otc-merchant">
      <div className="hy-section-title">{t('otc.myAds')}</div>
      {view.ads.map((ad) => (
        <div key={ad.id}>
          <div className="hy-otc-row">
            <span>
              {ad.side === 'buy' ? t('otc.adSells', { coin: ad.coin }) : t('otc.adBuys', { coin: ad.coin })} ·{' '}
              {ad.price} {ad.fiat}
              {ad.premium !== null ? (
                <span className="hy-muted hy-small">
                  {' '}
                  ({t('otc.adFloating', { premium: signed(ad.premium) })})
                </span>
              ) : null}
              <div className="hy-muted hy-small">
                {ad.min} – {ad.max} {ad.fiat} · {ad.available} {ad.coin}
              </div>
              <div className="hy-muted hy-small" data-testid={`otc-ad-methods-${ad.id}`}>
                {ad.methods.map((method) => t(`otc.method.${method}`)).join(' / ')} ·{' '}
                {t('otc.adPayWithin', { minutes: ad.payWindowMinutes })}
              </div>
            </span>
            <Switch
              checked={ad.online}
              onChange={(online) => {
                fiatApi
                  .adOnline(ad.id, online)
                  .then(refresh)
                  .catch(() => undefined);
              }}
            />
          </div>
          <AdAmount adId={ad.id} online={ad.online} onChanged={refresh} />
        </div>
      ))}
      <AdForm onPublished={refresh} />
      <div className="hy-section-title">{t('otc.merchantOrders')}</div>
      {view.orders.map((order) => (
        <button type="button" className="hy-otc-list-row" key={order.id} onClick={() => onOpen(order.id)}>
          <span>
            #{order.id} · {order.number} {order.coin}
          </span>
          <span className="hy-num">
            {order.amount} {order.fiat}
            <div className="hy-small">{t(`otc.state.${order.state}`)}</div>
          </span>
        </button>
      ))}
    </div>
  );
}

/** Raises or lowers an ad's coin amount: a live sell ad's escrow hold follows it (the server refuses what the wallet cannot cover). */
function AdAmount(props: { adId: number; online: boolean; onChanged(view: FiatMerchantView): void }) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState('');
  function save() {
    const error = checkFiatAdAvailable(amount);
    if (error) {
      toast(ruleText(error));
      return;
    }
    fiatApi
      .adOnline(props.adId, props.online, amount)
      .then((view) => {
        setAmount('');
        props.onChanged(view);
      })
      .catch(() => undefined);
  }
  return (
    <div className="hy-otc-row">
      <Input
        value={amount}
        inputMode="decimal"
        placeholder={t('otc.term.available')}
        onChange={setAmount}
        data-testid={`otc-ad-amount-${props.adId}`}
      />
      <Button size="small" onClick={save}>
        {t('otc.setAvailable')}
      </Button>
    </div>
  );
}

/** A premium as a merchant reads it: '+1', '-0.6'. */
function signed(premium: string): string {
  return premium.startsWith('-') ? premium : `+${premium}`;
}

const LIMITS = ['min', 'max', 'available'] as const;

/** The payee details of each method, kept while a method is unticked so re-ticking it restores them. */
const NO_PAYEES: Record<FiatPayType, FiatPayee> = { bank: EMPTY_FIAT_PAYEE, wechat: EMPTY_FIAT_PAYEE };

function AdForm({ onPublished }: { onPublished(view: FiatMerchantView): void }) {
  const { t } = useTranslation();
  const [side, setSide] = useState<FiatSide>('buy');
  const [coin, setCoin] = useState('USDT');
  const [fiat, setFiat] = useState('CNY');
  const [payTypes, setPayTypes] = useState<FiatPayType[]>(['bank']);
  const [priceType, setPriceType] = useState<FiatPriceType>('fixed');
  const [limits, setLimits] = useState({ price: '', premium: '', min: '', max: '', available: '' });
  const [payees, setPayees] = useState(NO_PAYEES);
  const [windowMinutes, setWindowMinutes] = useState(String(FIAT_PAY_WINDOW_MINUTES.default));
  const [terms, setTerms] = useState('');
  async function publish() {
    // The methods in the rules' order, whatever order they were ticked in.
    const methods = FIAT_PAY_METHODS.filter((payType) => payTypes.includes(payType)).map((payType) => ({
      payType,
      payee: payees[payType],
    }));
    const payWindowMinutes = /^\d+$/.test(windowMinutes.trim()) ? Number(windowMinutes.trim()) : Number.NaN;
    const input: FiatAdInput = { side, coin, fiat, priceType, ...limits, methods, payWindowMinutes, terms };
    const error =
      checkFiatAdTerms(input) ??
      checkFiatAdMethods(fiat, methods) ??
      checkFiatPayWindow(payWindowMinutes) ??
      checkFiatAdTermsText(terms);
    if (error) {
      toast(ruleText(error));
      return;
    }
    onPublished(await fiatApi.publishAd(input));
    toast(t('otc.adPublished'));
  }
  return (
    <section className="hy-otc-card">
      <div className="hy-section-title">{t('otc.newAd')}</div>
      <Selector
        columns={2}
        options={[
          { label: t('otc.adSells', { coin }), value: 'buy' },
          { label: t('otc.adBuys', { coin }), value: 'sell' },
        ]}
        value={[side]}
        onChange={(values) => values[0] && setSide(values[0] as FiatSide)}
      />
      <div className="hy-otc-row">
        <Input value={coin} onChange={(value) => setCoin(value.toUpperCase())} placeholder="USDT" />
        <Input value={fiat} onChange={(value) => setFiat(value.toUpperCase())} placeholder="CNY" />
      </div>
      <Selector
        columns={2}
        options={[
          { label: t('otc.priceFixed'), value: 'fixed' },
          { label: t('otc.priceFloating'), value: 'floating' },
        ]}
        value={[priceType]}
        onChange={(values) => values[0] && setPriceType(values[0] as FiatPriceType)}
        data-testid="otc-price-type"
      />
      {[priceType === 'fixed' ? ('price' as const) : ('premium' as const), ...LIMITS].map((field) => (
        <div className="hy-field" key={field}>
          <div className="hy-field-label">{t(`otc.term.${field}`)}</div>
          <div className="hy-field-box">
            <Input
              value={limits[field]}
              inputMode="decimal"
              onChange={(value) => setLimits({ ...limits, [field]: value })}
            />
          </div>
        </div>
      ))}
      <div className="hy-field">
        <div className="hy-field-label">
          {t('otc.payWindow', { min: FIAT_PAY_WINDOW_MINUTES.min, max: FIAT_PAY_WINDOW_MINUTES.max })}
        </div>
        <div className="hy-field-box">
          <Input
            value={windowMinutes}
            inputMode="numeric"
            onChange={setWindowMinutes}
            data-testid="otc-ad-window"
          />
        </div>
      </div>
      <div className="hy-field-label">{t('otc.adMethods')}</div>
      <Selector
        columns={2}
        multiple
        options={FIAT_PAY_METHODS.map((value) => ({ label: t(`otc.method.${value}`), value }))}
        value={payTypes}
        onChange={setPayTypes}
        data-testid="otc-ad-methods"
      />
      {FIAT_PAY_METHODS.filter((payType) => payTypes.includes(payType)).map((payType) => (
        <div key={payType} data-testid={`otc-ad-payee-${payType}`}>
          {payTypes.length > 1 ? <div className="hy-section-title">{t(`otc.method.${payType}`)}</div> : null}
          {payeeFields(payType, fiat).map((field) => (
            <div className="hy-field" key={field}>
              <div className="hy-field-label">{t(`otc.field.${field}`)}</div>
              <div className="hy-field-box">
                <Input
                  value={payees[payType][field]}
                  onChange={(value) =>
                    setPayees({ ...payees, [payType]: { ...payees[payType], [field]: value } })
                  }
                />
              </div>
            </div>
          ))}
        </div>
      ))}
      <div className="hy-field">
        <div className="hy-field-label">{t('otc.adTerms')}</div>
        <div className="hy-field-box hy-otc-terms-box">
          <TextArea
            value={terms}
            onChange={setTerms}
            rows={3}
            autoSize={{ minRows: 3, maxRows: 8 }}
            maxLength={FIAT_AD_TERMS_MAX_CHARS}
            showCount
            data-testid="otc-ad-terms"
          />
        </div>
      </div>
      <Button
        block
        color="primary"
        onClick={() => {
          publish().catch(() => undefined);
        }}
      >
        {t('otc.publish')}
      </Button>
    </section>
  );
}
