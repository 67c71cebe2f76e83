import type { Locale } from '@halyard/protocol';
import { checkPartialClose } from '@halyard/rules';
import { Button, Input, Popup } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ruleText } from '../../i18n/index.ts';
import { formatMoney, trendOf } from '../../shared/format.ts';
import { toast } from '../../shared/ui/toast.ts';
import { MONEY_DIGITS } from './calc.ts';
import type { Position } from './types.ts';

/**
 * Spec §2 partial close: pair, unfilled (closable) lots, profit, a quantity
 * with an "all" shortcut; spec §5 checks the quantity before asking the server.
 */
export function PartialClosePopup({
  position,
  onClose,
  onSubmit,
}: {
  position: Position | null;
  onClose(): void;
  onSubmit(position: Position, quantity: string): Promise<boolean>;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [quantity, setQuantity] = useState('');
  const autoid = position?.autoid;
  useEffect(() => {
    if (autoid !== undefined) setQuantity('');
  }, [autoid]);
  if (!position) return null;
  const submit = async () => {
    const error = checkPartialClose({ quantity, available: position.unfilled });
    if (error) {
      toast(ruleText(error));
      return;
    }
    if (await onSubmit(position, quantity)) onClose();
  };
  return (
    <Popup visible onMaskClick={onClose} bodyClassName="hy-fpopup" destroyOnClose>
      <h3>{t('perp.partialClose')}</h3>
      <dl className="hy-fcard-grid">
        <div>
          <dt className="hy-muted">{t('perp.pair')}</dt>
          <dd>
            {position.tradcoin}/{position.maincoin}
          </dd>
        </div>
        <div>
          <dt className="hy-muted">{t('perp.closable')}</dt>
          <dd>{formatMoney(position.unfilled, 0, locale)}</dd>
        </div>
        <div>
          <dt className="hy-muted">{t('perp.unrealised')}</dt>
          <dd className={trendOf(position.profit) === 'up' ? 'hy-up' : 'hy-down'}>
            {formatMoney(position.profit, MONEY_DIGITS, locale)} {position.maincoin}
          </dd>
        </div>
      </dl>
      <div className="hy-finput">
        <Input
          value={quantity}
          onChange={setQuantity}
          inputMode="numeric"
          placeholder={t('perp.closeQuantity')}
          data-testid="partial-quantity"
        />
        <button type="button" className="hy-flink" onClick={() => setQuantity(position.unfilled)}>
          {t('perp.all')}
        </button>
      </div>
      <Button block color="primary" onClick={submit} data-testid="partial-submit">
        {t('common.confirm')}
      </Button>
    </Popup>
  );
}
