import { checkRequired } from '@halyard/rules';
import { Button, Form } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AccountKindSwitch } from '../../features/identity/AccountInput.tsx';
import { accountFields, identityApi } from '../../features/identity/api.ts';
import { checkAccount, checkNewPassword, passes } from '../../features/identity/checks.ts';
import {
  AccountField,
  CodeField,
  NewPasswordFields,
  PasswordLockNote,
  useAccountEntry,
  useNewPassword,
} from '../../features/identity/FormFields.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';

/** Forgotten password, by email or phone with a code (POST /member/forgetByEmail | forgetByTel). */
export function ResetPassPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const entry = useAccountEntry();
  const [code, setCode] = useState('');
  const newPassword = useNewPassword();
  const { password, confirmPassword } = newPassword;

  const submit = async () => {
    if (
      !passes(
        () => checkAccount(entry, t('identity.account')),
        () => checkRequired(code, t('identity.code')),
        () => checkNewPassword(newPassword),
      )
    ) {
      return;
    }
    const done = await identityApi
      .resetPassword(entry.kind, {
        ...accountFields(entry),
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
      <AccountKindSwitch kind={entry.kind} onChange={entry.setKind} />
      <Form className="hy-form" layout="vertical">
        <AccountField entry={entry} />
        <CodeField entry={entry} purpose="reset" value={code} onChange={setCode} />
        <NewPasswordFields label={t('identity.newPassword')} value={newPassword} />
      </Form>
      <PasswordLockNote />
      <Button block color="primary" size="large" onClick={() => void submit()}>
        {t('common.submit')}
      </Button>
    </PageFrame>
  );
}
