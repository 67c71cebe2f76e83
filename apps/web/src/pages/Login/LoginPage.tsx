import { checkRequired } from '@halyard/rules';
import { Button, Divider, Form, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { AccountKindSwitch } from '../../features/identity/AccountInput.tsx';
import { accountFields, identityApi } from '../../features/identity/api.ts';
import { checkAccount, passes } from '../../features/identity/checks.ts';
import { AccountField, useAccountEntry } from '../../features/identity/FormFields.tsx';
import { useAfterLogin, useSignedIn } from '../../features/identity/useSignedIn.ts';
import { connectWallet, useWallet } from '../../features/wallet/wallet.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

export function LoginPage() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const afterLogin = useAfterLogin();
  const { search } = useLocation();
  const connecting = useWallet((state) => state.connecting);
  const entry = useAccountEntry();
  const [password, setPassword] = useState('');

  const submit = async () => {
    if (
      !passes(
        () => checkAccount(entry, t('identity.account')),
        () => checkRequired(password, t('identity.password')),
      )
    ) {
      return;
    }
    const result = await identityApi.login({ ...accountFields(entry), password }).catch(() => null);
    if (result) signedIn(result);
  };

  return (
    <PageFrame title={t('route.login')}>
      <h1 style={{ fontSize: 24, margin: '8px 0 16px' }}>{t('login.welcome')}</h1>
      <AccountKindSwitch kind={entry.kind} onChange={entry.setKind} />
      <Form className="hy-form" layout="vertical">
        <AccountField entry={entry} />
        <Form.Item label={t('identity.password')}>
          <Input
            type="password"
            autoComplete="current-password"
            placeholder={t('identity.passwordPlaceholder')}
            value={password}
            onChange={setPassword}
            data-testid="password"
          />
        </Form.Item>
      </Form>
      <div className="hy-form-links">
        <Link to="/resetPass">{t('login.forgot')}</Link>
        <Link to={`/register${search}`}>{t('login.toRegister')}</Link>
      </div>
      <Button block color="primary" size="large" onClick={() => void submit()} data-testid="login-submit">
        {t('login.submit')}
      </Button>
      <Divider style={{ color: 'var(--hy-muted)', borderColor: 'var(--hy-line)' }}>{t('login.or')}</Divider>
      <Button
        block
        size="large"
        loading={connecting}
        onClick={async () => {
          if (await connectWallet()) afterLogin();
        }}
        data-testid="wallet-login"
      >
        {t('login.withWallet')}
      </Button>
    </PageFrame>
  );
}
