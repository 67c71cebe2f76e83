import type { Locale } from '@halyard/protocol';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import cn from './cn.json';
import en from './en.json';

/** The console's languages: English first, Chinese second (issue 18); both complete. */
export const CONSOLE_LOCALES = ['en', 'cn'] as const satisfies readonly Locale[];
export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];

const LOCALE_KEY = 'halyard-console-locale';

export const ANTD_LOCALES = { en: enUS, cn: zhCN } as const;

function storedLocale(): ConsoleLocale {
  const stored = localStorage.getItem(LOCALE_KEY);
  if (stored === 'en' || stored === 'cn') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'cn' : 'en';
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: storedLocale(),
  fallbackLng: 'en',
  resources: { en: { translation: en }, cn: { translation: cn } },
  keySeparator: false,
  nsSeparator: false,
  interpolation: { prefix: '{', suffix: '}', escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export function currentLocale(): ConsoleLocale {
  return i18n.language === 'cn' ? 'cn' : 'en';
}

export async function setLocale(locale: ConsoleLocale): Promise<void> {
  localStorage.setItem(LOCALE_KEY, locale);
  await i18n.changeLanguage(locale);
  document.documentElement.lang = locale === 'cn' ? 'zh-CN' : 'en';
}
