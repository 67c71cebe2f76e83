import { checkPasswordsMatch, checkPayPassword, checkRequired } from '@halyard/rules';
import { Button, Form, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AccountInput, DEFAULT_AREA } from '../../features/identity/AccountInput.tsx';
import { identityApi, useRefreshUserInfo, useUserInfo } from '../../features/identity/api.ts';
import { type AccountKind, passes } from '../../features/identity/checks.ts';
import { CodeField } from '../../features/identity/FormFields.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';

/**
 * POST /user/updatePassword: the 6-digit fund password. Setting it the first
 * time needs only the session; changing it needs a `fund` code sent to the
 * bound email (else the phone, which the user types: the server shows it masked).
 */
export function ModifyPayPassPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefreshUserInfo();
  const { data: user } = useUserInfo();
  const changing = user?.hasFundPassword ?? false;
  const kind: AccountKind = user?.email ? 'email' : 'phone';
  const [phone, setPhone] = useState('');
  const [area, setArea] = useState(user?.areaCode ? `+${user.areaCode}` : DEFAULT_AREA);
  const [code, setCode] = useState('');
  const [payPassword, setPayPassword] = useState('');
  const [confirmPayPassword, setConfirmPayPassword] = useState('');
  const account = kind === 'email' ? (user?.email ?? '') : phone;

  const submit = async () => {
    if (
      !passes(
        () => checkPayPassword(payPassword),
        () => checkPasswordsMatch(payPassword, confirmPayPassword),
        () => (changing ? checkRequired(code, t('identity.code')) : null),
      )
    ) {
      return;
    }
    const done = await identityApi
      .setFundPassword({ payPassword, confirmPayPassword, ...(changing ? { code: code.trim() } : {}) })
      .then(
        () => true,
        () => false,
      );
    if (!done) return;
    await refresh();
    toast(t('modifyPayPass.done'));
    navigate('/securityCenter', { replace: true });
  };

  const noContact = changing && !user?.email && !user?.phone;
  return (
    <PageFrame title={t('route.modifyPayPass')} fallback="/securityCenter">
      <Form className="hy-form" layout="vertical">
        {changing && kind === 'email' ? (
          <Form.Item label={t('identity.email')}>
            <div>{user?.email}</div>
          </Form.Item>
        ) : null}
        {changing && kind === 'phone' && !noContact ? (
          <Form.Item
            label={t('identity.phone')}
            description={t('modifyPayPass.phoneHint', { phone: user?.phone ?? '' })}
          >
            <AccountInput kind="phone" account={phone} onAccount={setPhone} area={area} onArea={setArea} />
          </Form.Item>
        ) : null}
        {changing && !noContact ? (
          <CodeField entry={{ kind, account, area }} purpose="fund" value={code} onChange={setCode} />
        ) : null}
        <Form.Item label={t('modifyPayPass.new')} description={t('modifyPayPass.hint')}>
          <Input
            type="password"
            inputMode="numeric"
            maxLength={6}
            value={payPassword}
            onChange={setPayPassword}
            placeholder={t('modifyPayPass.placeholder')}
          />
        </Form.Item>
        <Form.Item label={t('modifyPayPass.confirm')}>
          <Input
            type="password"
            inputMode="numeric"
            maxLength={6}
            value={confirmPayPassword}
            onChange={setConfirmPayPassword}
            placeholder={t('modifyPayPass.placeholder')}
          />
        </Form.Item>
      </Form>
      {noContact ? <p className="hy-muted">{t('modifyPayPass.bindFirst')}</p> : null}
      <div className="hy-form-footer">
        <Button block color="primary" size="large" disabled={noContact} onClick={() => void submit()}>
          {t('common.submit')}
        </Button>
      </div>
    </PageFrame>
  );
}
