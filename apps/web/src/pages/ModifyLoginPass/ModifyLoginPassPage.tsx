import { checkRequired } from '@halyard/rules';
import { Button, Form, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { identityApi, useRefreshUserInfo } from '../../features/identity/api.ts';
import { checkNewPassword, passes } from '../../features/identity/checks.ts';
import { NewPasswordFields, PasswordLockNote, useNewPassword } from '../../features/identity/FormFields.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';

/** POST /user/editPassword: ends the other sessions and blocks withdrawals for 24 h (spec §6). */
export function ModifyLoginPassPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefreshUserInfo();
  const [oldPassword, setOldPassword] = useState('');
  const newPassword = useNewPassword();
  const { password, confirmPassword } = newPassword;

  const submit = async () => {
    if (
      !passes(
        () => checkRequired(oldPassword, t('modifyLoginPass.old')),
        () => checkNewPassword(newPassword),
      )
    ) {
      return;
    }
    const done = await identityApi.changePassword({ oldPassword, password, confirmPassword }).then(
      () => true,
      () => false,
    );
    if (!done) return;
    await refresh();
    toast(t('modifyLoginPass.done'));
    navigate('/securityCenter', { replace: true });
  };

  return (
    <PageFrame title={t('route.modifyLoginPass')} fallback="/securityCenter">
      <Form className="hy-form" layout="vertical">
        <Form.Item label={t('modifyLoginPass.old')}>
          <Input
            type="password"
            autoComplete="current-password"
            value={oldPassword}
            onChange={setOldPassword}
            placeholder={t('modifyLoginPass.oldPlaceholder')}
          />
        </Form.Item>
        <NewPasswordFields label={t('identity.newPassword')} value={newPassword} />
      </Form>
      <PasswordLockNote />
      <Button block color="primary" size="large" onClick={() => void submit()}>
        {t('common.submit')}
      </Button>
    </PageFrame>
  );
}
