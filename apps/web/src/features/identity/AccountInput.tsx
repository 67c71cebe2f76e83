import { Input, Picker, Segmented } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAreaCodes } from '../content/api.ts';
import type { AccountKind } from './checks.ts';

export const DEFAULT_AREA = '+86';

export function AccountKindSwitch({
  kind,
  onChange,
}: {
  kind: AccountKind;
  onChange(kind: AccountKind): void;
}) {
  const { t } = useTranslation();
  return (
    <Segmented
      className="hy-segment"
      block
      value={kind}
      onChange={(value) => onChange(value as AccountKind)}
      options={[
        { label: t('identity.byEmail'), value: 'email' },
        { label: t('identity.byPhone'), value: 'phone' },
      ]}
    />
  );
}

/** The area-code picker of the phone field (GET /home/areaCode, featured countries first). */
export function AreaCodePicker({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { data } = useAreaCodes();
  const columns = [
    (data ?? []).map((entry) => ({
      label: `${entry.country} ${entry.initials}`,
      value: `${entry.region}|${entry.initials}`,
    })),
  ];
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        data-testid="area-code"
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 4,
          padding: '0 8px 0 0',
          border: 0,
          background: 'none',
          color: 'var(--hy-text)',
          font: 'inherit',
        }}
      >
        {value} <DownOutline fontSize={10} />
      </button>
      <Picker
        columns={columns}
        visible={open}
        title={t('identity.areaCode')}
        confirmText={t('common.confirm')}
        cancelText={t('common.cancel')}
        onClose={() => setOpen(false)}
        onConfirm={(picked) => {
          const chosen = String(picked[0] ?? '');
          const initials = chosen.split('|')[1];
          if (initials) onChange(initials);
        }}
      />
    </>
  );
}

interface AccountInputProps {
  kind: AccountKind;
  account: string;
  onAccount(value: string): void;
  area: string;
  onArea(value: string): void;
}

export function AccountInput({ kind, account, onAccount, area, onArea }: AccountInputProps) {
  const { t } = useTranslation();
  if (kind === 'email') {
    return (
      <Input
        type="email"
        autoComplete="email"
        placeholder={t('identity.emailPlaceholder')}
        value={account}
        onChange={onAccount}
        clearable
        data-testid="account"
      />
    );
  }
  return (
    <div style={{ display: 'flex', alignItems: 'center' }}>
      <AreaCodePicker value={area} onChange={onArea} />
      <Input
        type="tel"
        autoComplete="tel-national"
        placeholder={t('identity.phonePlaceholder')}
        value={account}
        onChange={onAccount}
        clearable
        data-testid="account"
      />
    </div>
  );
}
