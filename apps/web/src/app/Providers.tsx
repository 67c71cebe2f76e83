import type { Locale } from '@halyard/protocol';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import idID from 'antd-mobile/es/locales/id-ID';
import jaJP from 'antd-mobile/es/locales/ja-JP';
import koKR from 'antd-mobile/es/locales/ko-KR';
import ruRU from 'antd-mobile/es/locales/ru-RU';
import trTR from 'antd-mobile/es/locales/tr-TR';
import viVN from 'antd-mobile/es/locales/vi-VN';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import zhTW from 'antd-mobile/es/locales/zh-TW';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from '../i18n/index.ts';
import { ApiError, RequestCancelled } from '../shared/api.ts';

const COMPONENT_LOCALES = {
  cn: zhCN,
  tw: zhTW,
  en: enUS,
  jp: jaJP,
  ko: koKR,
  tr: trTR,
  vi: viVN,
  id: idID,
  ru: ruRU,
};

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
  return (
    <ConfigProvider locale={COMPONENT_LOCALES[current.language as Locale] ?? enUS}>{children}</ConfigProvider>
  );
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
