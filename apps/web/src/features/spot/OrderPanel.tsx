import type { Locale } from '@halyard/protocol';
import { checkSpotOrder, DISPLAY_PRECISION, SLIDER, spotSliderAmount } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { ActionSheet, Button, Dialog, Input, Slider } from 'antd-mobile';
import { DownFill } from 'antd-mobile-icons';
import { type Dispatch, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ruleText } from '../../i18n/index.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { formatMoney } from '../../shared/format.ts';
import { toast } from '../../shared/ui/toast.ts';
import { useFeeDeduction } from '../referral/api.ts';
import { percentText } from '../referral/format.ts';
import { placeSpotOrder, type SpotAccount, type SpotInfo, storeTradeSide } from './api.ts';
import type { OrderForm, OrderFormAction } from './order-form.ts';
import { PriceStepper } from './PriceStepper.tsx';

interface OrderPanelProps {
  info: SpotInfo;
  account: SpotAccount | undefined;
  form: OrderForm;
  dispatch: Dispatch<OrderFormAction>;
}

/** The slider's quick marks (25 %, 50 %, 75 %, 100 %); the slider itself moves by whole percents. */
const MARKS = Array.from(
  { length: SLIDER.max / SLIDER.markStep },
  (_, index) => (index + 1) * SLIDER.markStep,
);

/** The spot order form (spec §2/§4/§5): side tabs, style sheet, price, amount, slider, balance, submit. */
export function OrderPanel({ info, account, form, dispatch }: OrderPanelProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const navigate = useNavigate();
  const client = useQueryClient();
  const email = useAuth((state) => state.userInfo?.email ?? null);
  const feeDeduction = useFeeDeduction().data;
  const [styleSheet, setStyleSheet] = useState(false);
  const usableMain = account?.balance.mainusable ?? '0';
  const usableTrade = account?.balance.tradusable ?? '0';
  const price = form.style === 'market' ? info.price : form.price;
  const buying = form.side === 'buy';

  const setSide = (side: 'buy' | 'sell') => {
    storeTradeSide(side);
    dispatch({ type: 'side', side });
  };
  const slide = (value: number | [number, number]) => {
    const percent = Array.isArray(value) ? value[0] : value;
    const amount = spotSliderAmount({
      side: form.side,
      percent,
      usableMain,
      usableTrade,
      price,
      amountAccuracy: info.amount_accuracy,
    });
    dispatch({ type: 'slider', percent, amount });
  };

  /** Issue 17: the fee is taken from the coin received, or paid in HAL at a discount when deduction is on. */
  const feeCoinText = (deduction: { enabled: boolean; discount: string } | undefined, received: string) =>
    deduction?.enabled
      ? t('exchange.feeInHal', { discount: percentText(deduction.discount, locale), coin: received })
      : received;

  async function submit() {
    if (!email) {
      // Spec §5: an account without email is asked to bind one first.
      const bind = await Dialog.confirm({
        content: t('exchange.bindEmailPrompt'),
        confirmText: t('exchange.bindEmailNow'),
        cancelText: t('common.cancel'),
      });
      if (bind) navigate('/bindEmail');
      return;
    }
    const error = checkSpotOrder({
      side: form.side,
      style: form.style,
      price: form.price,
      amount: form.amount,
      latestPrice: info.price,
      minNumber: info.minnumber,
      maxNumber: info.maxnumber,
      usableMain,
      usableTrade,
      email,
    });
    if (error) {
      toast(ruleText(error));
      return;
    }
    const confirmed = await Dialog.confirm({
      title: t(buying ? 'exchange.confirmBuyTitle' : 'exchange.confirmSellTitle', { coin: info.tradcoin }),
      content: (
        <div className="hy-confirm-lines">
          <div>
            <span>{t('exchange.price')}</span>
            <b>{form.style === 'market' ? t('exchange.marketPrice') : `${form.price} ${info.maincoin}`}</b>
          </div>
          <div>
            <span>{t('exchange.amount')}</span>
            <b>
              {form.amount} {info.tradcoin}
            </b>
          </div>
          <div>
            <span>{t('exchange.feeIn')}</span>
            <b data-testid="confirm-fee-coin">
              {feeCoinText(feeDeduction, buying ? info.tradcoin : info.maincoin)}
            </b>
          </div>
        </div>
      ),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    await placeSpotOrder(info, form.side, form.style, form.price, form.amount);
    toast(t('exchange.placed'));
    dispatch({ type: 'placed' });
    await client.invalidateQueries({ queryKey: ['spot'] });
  }

  return (
    <section className="hy-order-panel">
      <div className="hy-side-tabs" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={buying}
          className={buying ? 'buy active' : 'buy'}
          onClick={() => setSide('buy')}
        >
          {t('exchange.buy')}
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={!buying}
          className={buying ? 'sell' : 'sell active'}
          onClick={() => setSide('sell')}
        >
          {t('exchange.sell')}
        </button>
      </div>
      <button
        type="button"
        className="hy-style-pick"
        data-testid="order-style"
        onClick={() => setStyleSheet(true)}
      >
        {t(form.style === 'limit' ? 'exchange.limit' : 'exchange.market')} <DownFill fontSize={10} />
      </button>
      <ActionSheet
        visible={styleSheet}
        onClose={() => setStyleSheet(false)}
        cancelText={t('common.cancel')}
        actions={(['limit', 'market'] as const).map((style) => ({
          key: style,
          text: t(style === 'limit' ? 'exchange.limit' : 'exchange.market'),
          onClick: () => {
            dispatch({ type: 'style', style });
            setStyleSheet(false);
          },
        }))}
      />
      <PriceStepper
        value={form.style === 'market' ? formatMoney(info.price, info.price_accuracy, locale) : form.price}
        accuracy={info.price_accuracy}
        readOnly={form.style === 'market'}
        onChange={(value) => dispatch({ type: 'price', price: value })}
      />
      <div className="hy-amount-input" data-testid="amount">
        <Input
          value={form.amount}
          inputMode="decimal"
          placeholder={`${t('exchange.amount')} (${info.tradcoin})`}
          onChange={(value) => dispatch({ type: 'amount', amount: value })}
        />
      </div>
      <div className="hy-slider" data-testid="slider">
        {/* No `marks` prop: antd-mobile then snaps every drag and tap to the nearest mark. */}
        <Slider min={SLIDER.min} max={SLIDER.max} step={1} value={form.percent} onChange={slide} />
        <div className="hy-slider-marks">
          {MARKS.map((mark) => (
            <button
              type="button"
              key={mark}
              style={{ left: `${mark}%` }}
              aria-pressed={form.percent === mark}
              onClick={() => slide(mark)}
            >
              {mark}%
            </button>
          ))}
        </div>
      </div>
      <div className="hy-usable">
        <span className="hy-muted">{t('exchange.usable')}</span>
        <span className="hy-num" data-testid="usable">
          {buying
            ? `${formatMoney(usableMain, DISPLAY_PRECISION.balance, locale)} ${info.maincoin}`
            : `${formatMoney(usableTrade, info.amount_accuracy, locale)} ${info.tradcoin}`}
        </span>
      </div>
      <Button
        block
        className={buying ? 'hy-submit buy' : 'hy-submit sell'}
        data-testid="place-order"
        onClick={() => {
          submit().catch(() => undefined);
        }}
      >
        {t(buying ? 'exchange.buyCoin' : 'exchange.sellCoin', { coin: info.tradcoin })}
      </Button>
    </section>
  );
}
