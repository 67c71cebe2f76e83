import type { Locale } from '@halyard/protocol';
import { useTranslation } from 'react-i18next';
import {
  type CardField,
  type CardHeader,
  closedFields,
  entrustCard,
  isTextKey,
  positionCard,
} from './calc.ts';
import type { Entrust, Position } from './types.ts';

function CardTop({ header }: { header: CardHeader }) {
  const { t } = useTranslation();
  return (
    <div className="hy-fcard-top">
      <span className={`hy-fcard-side ${header.side === 'buy' ? 'up' : 'down'}`}>{t(header.direction)}</span>
      <span className="hy-fcard-tag">{t(header.mode)}</span>
      <span className="hy-fcard-tag">{header.lever}</span>
      <strong>{header.pair}</strong>
      <span className="hy-muted hy-fcard-time">{header.time}</span>
    </div>
  );
}

function Fields({ fields }: { fields: readonly CardField[] }) {
  const { t } = useTranslation();
  return (
    <dl className="hy-fcard-grid">
      {fields.map((field) => (
        <div key={field.label}>
          <dt className="hy-muted">{t(field.label)}</dt>
          <dd className={field.tone ? `hy-${field.tone}` : undefined}>
            {isTextKey(field.value) ? t(field.value) : field.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Spec §2 entrust card with its cancel action while open (the page asks for confirmation), its state once finished. */
export function EntrustCard({ entrust, onCancel }: { entrust: Entrust; onCancel?: () => void }) {
  const { t, i18n } = useTranslation();
  const view = entrustCard(entrust, i18n.language as Locale, !onCancel);
  return (
    <article className="hy-fcard" data-testid="entrust-card">
      <CardTop header={view.header} />
      <Fields fields={view.fields} />
      {onCancel ? (
        <div className="hy-fcard-actions">
          <button type="button" onClick={onCancel} data-testid="entrust-cancel">
            {t('perp.cancelOrder')}
          </button>
        </div>
      ) : (
        <div className="hy-muted">{t(`perp.state.${entrust.state}`)}</div>
      )}
    </article>
  );
}

interface PositionCardProps {
  position: Position;
  onTpSl(): void;
  onCloseAll(): void;
  onPartial(): void;
  onPoster(): void;
}

/**
 * Spec §2 position card: tapping the card opens the poster; the buttons set
 * TP/SL (with the count of profit orders), close all or part of it.
 */
export function PositionCard({ position, onTpSl, onCloseAll, onPartial, onPoster }: PositionCardProps) {
  const { t, i18n } = useTranslation();
  const view = positionCard(position, i18n.language as Locale);
  return (
    <article className="hy-fcard" data-testid="position-card">
      <button type="button" className="hy-fcard-body" onClick={onPoster} data-testid="position-poster">
        <CardTop header={view.header} />
        <div className="hy-fcard-pnl">
          <div>
            <div className="hy-muted">{t('perp.unrealised')}</div>
            <div className={`hy-${view.tone}`} data-testid="position-profit">
              {view.profit}
            </div>
          </div>
          <div>
            <div className="hy-muted">{t('perp.profitRate')}</div>
            <div className={`hy-${view.tone}`}>{view.percent}</div>
          </div>
        </div>
        <Fields fields={view.fields} />
      </button>
      <div className="hy-fcard-actions">
        <button type="button" onClick={onTpSl} data-testid="position-tpsl">
          {t('perp.tpSl')} ({position.profitOrder})
        </button>
        <button type="button" onClick={onPartial} data-testid="position-partial">
          {t('perp.partialClose')}
        </button>
        <button type="button" onClick={onCloseAll} data-testid="position-close">
          {t('perp.closeAll')}
        </button>
      </div>
    </article>
  );
}

/** A closed position of the history list; tapping opens its poster. */
export function ClosedPositionCard({ position, onPoster }: { position: Position; onPoster(): void }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const view = positionCard({ ...position, profit: position.last_profit }, locale);
  return (
    <article className="hy-fcard" data-testid="closed-position">
      <button type="button" className="hy-fcard-body" onClick={onPoster}>
        <CardTop header={view.header} />
        <div className="hy-fcard-pnl">
          <div>
            <div className="hy-muted">{t('perp.realised')}</div>
            <div className={`hy-${view.tone}`}>{view.profit}</div>
          </div>
          <div>
            <div className="hy-muted">
              {t(position.state === 'liquidated' ? 'perp.liquidated' : 'perp.closed')}
            </div>
            <div className={`hy-${view.tone}`}>{view.percent}</div>
          </div>
        </div>
        <Fields fields={closedFields(position, locale)} />
      </button>
    </article>
  );
}
