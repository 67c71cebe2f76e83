import type { Locale } from '@halyard/protocol';
import { phoneRegions } from '@halyard/rules';

/** Spec §3 "Area-code entry": the localised country name, the dialling code, state 1 = featured. */
export interface AreaCode {
  /** ISO 3166 region code, stable across locales (the client may key on it). */
  region: string;
  country: string;
  initials: string;
  state: 0 | 1;
}

/**
 * The markets of the nine interface languages, offered first in this order;
 * every other region libphonenumber knows follows, alphabetically in the
 * reader's language.
 */
const FEATURED = ['CN', 'HK', 'TW', 'US', 'JP', 'KR', 'TR', 'VN', 'ID', 'RU'];

/** The BCP 47 tag whose CLDR data names regions in each interface language. */
const LANGUAGE_TAG: Record<Locale, string> = {
  cn: 'zh-Hans',
  tw: 'zh-Hant',
  en: 'en',
  jp: 'ja',
  ko: 'ko',
  tr: 'tr',
  vi: 'vi',
  id: 'id',
  ru: 'ru',
};

const cached = new Map<Locale, AreaCode[]>();

/** Every area code with its country named in `locale` (CLDR, via Intl), featured ones first; built once per locale. */
export function areaCodes(locale: Locale): AreaCode[] {
  let list = cached.get(locale);
  if (!list) {
    list = buildAreaCodes(locale);
    cached.set(locale, list);
  }
  return list;
}

function buildAreaCodes(locale: Locale): AreaCode[] {
  // Full names ("United Kingdom", not "UK"): what people type in the picker's search.
  const names = new Intl.DisplayNames([LANGUAGE_TAG[locale]], { type: 'region' });
  const entries = phoneRegions().map(
    ({ region, callingCode }): AreaCode => ({
      region,
      country: names.of(region) ?? region,
      initials: `+${callingCode}`,
      state: FEATURED.includes(region) ? 1 : 0,
    }),
  );
  const featured = FEATURED.flatMap((region) => entries.filter((entry) => entry.region === region));
  const collator = new Intl.Collator(LANGUAGE_TAG[locale]);
  const others = entries
    .filter((entry) => entry.state === 0)
    .sort((a, b) => collator.compare(a.country, b.country));
  return [...featured, ...others];
}
