import { checkRequired, checkTermsAgreed } from '@halyard/rules';
import { Button, Checkbox, Form, Input, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AccountKindSwitch } from '../../features/identity/AccountInput.tsx';
import { accountFields, identityApi } from '../../features/identity/api.ts';
import { checkAccount, checkNewPassword, passes } from '../../features/identity/checks.ts';
import {
  AccountField,
  CodeField,
  NewPasswordFields,
  useAccountEntry,
  useNewPassword,
} from '../../features/identity/FormFields.tsx';
import { useSignedIn } from '../../features/identity/useSignedIn.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

export function RegisterPage() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const [params] = useSearchParams();
  const entry = useAccountEntry();
  const [code, setCode] = useState('');
  const newPassword = useNewPassword();
  const { password, confirmPassword } = newPassword;
  // An invitation link is /register?code=XXXX (the user's recomurl).
  const [invitationCode, setInvitationCode] = useState(params.get('code') ?? '');
  const [agreed, setAgreed] = useState(false);
  const [doc, setDoc] = useState<'agreement' | 'privacy' | null>(null);

  const submit = async () => {
    if (
      !passes(
        () => checkAccount(entry, t('identity.account')),
        () => checkRequired(code, t('identity.code')),
        () => checkNewPassword(newPassword),
        () => checkTermsAgreed(agreed),
      )
    ) {
      return;
    }
    const result = await identityApi
      .register({
        ...accountFields(entry),
        code: code.trim(),
        password,
        confirmPassword,
        ...(invitationCode.trim() ? { invitationCode: invitationCode.trim() } : {}),
        agreed,
      })
      .catch(() => null);
    if (result) signedIn(result);
  };

  return (
    <PageFrame title={t('route.register')}>
      <AccountKindSwitch kind={entry.kind} onChange={entry.setKind} />
      <Form className="hy-form" layout="vertical">
        <AccountField entry={entry} />
        <CodeField entry={entry} purpose="register" value={code} onChange={setCode} />
        <NewPasswordFields label={t('identity.password')} value={newPassword} />
        <Form.Item label={t('identity.invitationCode')}>
          <Input
            placeholder={t('identity.optional')}
            value={invitationCode}
            onChange={setInvitationCode}
            data-testid="invitation-code"
          />
        </Form.Item>
      </Form>
      <div style={{ padding: '12px 0', fontSize: 13 }}>
        <Checkbox
          checked={agreed}
          onChange={setAgreed}
          data-testid="terms"
          style={{ '--icon-size': '18px', '--font-size': '13px' }}
        >
          {t('register.agree')}
        </Checkbox>{' '}
        <button type="button" className="hy-link" onClick={() => setDoc('agreement')}>
          {t('register.agreement')}
        </button>{' '}
        {t('register.and')}{' '}
        <button type="button" className="hy-link" onClick={() => setDoc('privacy')}>
          {t('register.privacy')}
        </button>
      </div>
      <Button block color="primary" size="large" onClick={() => void submit()} data-testid="register-submit">
        {t('register.submit')}
      </Button>
      <div className="hy-form-links" style={{ justifyContent: 'center', paddingTop: 16 }}>
        {/* The query goes along: the guard's redirect, and an invitation code a wallet sign-up keeps. */}
        <Link to={params.size > 0 ? `/login?${params}` : '/login'}>{t('register.toLogin')}</Link>
      </div>
      <Popup
        visible={doc !== null}
        onMaskClick={() => setDoc(null)}
        bodyStyle={{ maxHeight: '70vh', overflowY: 'auto', padding: 20, borderRadius: '12px 12px 0 0' }}
      >
        {doc ? (
          <article>
            <h3 style={{ marginTop: 0 }}>{t(`register.${doc}`)}</h3>
            <p style={{ lineHeight: 1.6, whiteSpace: 'pre-wrap' }}>{t(`register.${doc}Text`)}</p>
            <Button block onClick={() => setDoc(null)}>
              {t('common.close')}
            </Button>
          </article>
        ) : null}
      </Popup>
    </PageFrame>
  );
}
