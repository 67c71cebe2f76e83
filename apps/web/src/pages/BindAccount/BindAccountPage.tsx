import { checkRequired } from '@halyard/rules';
import { Button, Form } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { accountFields, identityApi, useRefreshUserInfo, useUserInfo } from '../../features/identity/api.ts';
import { type AccountKind, checkAccount, passes } from '../../features/identity/checks.ts';
import { AccountField, CodeField, useAccountEntry } from '../../features/identity/FormFields.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';

/** Binds or replaces the email or phone with a code sent to the new one (POST /user/setNewTelOrEmail). */
function BindAccountPage({ kind }: { kind: AccountKind }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefreshUserInfo();
  const { data: user } = useUserInfo();
  const entry = useAccountEntry(kind);
  const [code, setCode] = useState('');
  const current = kind === 'email' ? user?.email : user?.phone;

  const submit = async () => {
    if (
      !passes(
        () => checkAccount(entry, t('identity.account')),
        () => checkRequired(code, t('identity.code')),
      )
    ) {
      return;
    }
    const done = await identityApi
      .bindAccount({
        ...accountFields(entry),
        code: code.trim(),
      })
      .then(
        () => true,
        () => false,
      );
    if (!done) return;
    await refresh();
    toast(t('bind.done'));
    navigate('/securityCenter', { replace: true });
  };

  return (
    <PageFrame title={t(kind === 'email' ? 'route.bindEmail' : 'route.bindPhone')} fallback="/securityCenter">
      {current ? (
        <p className="hy-muted" style={{ fontSize: 13 }}>
          {t('bind.current', { account: current })}
        </p>
      ) : null}
      <Form className="hy-form" layout="vertical">
        <AccountField entry={entry} label={kind === 'email' ? t('bind.newEmail') : t('bind.newPhone')} />
        <CodeField entry={entry} purpose="bind" value={code} onChange={setCode} />
      </Form>
      <div className="hy-form-footer">
        <Button block color="primary" size="large" onClick={() => void submit()}>
          {t('common.submit')}
        </Button>
      </div>
    </PageFrame>
  );
}

export function BindEmailPage() {
  return <BindAccountPage kind="email" />;
}

export function BindPhonePage() {
  return <BindAccountPage kind="phone" />;
}
