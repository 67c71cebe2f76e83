import type { Locale } from '@halyard/protocol';
import { checkPositionTpSl } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Input, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addTrigger,
  cancelTrigger,
  editTrigger,
  type TpSl,
  usePosition,
  useTriggers,
} from '../../features/futures/api.ts';
import { directionKey, modeKey } from '../../features/futures/calc.ts';
import { futuresSession } from '../../features/futures/session.ts';
import type { Position, Trigger } from '../../features/futures/types.ts';
import { ruleText } from '../../i18n/index.ts';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';
import '../../features/futures/futures.css';

type Editing = { kind: 'add' } | { kind: 'edit'; trigger: Trigger };

const EMPTY: TpSl = { profitPrice: '', lossPrice: '', number: '' };

function TpSlPopup({
  position,
  editing,
  onClose,
  onSaved,
}: {
  position: Position;
  editing: Editing;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<TpSl>(() =>
    editing.kind === 'edit'
      ? {
          profitPrice: editing.trigger.profitPrice,
          lossPrice: editing.trigger.lossPrice,
          number: editing.trigger.number,
        }
      : EMPTY,
  );
  const save = async () => {
    // Spec §5: at least one; a long's TP not below the open price and SL not above, a short's the reverse.
    const error = checkPositionTpSl({
      side: position.type === 'buy' ? 'long' : 'short',
      openPrice: position.price,
      takeProfit: values.profitPrice,
      stopLoss: values.lossPrice,
      priceAccuracy: position.point,
    });
    if (error) {
      toast(ruleText(error));
      return;
    }
    try {
      if (editing.kind === 'edit') await editTrigger(editing.trigger.id, values);
      else await addTrigger(position.autoid, values);
      onSaved();
    } catch {
      // the api client showed the server's message
    }
  };
  // A visible label tied to each input: a placeholder alone disappears as soon as a value is typed.
  const field = (name: keyof TpSl, label: string) => (
    <div className="hy-ffield">
      <label htmlFor={`tpsl-${name}`}>{label}</label>
      <div className="hy-finput">
        <Input
          id={`tpsl-${name}`}
          value={values[name]}
          onChange={(value) => setValues((held) => ({ ...held, [name]: value }))}
          inputMode="decimal"
          data-testid={`tpsl-${name}`}
        />
      </div>
    </div>
  );
  return (
    <Popup visible onMaskClick={onClose} bodyClassName="hy-fpopup" destroyOnClose>
      <h3>{t(editing.kind === 'edit' ? 'perp.editTpSl' : 'perp.addTpSl')}</h3>
      {field('profitPrice', t('perp.takeProfit'))}
      {field('lossPrice', t('perp.stopLoss'))}
      {field('number', t('perp.tpSlLots'))}
      <Button block color="primary" onClick={save} data-testid="tpsl-save">
        {t('common.confirm')}
      </Button>
    </Popup>
  );
}

/** Spec §2 /stopPl: the TP/SL orders of the position stored before leaving the futures screen. */
export function StopPlPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const client = useQueryClient();
  const [stored] = useState(() => futuresSession.position());
  const fresh = usePosition(stored?.autoid ?? null);
  const position = fresh.data ?? (fresh.isFetched ? null : stored);
  const triggers = useTriggers(stored?.autoid ?? null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const reload = () => {
    void client.invalidateQueries({ queryKey: ['futures'] });
  };
  const cancel = async (trigger: Trigger) => {
    const ok = await Dialog.confirm({
      content: t('perp.cancelTpSlConfirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await cancelTrigger(trigger.id);
      reload();
    } catch {
      // the api client showed the server's message
    }
  };
  const price = (text: string) => (text === '' ? '--' : formatMoney(text, position?.point ?? 2, locale));
  return (
    <PageFrame title={t('route.stopPl')} fallback="/futures">
      <div className="hy-futures" data-testid="stoppl-page">
        {position ? (
          <>
            <article className="hy-fcard">
              <div className="hy-fcard-top">
                <span className={`hy-fcard-side ${position.type === 'buy' ? 'up' : 'down'}`}>
                  {t(directionKey(position.type))}
                </span>
                <span className="hy-fcard-tag">{t(modeKey(position.tdMode))}</span>
                <span className="hy-fcard-tag">{position.lever}×</span>
                <strong>
                  {position.tradcoin}/{position.maincoin}
                </strong>
              </div>
              <dl className="hy-fcard-grid">
                <div>
                  <dt className="hy-muted">{t('perp.openPrice')}</dt>
                  <dd>{price(position.price)}</dd>
                </div>
                <div>
                  <dt className="hy-muted">{t('perp.markPrice')}</dt>
                  <dd>{price(position.mark_price)}</dd>
                </div>
                <div>
                  <dt className="hy-muted">{t('perp.quantity')}</dt>
                  <dd>{formatMoney(position.number, 0, locale)}</dd>
                </div>
              </dl>
            </article>
            {(triggers.data ?? []).map((trigger) => (
              <article key={trigger.id} className="hy-fcard" data-testid="tpsl-order">
                <dl className="hy-fcard-grid">
                  <div>
                    <dt className="hy-muted">{t('perp.takeProfit')}</dt>
                    <dd className="hy-up">{price(trigger.profitPrice)}</dd>
                  </div>
                  <div>
                    <dt className="hy-muted">{t('perp.stopLoss')}</dt>
                    <dd className="hy-down">{price(trigger.lossPrice)}</dd>
                  </div>
                  <div>
                    <dt className="hy-muted">{t('perp.quantity')}</dt>
                    <dd>{trigger.number === '' ? t('perp.all') : formatMoney(trigger.number, 0, locale)}</dd>
                  </div>
                </dl>
                <div className="hy-muted hy-fcard-time">{formatDateTime(trigger.wdate, locale)}</div>
                <div className="hy-fcard-actions">
                  <button type="button" onClick={() => setEditing({ kind: 'edit', trigger })}>
                    {t('perp.edit')}
                  </button>
                  <button type="button" onClick={() => void cancel(trigger)}>
                    {t('perp.cancelOrder')}
                  </button>
                </div>
              </article>
            ))}
            {triggers.data?.length === 0 ? <div className="hy-fempty">{t('perp.noTpSl')}</div> : null}
            <Button block color="primary" onClick={() => setEditing({ kind: 'add' })} data-testid="tpsl-add">
              {t('perp.addTpSl')}
            </Button>
            {editing ? (
              <TpSlPopup
                position={position}
                editing={editing}
                onClose={() => setEditing(null)}
                onSaved={() => {
                  setEditing(null);
                  toast(t('perp.tpSlSaved'));
                  reload();
                }}
              />
            ) : null}
          </>
        ) : (
          <div className="hy-fempty">{t('perp.noPositions')}</div>
        )}
      </div>
    </PageFrame>
  );
}
