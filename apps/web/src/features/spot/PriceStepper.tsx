import { Input } from 'antd-mobile';
import { AddOutline, MinusOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { stepPrice } from './price.ts';

interface PriceStepperProps {
  value: string;
  accuracy: number;
  readOnly: boolean;
  onChange(value: string): void;
}

export function PriceStepper({ value, accuracy, readOnly, onChange }: PriceStepperProps) {
  const { t } = useTranslation();
  return (
    <div className={readOnly ? 'hy-stepper read-only' : 'hy-stepper'} data-testid="price">
      {readOnly ? null : (
        <button
          type="button"
          aria-label={t('exchange.priceDown')}
          onClick={() => onChange(stepPrice(value, accuracy, -1))}
        >
          <MinusOutline />
        </button>
      )}
      <Input
        value={value}
        readOnly={readOnly}
        inputMode="decimal"
        placeholder={t('exchange.price')}
        onChange={onChange}
      />
      {readOnly ? null : (
        <button
          type="button"
          aria-label={t('exchange.priceUp')}
          onClick={() => onChange(stepPrice(value, accuracy, 1))}
        >
          <AddOutline />
        </button>
      )}
    </div>
  );
}
