import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { checkFuturesOrder, futuresMarginEstimate, futuresSliderQuantity } from '@halyard/rules';
import { ActionSheet, Dialog, Input, Slider } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ruleText } from '../../i18n/index.ts';
import { formatMoney } from '../../shared/format.ts';
import { toast } from '../../shared/ui/toast.ts';
import type { FuturesOrder } from './api.ts';
import { MONEY_DIGITS } from './calc.ts';
import type { ContractInfo, OrderStyle, Side, TdMode } from './types.ts';

export interface OrderFormState {
  side: Side;
  style: OrderStyle;
  tdMode: TdMode;
  lever: number;
  price: string;
  quantity: string;
  takeProfit: string;
  stopLoss: string;
}

interface OrderFormProps {
  info: ContractInfo;
  levers: number[];
  usable: string;
  state: OrderFormState;
  onChange(patch: Partial<OrderFormState>): void;
  onSubmit(order: FuturesOrder): Promise<boolean>;
}

/** The live price as the read-only market field shows it: the contract's decimals, no grouping. */
function marketPriceText(info: ContractInfo): string {
  return (Dec.tryParse(info.price) ?? Dec.ZERO).toFixed(info.price_accuracy);
}

/** The price the order is estimated and checked at: the typed one for limit, the live one for market. */
export function referencePrice(state: OrderFormState, info: ContractInfo): string {
  return state.style === 'market' ? info.price : state.price;
}

function Segments<T extends string>({
  value,
  options,
  onChange,
  testId,
}: {
  value: T;
  options: readonly { value: T; label: string; className?: string }[];
  onChange(value: T): void;
  testId: string;
}) {
  return (
    <div className="hy-fseg" data-testid={testId}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className={`${option.className ?? ''} ${option.value === value ? 'active' : ''}`}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Spec §2/§5 futures order form: margin mode, leverage, style, price (read-only
 * and live in market mode), lots with the slider, TP/SL, usable, margin and
 * fee; the browser runs the server's checks and asks for confirmation.
 */
export function OrderForm({ info, levers, usable, state, onChange, onSubmit }: OrderFormProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [percent, setPercent] = useState(0);
  const [leverOpen, setLeverOpen] = useState(false);
  const price = referencePrice(state, info);
  const coin = info.maincoin;
  const estimate = futuresMarginEstimate({
    price,
    quantity: state.quantity,
    unit: info.unit,
    lever: state.lever,
    gas: info.gas,
    usable,
    minNumber: info.minnumber,
  });

  const slide = (value: number) => {
    setPercent(value);
    const lots = futuresSliderQuantity({
      usable,
      percent: value,
      price,
      unit: info.unit,
      lever: state.lever,
      gas: info.gas,
    });
    if (Dec.parse(usable).isPositive() && (Dec.tryParse(price)?.isPositive() ?? false))
      onChange({ quantity: lots });
  };

  const submit = async () => {
    const error = checkFuturesOrder({
      side: state.side,
      style: state.style,
      price: state.price,
      latestPrice: info.price,
      quantity: state.quantity,
      minNumber: info.minnumber,
      maxNumber: info.maxnumber,
      takeProfit: state.takeProfit,
      stopLoss: state.stopLoss,
      priceAccuracy: info.price_accuracy,
    });
    if (error) {
      toast(ruleText(error));
      return;
    }
    const total = estimate ? formatMoney(estimate.total, MONEY_DIGITS, locale) : '--';
    const confirmed = await Dialog.confirm({
      title: t(state.side === 'buy' ? 'perp.confirmLong' : 'perp.confirmShort'),
      content: t('perp.confirmText', {
        quantity: state.quantity,
        pair: `${info.tradcoin}/${info.maincoin}`,
        total,
        coin,
      }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    // Spec §9: a cancelled confirm is ignored silently.
    if (!confirmed) return;
    const placed = await onSubmit({
      tradcoin: info.tradcoin,
      maincoin: info.maincoin,
      side: state.side,
      style: state.style,
      price: state.price,
      profitPrice: state.takeProfit,
      lossPrice: state.stopLoss,
      number: state.quantity,
      lever: state.lever,
      tdMode: state.tdMode,
    });
    if (placed) {
      setPercent(0);
      onChange({ quantity: '', takeProfit: '', stopLoss: '' });
    }
  };

  return (
    <div className="hy-fform" data-testid="futures-form">
      <div className="hy-frow">
        <Segments
          testId="futures-mode"
          value={state.tdMode}
          onChange={(tdMode) => onChange({ tdMode })}
          options={[
            { value: 'cross', label: t('perp.cross') },
            { value: 'lsolate', label: t('perp.isolated') },
          ]}
        />
        <button
          type="button"
          className="hy-flever"
          onClick={() => setLeverOpen(true)}
          data-testid="futures-lever"
        >
          {state.lever}×
        </button>
      </div>
      <ActionSheet
        visible={leverOpen}
        onClose={() => setLeverOpen(false)}
        cancelText={t('common.cancel')}
        actions={levers.map((lever) => ({
          key: String(lever),
          text: `${lever}×`,
          onClick: () => {
            onChange({ lever });
            setLeverOpen(false);
          },
        }))}
      />
      <Segments
        testId="futures-direction"
        value={state.side}
        onChange={(side) => onChange({ side })}
        options={[
          { value: 'buy', label: t('perp.openLong'), className: 'long' },
          { value: 'sell', label: t('perp.openShort'), className: 'short' },
        ]}
      />
      <Segments
        testId="futures-style"
        value={state.style}
        onChange={(style) => onChange({ style })}
        options={[
          { value: 'limit', label: t('perp.limit') },
          { value: 'market', label: t('perp.market') },
        ]}
      />
      <div className={`hy-finput ${state.style === 'market' ? 'readonly' : ''}`}>
        <Input
          value={state.style === 'market' ? marketPriceText(info) : state.price}
          readOnly={state.style === 'market'}
          onChange={(value) => onChange({ price: value })}
          inputMode="decimal"
          placeholder={t('perp.price')}
          data-testid="futures-price-input"
        />
        <span className="hy-finput-unit">{coin}</span>
      </div>
      <div className="hy-finput">
        <Input
          value={state.quantity}
          onChange={(quantity) => onChange({ quantity })}
          inputMode="numeric"
          placeholder={t('perp.quantityLots')}
          data-testid="futures-quantity"
        />
        <span className="hy-finput-unit">{t('perp.lots')}</span>
      </div>
      <Slider
        value={percent}
        onChange={(value) => slide(value as number)}
        step={1}
        ticks
        marks={{ 0: '', 20: '', 40: '', 60: '', 80: '', 100: '' }}
      />
      <div className="hy-finput">
        <Input
          value={state.takeProfit}
          onChange={(takeProfit) => onChange({ takeProfit })}
          inputMode="decimal"
          placeholder={t('perp.takeProfit')}
          data-testid="futures-tp"
        />
      </div>
      <div className="hy-finput">
        <Input
          value={state.stopLoss}
          onChange={(stopLoss) => onChange({ stopLoss })}
          inputMode="decimal"
          placeholder={t('perp.stopLoss')}
          data-testid="futures-sl"
        />
      </div>
      <dl className="hy-ffigures">
        <dt className="hy-muted">{t('perp.usable')}</dt>
        <dd data-testid="futures-usable">
          {formatMoney(usable, MONEY_DIGITS, locale)} {coin}
        </dd>
        <dt className="hy-muted">{t('perp.margin')}</dt>
        <dd data-testid="futures-margin">
          {estimate ? `${formatMoney(estimate.margin, MONEY_DIGITS, locale)} ${coin}` : ''}
        </dd>
        <dt className="hy-muted">{t('perp.fee')}</dt>
        <dd>{estimate ? `${formatMoney(estimate.fee, MONEY_DIGITS, locale)} ${coin}` : ''}</dd>
      </dl>
      <button
        type="button"
        className={`hy-fsubmit ${state.side}`}
        onClick={submit}
        data-testid="futures-submit"
      >
        {t(state.side === 'buy' ? 'perp.buyLong' : 'perp.sellShort')}
      </button>
    </div>
  );
}
