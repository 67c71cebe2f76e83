import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd-mobile';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { componentTexts, i18n } from '../i18n/index.ts';
import { ApiError, RequestCancelled } from '../shared/api.ts';

/** Server errors are already toasted by the api client; retrying them would only repeat the toast. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError || error instanceof RequestCancelled) return false;
  return failureCount < 1;
}

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: shouldRetry, refetchOnWindowFocus: false } },
});

function LocalisedComponents({ children }: { children: ReactNode }) {
  const { i18n: current } = useTranslation();
  return <ConfigProvider locale={componentTexts(current.language)}>{children}</ConfigProvider>;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LocalisedComponents>{children}</LocalisedComponents>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
