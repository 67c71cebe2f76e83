import { checkPassword, checkPasswordsMatch, checkRequired } from '@halyard/rules';
import { Button, Form, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AccountInput, AccountKindSwitch, DEFAULT_AREA } from '../../features/identity/AccountInput.tsx';
import { areaDigits, identityApi } from '../../features/identity/api.ts';
import { CodeButton } from '../../features/identity/CodeButton.tsx';
import { type AccountKind, checkAccount, passes } from '../../features/identity/checks.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';

/** Forgotten password, by email or phone with a code (POST /member/forgetByEmail | forgetByTel). */
export function ResetPassPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [kind, setKind] = useState<AccountKind>('email');
  const [account, setAccount] = useState('');
  const [area, setArea] = useState(DEFAULT_AREA);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');

  const submit = async () => {
    if (
      !passes(
        () => checkAccount(kind, account, t('identity.account')),
        () => checkRequired(code, t('identity.code')),
        () => checkPassword(password),
        () => checkPasswordsMatch(password, confirmPassword),
      )
    ) {
      return;
    }
    const done = await identityApi
      .resetPassword(kind, {
        account: account.trim(),
        ...(kind === 'phone' ? { areaCode: areaDigits(area) } : {}),
        code: code.trim(),
        password,
        confirmPassword,
      })
      .then(
        () => true,
        () => false,
      );
    if (!done) return;
    toast(t('resetPass.done'));
    navigate('/login', { replace: true });
  };

  return (
    <PageFrame title={t('route.resetPass')} fallback="/login">
      <AccountKindSwitch kind={kind} onChange={setKind} />
      <Form className="hy-form" layout="vertical">
        <Form.Item label={kind === 'email' ? t('identity.email') : t('identity.phone')}>
          <AccountInput kind={kind} account={account} onAccount={setAccount} area={area} onArea={setArea} />
        </Form.Item>
        <Form.Item
          label={t('identity.code')}
          extra={<CodeButton kind={kind} account={account} area={area} purpose="reset" />}
        >
          <Input
            inputMode="numeric"
            placeholder={t('identity.codePlaceholder')}
            value={code}
            onChange={setCode}
          />
        </Form.Item>
        <Form.Item label={t('identity.newPassword')} description={t('identity.passwordHint')}>
          <Input
            type="password"
            autoComplete="new-password"
            placeholder={t('identity.passwordPlaceholder')}
            value={password}
            onChange={setPassword}
          />
        </Form.Item>
        <Form.Item label={t('identity.confirmPassword')}>
          <Input
            type="password"
            autoComplete="new-password"
            placeholder={t('identity.confirmPasswordPlaceholder')}
            value={confirmPassword}
            onChange={setConfirmPassword}
          />
        </Form.Item>
      </Form>
      <p className="hy-muted" style={{ fontSize: 12, lineHeight: 1.5 }}>
        {t('resetPass.lockNote')}
      </p>
      <Button block color="primary" size="large" onClick={() => void submit()}>
        {t('common.submit')}
      </Button>
    </PageFrame>
  );
}
