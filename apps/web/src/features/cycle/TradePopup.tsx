import type { CycleInfo, CycleSide, Locale } from '@halyard/protocol';
import { checkCycleOrder } from '@halyard/rules';
import { Button, Dialog, Input, Popup } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ruleText } from '../../i18n/index.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { formatMoney } from '../../shared/format.ts';
import { toast } from '../../shared/ui/toast.ts';
import { useUsable } from './api.ts';
import { expectedProfit, quantityAfterChoosing, ratePercent } from './calc.ts';

export interface TradeRequest {
  side: CycleSide;
  number: string;
  paycoin: string;
  lever: number;
}

interface TradePopupProps {
  side: CycleSide | null;
  info: CycleInfo;
  onClose(): void;
  /** Called once the checks pass and the user confirmed; resolves when the order is answered. */
  onSubmit(request: TradeRequest): Promise<boolean>;
}

/**
 * Spec §2 trade popup: pay-coin chips, usable balance, quantity, duration
 * chips, profit rate and expected profit; the loss rate is shown too before
 * the user confirms (AMENDMENTS A3). Spec §5 checks run before sending.
 */
export function TradePopup({ side, info, onClose, onSubmit }: TradePopupProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const navigate = useNavigate();
  const email = useAuth((state) => state.userInfo?.email ?? null);
  const [paycoin, setPaycoin] = useState(info.limit[0]?.paycoin ?? info.maincoin);
  const [lever, setLever] = useState(info.lever[0]?.lever ?? 0);
  const [quantity, setQuantity] = useState('');
  const usable = useUsable(paycoin, side !== null);
  const option = info.lever.find((entry) => entry.lever === lever) ?? info.lever[0];
  const profit = expectedProfit(quantity, option);

  useEffect(() => {
    if (side !== null) void usable.refetch();
  }, [side, usable.refetch]);

  const chooseLever = (seconds: number) => {
    const chosen = info.lever.find((entry) => entry.lever === seconds);
    if (!chosen) return;
    setLever(seconds);
    setQuantity((current) => quantityAfterChoosing(current, chosen));
  };

  const submit = async () => {
    if (!side || !option) return;
    if (!email) {
      const bind = await Dialog.confirm({
        content: t('rules.bindEmailFirst'),
        confirmText: t('cycle.goBind'),
        cancelText: t('common.cancel'),
      });
      if (bind) navigate('/bindEmail');
      return;
    }
    const error = checkCycleOrder({
      quantity,
      usable: usable.data?.usable ?? '0',
      min: option.minnumber,
      max: option.maxnumber,
      email,
    });
    if (error) {
      toast(ruleText(error));
      return;
    }
    if (await onSubmit({ side, number: quantity.trim(), paycoin, lever: option.lever })) {
      setQuantity('');
      onClose();
    }
  };

  const tone = side === 'buy' ? 'up' : 'down';
  return (
    <Popup visible={side !== null} onMaskClick={onClose} bodyClassName="hy-cycle-popup" destroyOnClose>
      <div data-testid="cycle-trade-popup">
        <h3 className={`hy-${tone}`}>
          {info.tradcoin}/{info.maincoin} · {t(side === 'buy' ? 'cycle.up' : 'cycle.down')}
        </h3>
        <div className="hy-cycle-label">{t('cycle.payCoin')}</div>
        <div className="hy-chips">
          {info.limit.map(({ paycoin: coin }) => (
            <button
              key={coin}
              type="button"
              className={coin === paycoin ? 'hy-chip active' : 'hy-chip'}
              onClick={() => setPaycoin(coin)}
            >
              {coin}
            </button>
          ))}
        </div>
        <div className="hy-cycle-row">
          <span className="hy-muted">{t('cycle.usable')}</span>
          <span data-testid="cycle-usable">
            {formatMoney(usable.data?.usable ?? '0', 4, locale)} {paycoin}
          </span>
        </div>
        <div className="hy-cycle-label">{t('cycle.quantity')}</div>
        <Input
          data-testid="cycle-quantity"
          className="hy-cycle-input"
          value={quantity}
          onChange={setQuantity}
          inputMode="decimal"
          placeholder={option ? t('cycle.range', { min: option.minnumber, max: option.maxnumber }) : ''}
        />
        <div className="hy-cycle-label">{t('cycle.duration')}</div>
        <div className="hy-chips">
          {info.lever.map((entry) => (
            <button
              key={entry.lever}
              type="button"
              data-testid={`cycle-lever-${entry.lever}`}
              className={entry.lever === option?.lever ? 'hy-chip active' : 'hy-chip'}
              onClick={() => chooseLever(entry.lever)}
            >
              {t('cycle.seconds', { seconds: entry.lever })}
            </button>
          ))}
        </div>
        {option ? (
          <div className="hy-cycle-terms" data-testid="cycle-terms">
            <div className="hy-cycle-row">
              <span className="hy-muted">{t('cycle.profitRate')}</span>
              <span className="hy-up">{ratePercent(option.profitGas)}%</span>
            </div>
            <div className="hy-cycle-row">
              <span className="hy-muted">{t('cycle.lossRate')}</span>
              <span className="hy-down">{ratePercent(option.lossGas)}%</span>
            </div>
            <div className="hy-cycle-row">
              <span className="hy-muted">{t('cycle.feeRate')}</span>
              <span>{ratePercent(option.gas)}%</span>
            </div>
            <div className="hy-cycle-row">
              <span className="hy-muted">{t('cycle.expectedProfit')}</span>
              <span>{profit === null ? '—' : `${formatMoney(profit, 4, locale)} ${paycoin}`}</span>
            </div>
            <p className="hy-muted hy-cycle-note">{t('cycle.settleNote')}</p>
          </div>
        ) : null}
        <Button
          block
          color={side === 'buy' ? 'success' : 'danger'}
          onClick={submit}
          data-testid="cycle-submit"
        >
          {t(side === 'buy' ? 'cycle.confirmUp' : 'cycle.confirmDown')}
        </Button>
      </div>
    </Popup>
  );
}
