import type {
  OperatorBootstrapRequest,
  OperatorBootstrapStatus,
  OperatorLoginAnswer,
  OperatorLoginRequest,
  OperatorTotpConfirmAnswer,
  OperatorTotpEnrolment,
} from '@halyard/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Space, Spin, Typography } from 'antd';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../app/Layout.tsx';
import { errorText } from '../shared/errors.ts';
import { api } from '../shared/http.ts';
import { session } from '../shared/session.ts';

/** A session that must confirm a TOTP code before it opens anything else. */
interface Enrolling {
  token: string;
  email: string;
  enrolment: OperatorTotpEnrolment;
}

/** Recovery codes are shown once, right after enrolment; the console opens when they are put away. */
interface ShowingCodes {
  answer: OperatorTotpConfirmAnswer;
  token: string;
}

function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setRefusal(null);
    try {
      await action();
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, refusal, run };
}

function Refusal({ text }: { text: string | null }) {
  return text ? <Alert type="error" showIcon title={text} style={{ marginBottom: 16 }} /> : null;
}

function LoginForm({ onAnswer }: { onAnswer(answer: OperatorLoginAnswer): void }) {
  const { t } = useTranslation();
  const { busy, refusal, run } = useSubmit();
  const [recovery, setRecovery] = useState(false);
  const submit = (values: { email: string; password: string; code?: string }) =>
    run(async () => {
      const code = values.code?.trim() || undefined;
      const request: OperatorLoginRequest = {
        email: values.email.trim(),
        password: values.password,
        ...(recovery ? { recoveryCode: code } : { totp: code }),
      };
      onAnswer(await api.post<OperatorLoginAnswer>('/admin/auth/login', request));
    });
  return (
    <Form name="login" layout="vertical" onFinish={submit} requiredMark={false}>
      <Refusal text={refusal} />
      <Form.Item name="email" label={t('auth.email')} rules={[{ required: true, type: 'email' }]}>
        <Input autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('auth.password')} rules={[{ required: true }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="code"
        label={recovery ? t('auth.recoveryCode') : t('auth.totp')}
        extra={recovery ? undefined : t('auth.totpFirstTime')}
      >
        <Input autoComplete="one-time-code" inputMode={recovery ? 'text' : 'numeric'} />
      </Form.Item>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('auth.signIn')}
        </Button>
        <Button type="link" onClick={() => setRecovery(!recovery)}>
          {recovery ? t('auth.useTotp') : t('auth.useRecoveryCode')}
        </Button>
      </Space>
    </Form>
  );
}

function BootstrapForm({ onAnswer }: { onAnswer(answer: OperatorLoginAnswer): void }) {
  const { t } = useTranslation();
  const { busy, refusal, run } = useSubmit();
  const submit = (values: OperatorBootstrapRequest & { adminToken: string }) =>
    run(async () => {
      const request: OperatorBootstrapRequest = { email: values.email.trim(), password: values.password };
      onAnswer(
        await api.post<OperatorLoginAnswer>('/admin/auth/bootstrap', request, {
          adminToken: values.adminToken,
        }),
      );
    });
  return (
    <Form name="bootstrap" layout="vertical" onFinish={submit} requiredMark={false}>
      <Typography.Paragraph type="secondary">{t('auth.bootstrapIntro')}</Typography.Paragraph>
      <Refusal text={refusal} />
      <Form.Item name="adminToken" label={t('auth.adminToken')} rules={[{ required: true }]}>
        <Input.Password autoComplete="off" />
      </Form.Item>
      <Form.Item name="email" label={t('auth.email')} rules={[{ required: true, type: 'email' }]}>
        <Input autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label={t('auth.newPassword')} rules={[{ required: true, min: 12 }]}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('auth.createAdministrator')}
      </Button>
    </Form>
  );
}

function Enrolment({
  enrolling,
  onConfirmed,
}: {
  enrolling: Enrolling;
  onConfirmed(codes: ShowingCodes): void;
}) {
  const { t } = useTranslation();
  const { busy, refusal, run } = useSubmit();
  const submit = (values: { code: string }) =>
    run(async () => {
      const answer = await api.post<OperatorTotpConfirmAnswer>(
        '/admin/auth/totp/confirm',
        { code: values.code },
        { token: enrolling.token },
      );
      onConfirmed({ answer, token: enrolling.token });
    });
  return (
    <Form name="enrol" layout="vertical" onFinish={submit} requiredMark={false}>
      <Typography.Paragraph>{t('auth.enrolIntro', { email: enrolling.email })}</Typography.Paragraph>
      <div style={{ textAlign: 'center', marginBottom: 16 }}>
        <QRCodeSVG
          value={enrolling.enrolment.otpauthUri}
          size={184}
          marginSize={2}
          title={t('auth.qrTitle')}
        />
      </div>
      <Typography.Paragraph type="secondary">
        {t('auth.enrolSecret')}{' '}
        <Typography.Text code copyable data-testid="totp-secret">
          {enrolling.enrolment.secret}
        </Typography.Text>
      </Typography.Paragraph>
      <Refusal text={refusal} />
      <Form.Item name="code" label={t('auth.totp')} rules={[{ required: true, pattern: /^\d{6}$/ }]}>
        <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('auth.confirmTotp')}
      </Button>
    </Form>
  );
}

function RecoveryCodes({ showing }: { showing: ShowingCodes }) {
  const { t } = useTranslation();
  return (
    <>
      <Alert type="warning" showIcon title={t('auth.recoveryOnce')} style={{ marginBottom: 16 }} />
      <ul className="console-codes" data-testid="recovery-codes">
        {showing.answer.recoveryCodes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button type="primary" onClick={() => session.signIn(showing.token, showing.answer.operator)}>
        {t('auth.codesSaved')}
      </Button>
    </>
  );
}

/**
 * Sign-in: e-mail, password and a TOTP code; a first sign-in enrols the authenticator (QR code,
 * then recovery codes shown once). On a fresh install the configured admin token creates the
 * first administrator (the server refuses it once one exists).
 */
export function SignIn() {
  const { t } = useTranslation();
  const [enrolling, setEnrolling] = useState<Enrolling | null>(null);
  const [codes, setCodes] = useState<ShowingCodes | null>(null);

  const onAnswer = (answer: OperatorLoginAnswer) => {
    if (answer.step === 'signedIn') session.signIn(answer.token, answer.operator);
    else setEnrolling({ token: answer.token, email: answer.operator.email, enrolment: answer.enrolment });
  };

  // A fresh install has no administrator yet: the admin token names the first one, and nobody can sign in.
  const bootstrap = useQuery({
    queryKey: ['/admin/auth/bootstrap'],
    queryFn: () => api.get<OperatorBootstrapStatus>('/admin/auth/bootstrap'),
  });
  let body = <LoginForm onAnswer={onAnswer} />;
  if (bootstrap.isPending) body = <Spin />;
  else if (bootstrap.data?.open) body = <BootstrapForm onAnswer={onAnswer} />;
  if (codes) body = <RecoveryCodes showing={codes} />;
  else if (enrolling) body = <Enrolment enrolling={enrolling} onConfirmed={setCodes} />;

  let cardTitle = bootstrap.data?.open ? t('auth.firstAdministrator') : t('app.title');
  if (enrolling) cardTitle = t('auth.enrolTitle');
  if (codes) cardTitle = t('auth.recoveryTitle');
  return (
    <div className="console-signin">
      <Card title={cardTitle} extra={<LanguageSelect />}>
        {body}
      </Card>
    </div>
  );
}
