import type { Locale, ReferralSummary } from '@halyard/protocol';
import { Button, Input, Switch } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReferralActions } from '../../features/referral/api.ts';
import { kickbackRate, ratePercent } from '../../features/referral/format.ts';
import { formatDateTime } from '../../shared/format.ts';
import { toast } from '../../shared/ui/toast.ts';

/** Issue 17 item 2: pay trading fees in HAL at the operator's discount. */
function FeeDeduction({ summary }: { summary: ReferralSummary }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const { setFeeDeduction } = useReferralActions();
  const [saving, setSaving] = useState(false);
  const change = async (enabled: boolean) => {
    setSaving(true);
    try {
      await setFeeDeduction(enabled);
      toast(t(enabled ? 'invite.feeDeductionOn' : 'invite.feeDeductionOff'));
    } catch {
      // The client has shown the refusal; the switch keeps the server's state.
    } finally {
      setSaving(false);
    }
  };
  return (
    <section className="hy-ref-card">
      <div className="hy-ref-setting">
        <h3>{t('invite.feeDeduction')}</h3>
        <Switch
          checked={summary.feeDeduction}
          loading={saving}
          onChange={(enabled) => void change(enabled)}
          data-testid="fee-deduction"
        />
      </div>
      <p>{t('invite.feeDeductionText', { discount: ratePercent(summary.rules.halDiscount, locale) })}</p>
    </section>
  );
}

/** OKX's kickback: part of the user's level-1 rate given back to each direct friend, at most the rate. */
function Kickback({ summary }: { summary: ReferralSummary }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const { setKickback } = useReferralActions();
  const [typed, setTyped] = useState(() => ratePercent(summary.kickbackRate, locale));
  const ownRate = ratePercent(summary.rate, locale);
  const save = async () => {
    const checked = kickbackRate(typed, summary.rate);
    if ('error' in checked) {
      toast(t(checked.error, { rate: ownRate }));
      return;
    }
    await setKickback(checked.rate).then(
      () => toast(t('invite.kickbackSaved')),
      () => undefined, // the client has shown the refusal
    );
  };
  return (
    <section className="hy-ref-card">
      <h3>{t('invite.kickback')}</h3>
      <p>
        {t('invite.kickbackText', { rate: ownRate, kickback: ratePercent(summary.kickbackRate, locale) })}
      </p>
      <div className="hy-ref-inline">
        <Input
          value={typed}
          onChange={setTyped}
          inputMode="decimal"
          aria-label={t('invite.kickback')}
          data-testid="kickback-input"
        />
        <span>%</span>
        <Button size="small" color="primary" onClick={() => void save()} data-testid="kickback-save">
          {t('invite.save')}
        </Button>
      </div>
    </section>
  );
}

/** Bybit's late binding: a user without an inviter may enter a code once, within the window after sign-up. */
function BindInviter({ summary }: { summary: ReferralSummary }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const { bindInviter } = useReferralActions();
  const [code, setCode] = useState('');
  if (summary.inviter !== null) {
    return (
      <section className="hy-ref-card" data-testid="inviter">
        <div className="hy-ref-row">
          <span>{t('invite.invitedBy')}</span>
          <span>{summary.inviter}</span>
        </div>
      </section>
    );
  }
  if (!summary.canBind || summary.bindUntil === null) return null;
  const bind = () =>
    bindInviter(code.trim()).then(
      () => toast(t('invite.bound')),
      () => undefined, // the client has shown the refusal
    );
  return (
    <section className="hy-ref-card" data-testid="bind-inviter">
      <h3>{t('invite.bind')}</h3>
      <p>{t('invite.bindText', { until: formatDateTime(summary.bindUntil, locale) })}</p>
      <div className="hy-ref-inline">
        <Input value={code} onChange={setCode} placeholder={t('my.invitationCode')} data-testid="bind-code" />
        <Button size="small" color="primary" disabled={code.trim() === ''} onClick={() => void bind()}>
          {t('invite.bindButton')}
        </Button>
      </div>
    </section>
  );
}

export function ReferralSettings({ summary }: { summary: ReferralSummary }) {
  return (
    <>
      <FeeDeduction summary={summary} />
      <Kickback summary={summary} />
      <BindInviter summary={summary} />
    </>
  );
}
