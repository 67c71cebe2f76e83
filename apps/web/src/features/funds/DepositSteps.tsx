import { checkDepositAccess } from '@halyard/rules';
import { Button } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { UserInfo } from '../../shared/auth-store.ts';
import { useRefreshUserInfo } from '../identity/api.ts';

/** While identity verification is under review, ask again now and then: demo mode decides in seconds. */
const REVIEW_POLL_MS = 3000;

/** What a deposit address needs (spec §5 "Deposit", §6), by the shared rule the server applies too. */
export function depositRefusal(user: UserInfo | undefined) {
  if (!user) return null;
  return checkDepositAccess({
    kycVerified: user.verification === 'succeeded',
    fundPasswordSet: user.hasFundPassword,
    email: user.email,
  });
}

interface Step {
  /** The spec's message for the missing step (rules.*), shown while it is missing. */
  message: string;
  done: boolean;
  /** Where the step is done, and the screen's title: the button, and the ticked item once done. */
  path: string;
  title: string;
  testId: string;
}

/**
 * The steps before a first deposit, each with its state and a button to the
 * screen where it is done: identity verification, fund password, email.
 */
export function DepositSteps({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefreshUserInfo();
  const reviewing = user.verification === 'review';
  useEffect(() => {
    if (!reviewing) return;
    const timer = setInterval(() => void refresh(), REVIEW_POLL_MS);
    return () => clearInterval(timer);
  }, [reviewing, refresh]);

  const steps: Step[] = [
    {
      message: t('rules.verifyIdentityFirst'),
      done: user.verification === 'succeeded',
      path: '/idAuth',
      title: reviewing ? t('kyc.status.review') : t('route.idAuth'),
      testId: 'step-kyc',
    },
    {
      message: t('rules.setFundPasswordFirst'),
      done: user.hasFundPassword,
      path: '/modifyPayPass',
      title: t('route.modifyPayPass'),
      testId: 'step-fund-password',
    },
    {
      message: t('rules.bindEmailFirst'),
      done: Boolean(user.email?.trim()),
      path: '/bindEmail',
      title: t('route.bindEmail'),
      testId: 'step-email',
    },
  ];
  return (
    <section className="hy-deposit-steps" data-testid="deposit-steps">
      <div className="hy-section-title">{t('funds.depositSteps')}</div>
      <ol>
        {steps.map((step) => (
          <li key={step.path} data-testid={step.testId} data-done={step.done}>
            {/* A done step is a ticked checklist item; a missing one says what to do. */}
            <span className={step.done ? 'hy-muted' : undefined}>
              {step.done ? `✓ ${step.title}` : step.message}
            </span>
            {step.done ? null : (
              <Button size="mini" color="primary" fill="outline" onClick={() => navigate(step.path)}>
                {step.title}
              </Button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
