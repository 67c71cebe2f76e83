import type { OperatorMe } from '@halyard/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter } from 'react-router';
import { ANTD_LOCALES, currentLocale } from '../i18n/index.ts';
import { SignIn } from '../pages/SignIn.tsx';
import { errorText } from '../shared/errors.ts';
import { api } from '../shared/http.ts';
import { session, useSession } from '../shared/session.ts';
import { ConsoleLayout } from './Layout.tsx';

const queryClient = new QueryClient({
  defaultOptions: {
    // Operators act on what they see: a queue is re-read when they come back to it, never retried blindly.
    queries: { retry: false, refetchOnWindowFocus: true, staleTime: 5_000 },
  },
});

/** With a stored token, who it belongs to (GET /admin/auth/me); a refused token signs out. */
function useRestoredOperator(): { loading: boolean; failure: string | null } {
  const { token, operator } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const loading = token !== null && operator === null && failure === null;
  useEffect(() => {
    if (!token || operator) return;
    api
      .get<OperatorMe>('/admin/auth/me')
      .then((me) => (me.totpEnrolled ? session.setOperator(me) : session.signOut()))
      .catch((error: unknown) => {
        if (session.token()) setFailure(errorText(error));
      });
  }, [token, operator]);
  return { loading, failure };
}

function Console() {
  const { operator } = useSession();
  const { loading, failure } = useRestoredOperator();
  if (failure) return <Result status="warning" title={failure} />;
  if (loading) return <Spin fullscreen />;
  if (!operator) return <SignIn />;
  return (
    <HashRouter>
      <ConsoleLayout operator={operator} />
    </HashRouter>
  );
}

export function App() {
  const { t } = useTranslation();
  const title = t('app.title');
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <ConfigProvider locale={ANTD_LOCALES[currentLocale()]} theme={{ token: { colorPrimary: '#1f6feb' } }}>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <Console />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
