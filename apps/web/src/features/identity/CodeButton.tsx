import { Button } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../shared/ui/toast.ts';
import { type AccountEntry, accountFields, type CodePurpose, identityApi } from './api.ts';
import { checkAccount, passes } from './checks.ts';

interface CodeButtonProps {
  entry: AccountEntry;
  purpose: CodePurpose;
  /** Demo mode without email or SMS: the server answered the code itself. */
  onDemoCode(code: string): void;
}

/** Sends a verification code (GET /user/getCode) and counts down the server's resend cooldown. */
export function CodeButton({ entry, purpose, onDemoCode }: CodeButtonProps) {
  const { t } = useTranslation();
  const [wait, setWait] = useState(0);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);
  const send = async () => {
    if (!passes(() => checkAccount(entry, t('identity.account')))) return;
    const result = await identityApi.sendCode({ ...accountFields(entry), purpose }).catch(() => null);
    if (!result) return;
    if (result.demoCode === undefined) toast(t('identity.codeSent'));
    else onDemoCode(result.demoCode);
    setWait(result.cooldownSeconds);
  };
  return (
    <Button
      size="small"
      fill="none"
      color="primary"
      disabled={wait > 0}
      onClick={() => void send()}
      data-testid="send-code"
    >
      {wait > 0 ? t('identity.resendIn', { seconds: wait }) : t('identity.sendCode')}
    </Button>
  );
}
