import { Input, Popup, SearchBar, Segmented } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { type AreaCode, useAreaCodes } from '../content/api.ts';
import type { AccountKind } from './checks.ts';
import './identity.css';

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

/** Matches a name, the ISO region code or the calling code ("uk", "GB", "+44", "44"). */
function matchesArea(entry: AreaCode, needle: string): boolean {
  if (needle === '') return true;
  const digits = needle.replace(/^\+/, '');
  return (
    entry.country.toLowerCase().includes(needle) ||
    entry.region.toLowerCase() === needle ||
    (/^\d+$/.test(digits) && entry.initials.slice(1).startsWith(digits))
  );
}

/**
 * The area-code picker of the phone field (GET /home/areaCode: every region,
 * featured ones first): a sheet with a search over names and codes.
 */
export function AreaCodePicker({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const { data } = useAreaCodes();
  const needle = search.trim().toLowerCase();
  const shown = (data ?? []).filter((entry) => matchesArea(entry, needle));
  const close = () => {
    setOpen(false);
    setSearch('');
  };
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        data-testid="area-code"
        aria-label={`${t('identity.areaCode')} ${value}`}
        className="hy-area-button"
      >
        {value} <DownOutline fontSize={10} />
      </button>
      <Popup visible={open} onMaskClick={close} onClose={close} bodyClassName="hy-area-sheet">
        <div className="hy-area-head">
          <b>{t('identity.areaCode')}</b>
          <button type="button" className="hy-area-close" onClick={close}>
            {t('common.cancel')}
          </button>
        </div>
        <SearchBar
          placeholder={t('identity.areaSearch')}
          value={search}
          onChange={setSearch}
          data-testid="area-search"
        />
        <div className="hy-area-list" role="listbox" aria-label={t('identity.areaCode')}>
          {shown.length === 0 ? <EmptyState>{t('identity.areaNone')}</EmptyState> : null}
          {shown.map((entry) => (
            <button
              type="button"
              role="option"
              aria-selected={entry.initials === value}
              key={entry.region}
              className="hy-area-option"
              data-testid={`area-${entry.region}`}
              onClick={() => {
                onChange(entry.initials);
                close();
              }}
            >
              <span>{entry.country}</span>
              <span className="hy-muted hy-num">{entry.initials}</span>
            </button>
          ))}
        </div>
      </Popup>
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
