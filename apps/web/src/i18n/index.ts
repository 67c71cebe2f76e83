import { LOCALES, type Locale, messages } from '@halyard/protocol';
import type { RuleError } from '@halyard/rules';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCAL_KEYS, local } from '../shared/storage.ts';
import cn from './cn.json';
import en from './en.json';
import id from './id.json';
import jp from './jp.json';
import ko from './ko.json';
import { chooseLocale } from './locale.ts';
import ru from './ru.json';
import tr from './tr.json';
import tw from './tw.json';
import vi from './vi.json';

/** The app's own texts, one flat JSON per locale (a test checks every key is in every file). */
export const APP_TEXTS: Record<Locale, Record<string, string>> = { cn, tw, en, jp, ko, tr, vi, id, ru };

/**
 * One i18next instance for both catalogues: `app` (the JSON files) and
 * `server` (the server's and the rules' messages from @halyard/protocol), so a
 * rule broken in the browser reads exactly as the server would word it. Both
 * use `{name}` placeholders; keys are flat ("home.notice"), never nested.
 */
export function createI18n(locale: Locale) {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'en',
    supportedLngs: [...LOCALES],
    resources: Object.fromEntries(
      LOCALES.map((code) => [code, { app: APP_TEXTS[code], server: messages[code] }]),
    ),
    ns: ['app', 'server'],
    defaultNS: 'app',
    fallbackNS: 'server',
    keySeparator: false,
    nsSeparator: false,
    interpolation: { prefix: '{', suffix: '}', escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

export const i18n = createI18n(
  chooseLocale(local.get(LOCAL_KEYS.locale), typeof navigator === 'undefined' ? [] : navigator.languages),
);

export function currentLocale(): Locale {
  return i18n.language as Locale;
}

/** Stores the choice (spec §1) and switches every screen; the next request carries it. */
export async function setLocale(locale: Locale): Promise<void> {
  local.set(LOCAL_KEYS.locale, locale);
  document.documentElement.lang = locale;
  await i18n.changeLanguage(locale);
}

/** A rule failure from @halyard/rules in the user's language. */
export function ruleText(error: RuleError): string {
  return i18n.t(error.key, { ns: 'server', ...error.params });
}
