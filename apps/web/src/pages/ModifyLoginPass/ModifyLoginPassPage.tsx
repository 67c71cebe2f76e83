import { checkPassword, checkPasswordsMatch, checkRequired } from '@halyard/rules';
import { Button, Form, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { identityApi, useRefreshUserInfo } from '../../features/identity/api.ts';
import { passes } from '../../features/identity/checks.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';

/** POST /user/editPassword: ends the other sessions and blocks withdrawals for 24 h (spec §6). */
export function ModifyLoginPassPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefreshUserInfo();
  const [oldPassword, setOldPassword] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');

  const submit = async () => {
    if (
      !passes(
        () => checkRequired(oldPassword, t('modifyLoginPass.old')),
        () => checkPassword(password),
        () => checkPasswordsMatch(password, confirmPassword),
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
        <Form.Item label={t('identity.newPassword')} description={t('identity.passwordHint')}>
          <Input
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            placeholder={t('identity.passwordPlaceholder')}
          />
        </Form.Item>
        <Form.Item label={t('identity.confirmPassword')}>
          <Input
            type="password"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={setConfirmPassword}
            placeholder={t('identity.confirmPasswordPlaceholder')}
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
