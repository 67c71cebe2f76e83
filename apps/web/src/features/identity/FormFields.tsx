import { Form, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountInput, DEFAULT_AREA } from './AccountInput.tsx';
import type { AccountEntry, CodePurpose } from './api.ts';
import { CodeButton } from './CodeButton.tsx';
import type { AccountKind } from './checks.ts';

/** The state of an account entry; `kind` starts as given and changes with the email/phone switch. */
export function useAccountEntry(initialKind: AccountKind = 'email') {
  const [kind, setKind] = useState<AccountKind>(initialKind);
  const [account, setAccount] = useState('');
  const [area, setArea] = useState(DEFAULT_AREA);
  return { kind, setKind, account, setAccount, area, setArea };
}

type AccountEntryState = ReturnType<typeof useAccountEntry>;

/** The account field of a form, labelled "Email" or "Phone" unless told otherwise. */
export function AccountField({ entry, label }: { entry: AccountEntryState; label?: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label ?? (entry.kind === 'email' ? t('identity.email') : t('identity.phone'))}>
      <AccountInput
        kind={entry.kind}
        account={entry.account}
        onAccount={entry.setAccount}
        area={entry.area}
        onArea={entry.setArea}
      />
    </Form.Item>
  );
}

interface CodeFieldProps {
  entry: AccountEntry;
  purpose: CodePurpose;
  value: string;
  onChange(value: string): void;
}

/**
 * The verification-code field, with the button that sends the code to the
 * entry's account. In demo mode without email or SMS the server answers the
 * code: it is filled in and shown, marked DEMO, to this user alone.
 */
export function CodeField({ entry, purpose, value, onChange }: CodeFieldProps) {
  const { t } = useTranslation();
  const [demoCode, setDemoCode] = useState<string | null>(null);
  const showDemoCode = (code: string) => {
    setDemoCode(code);
    onChange(code);
  };
  return (
    <Form.Item
      label={t('identity.code')}
      extra={<CodeButton entry={entry} purpose={purpose} onDemoCode={showDemoCode} />}
      description={
        demoCode === null ? undefined : (
          <span className="hy-demo-code" data-testid="demo-code">
            {t('identity.demoCode', { code: demoCode })}
          </span>
        )
      }
    >
      <Input
        inputMode="numeric"
        placeholder={t('identity.codePlaceholder')}
        value={value}
        onChange={onChange}
        data-testid="code"
      />
    </Form.Item>
  );
}

/** A new login password and its confirmation, as typed. */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  return { password, setPassword, confirmPassword, setConfirmPassword };
}

/**
 * The fields of a new login password and its confirmation, with the password
 * rule as the hint. `label` names the first: "Password" when registering,
 * "New password" when changing one.
 */
export function NewPasswordFields({
  label,
  value,
}: {
  label: string;
  value: ReturnType<typeof useNewPassword>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={label} description={t('identity.passwordHint')}>
        <Input
          type="password"
          autoComplete="new-password"
          placeholder={t('identity.passwordPlaceholder')}
          value={value.password}
          onChange={value.setPassword}
          data-testid="password"
        />
      </Form.Item>
      <Form.Item label={t('identity.confirmPassword')}>
        <Input
          type="password"
          autoComplete="new-password"
          placeholder={t('identity.confirmPasswordPlaceholder')}
          value={value.confirmPassword}
          onChange={value.setConfirmPassword}
          data-testid="confirm-password"
        />
      </Form.Item>
    </>
  );
}

/** Spec §6: after a password change or reset, withdrawal and fiat deposit wait 24 hours. */
export function PasswordLockNote() {
  const { t } = useTranslation();
  return (
    <p className="hy-muted" style={{ fontSize: 12, lineHeight: 1.5 }}>
      {t('resetPass.lockNote')}
    </p>
  );
}
