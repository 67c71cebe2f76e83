import { DEFAULT_LOCALE, type Locale, toLocale } from '@halyard/protocol';

/**
 * Spec §1: the stored choice, else the first browser language we speak, else English.
 * `browserLanguages` is `navigator.languages` (most preferred first).
 */
export function chooseLocale(stored: string | null, browserLanguages: readonly string[]): Locale {
  const chosen = toLocale(stored);
  if (chosen) return chosen;
  for (const tag of browserLanguages) {
    const locale = toLocale(tag);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}

/** The BCP 47 tag Intl and antd-mobile expect for each of our locale codes. */
export const INTL_TAGS: Record<Locale, string> = {
  cn: 'zh-CN',
  tw: 'zh-TW',
  en: 'en-US',
  jp: 'ja-JP',
  ko: 'ko-KR',
  tr: 'tr-TR',
  vi: 'vi-VN',
  id: 'id-ID',
  ru: 'ru-RU',
};

/** Each language by its own name, for the language picker. */
export const LOCALE_NAMES: Record<Locale, string> = {
  cn: '简体中文',
  tw: '繁體中文',
  en: 'English',
  jp: '日本語',
  ko: '한국어',
  tr: 'Türkçe',
  vi: 'Tiếng Việt',
  id: 'Bahasa Indonesia',
  ru: 'Русский',
};
