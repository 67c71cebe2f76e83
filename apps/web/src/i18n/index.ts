import enServer from 'virtual:server-messages/en';
import { LOCALES, type Locale } from '@halyard/protocol';
import type { RuleError } from '@halyard/rules';
import enUS from 'antd-mobile/es/locales/en-US';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCAL_KEYS, local } from '../shared/storage.ts';
import en from './en.json';
import { chooseLocale } from './locale.ts';

type Texts = Record<string, string>;
/** antd-mobile's own texts (dialog buttons, pull-to-refresh…) in one language. */
export type ComponentTexts = typeof enUS;

/** One language: the app's texts (the JSON files), the server's messages and antd-mobile's texts. */
export interface Catalogue {
  app: Texts;
  server: Texts;
  components: ComponentTexts;
}

async function catalogue(
  app: Promise<{ default: Texts }>,
  server: Promise<{ default: Texts }>,
  components: Promise<{ default: ComponentTexts }>,
): Promise<Catalogue> {
  const [appModule, serverModule, componentsModule] = await Promise.all([app, server, components]);
  return { app: appModule.default, server: serverModule.default, components: componentsModule.default };
}

const ENGLISH: Catalogue = { app: en, server: enServer, components: enUS };

/**
 * English is in the first bundle (it is the fallback for a missing key); every other
 * language is fetched when it is chosen, so a visit downloads one language, not nine.
 */
const CATALOGUES: Record<Locale, () => Promise<Catalogue>> = {
  en: async () => ENGLISH,
  cn: () =>
    catalogue(
      import('./cn.json'),
      import('virtual:server-messages/cn'),
      import('antd-mobile/es/locales/zh-CN'),
    ),
  tw: () =>
    catalogue(
      import('./tw.json'),
      import('virtual:server-messages/tw'),
      import('antd-mobile/es/locales/zh-TW'),
    ),
  jp: () =>
    catalogue(
      import('./jp.json'),
      import('virtual:server-messages/jp'),
      import('antd-mobile/es/locales/ja-JP'),
    ),
  ko: () =>
    catalogue(
      import('./ko.json'),
      import('virtual:server-messages/ko'),
      import('antd-mobile/es/locales/ko-KR'),
    ),
  tr: () =>
    catalogue(
      import('./tr.json'),
      import('virtual:server-messages/tr'),
      import('antd-mobile/es/locales/tr-TR'),
    ),
  vi: () =>
    catalogue(
      import('./vi.json'),
      import('virtual:server-messages/vi'),
      import('antd-mobile/es/locales/vi-VN'),
    ),
  id: () =>
    catalogue(
      import('./id.json'),
      import('virtual:server-messages/id'),
      import('antd-mobile/es/locales/id-ID'),
    ),
  ru: () =>
    catalogue(
      import('./ru.json'),
      import('virtual:server-messages/ru'),
      import('antd-mobile/es/locales/ru-RU'),
    ),
};

export function loadCatalogue(locale: Locale): Promise<Catalogue> {
  return CATALOGUES[locale]();
}

/** antd-mobile's texts of each language loaded so far. */
const loadedComponentTexts = new Map<string, ComponentTexts>([['en', enUS]]);

/**
 * One i18next instance for both catalogues: `app` (the JSON files) and
 * `server` (the server's and the rules' messages from @halyard/protocol), so a
 * rule broken in the browser reads exactly as the server would word it. Both
 * use `{name}` placeholders; keys are flat ("home.notice"), never nested.
 * It starts in English; `showLocale` loads and switches to another language.
 */
export function createI18n(): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: [...LOCALES],
    resources: { en: { app: ENGLISH.app, server: ENGLISH.server } },
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

/** Loads `locale`'s texts into `instance` (once) and switches it to that language. */
export async function showLocale(instance: I18n, locale: Locale): Promise<void> {
  if (!instance.hasResourceBundle(locale, 'app')) {
    const { app, server, components } = await loadCatalogue(locale);
    instance.addResourceBundle(locale, 'app', app);
    instance.addResourceBundle(locale, 'server', server);
    loadedComponentTexts.set(locale, components);
  }
  await instance.changeLanguage(locale);
}

export const i18n = createI18n();

export function currentLocale(): Locale {
  return i18n.language as Locale;
}

/** antd-mobile's texts in `language` (loaded with its catalogue), else English. */
export function componentTexts(language: string): ComponentTexts {
  return loadedComponentTexts.get(language) ?? enUS;
}

async function applyLocale(locale: Locale): Promise<void> {
  await showLocale(i18n, locale);
  document.documentElement.lang = locale;
}

/**
 * Spec §1: the stored choice, else the first browser language we speak, else
 * English. Awaited before the first render, so no screen flashes in English;
 * if the language cannot be fetched, the app stays in English.
 */
export async function startLocale(): Promise<void> {
  const chosen = chooseLocale(local.get(LOCAL_KEYS.locale), navigator.languages);
  await applyLocale(chosen).catch(() => applyLocale('en'));
}

/** Stores the choice (spec §1) and switches every screen; the next request carries it. */
export async function setLocale(locale: Locale): Promise<void> {
  await applyLocale(locale);
  local.set(LOCAL_KEYS.locale, locale);
}

/** A rule failure from @halyard/rules in the user's language. */
export function ruleText(error: RuleError): string {
  return i18n.t(error.key, { ns: 'server', ...error.params });
}
