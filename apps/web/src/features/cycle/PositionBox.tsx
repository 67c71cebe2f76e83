import type { CyclePosition, Locale } from '@halyard/protocol';
import { type PointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../shared/format.ts';
import { boxTop, standing } from './calc.ts';

interface PositionBoxProps {
  position: CyclePosition;
  index: number;
  price: string;
  secondsLeft: number;
  priceAccuracy: number;
}

/**
 * Spec §2: a draggable floating box per open position (pair, direction,
 * winning or not, open price, amount, countdown), 150 px apart from 100 px.
 */
export function PositionBox({ position, index, price, secondsLeft, priceAccuracy }: PositionBoxProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [place, setPlace] = useState({ top: boxTop(index), right: 8 });
  const drag = useRef<{ x: number; y: number; top: number; right: number } | null>(null);
  const state = standing(position, price);

  const start = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, ...place };
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    const from = drag.current;
    if (!from) return;
    setPlace({
      top: Math.max(0, from.top + event.clientY - from.y),
      right: Math.max(0, from.right - (event.clientX - from.x)),
    });
  };
  const end = () => {
    drag.current = null;
  };

  return (
    <div
      className={`hy-cycle-box ${state}`}
      data-testid="cycle-box"
      style={{ top: place.top, right: place.right }}
      onPointerDown={start}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
    >
      <div className="hy-cycle-box-head">
        <b>
          {position.tradcoin}/{position.maincoin}
        </b>
        <span className={position.type === 'buy' ? 'hy-up' : 'hy-down'}>
          {t(position.type === 'buy' ? 'cycle.up' : 'cycle.down')}
        </span>
      </div>
      <div className="hy-cycle-box-count" data-testid="cycle-countdown">
        {secondsLeft}
        <small>s</small>
      </div>
      <div className={state === 'winning' ? 'hy-up' : state === 'losing' ? 'hy-down' : 'hy-muted'}>
        {t(`cycle.${state}`)}
      </div>
      <div className="hy-muted">
        {t('cycle.openPrice')} {formatMoney(position.open_price, priceAccuracy, locale)}
      </div>
      <div className="hy-muted">
        {t('cycle.amount')} {formatMoney(position.number, 4, locale)} {position.paycoin}
      </div>
    </div>
  );
}
