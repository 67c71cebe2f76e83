import type { Locale } from '@halyard/protocol';

/** Spec §3 "Area-code entry": the localised country name, the dialling code, state 1 = featured. */
export interface AreaCode {
  /** ISO 3166 region code, stable across locales (the client may key on it). */
  region: string;
  country: string;
  initials: string;
  state: 0 | 1;
}

/**
 * The countries offered in the phone-number picker. Featured first (the
 * markets of the nine interface languages), in this order; the rest follow
 * alphabetically in the reader's language.
 */
const FEATURED: ReadonlyArray<readonly [string, string]> = [
  ['CN', '+86'],
  ['HK', '+852'],
  ['TW', '+886'],
  ['US', '+1'],
  ['JP', '+81'],
  ['KR', '+82'],
  ['TR', '+90'],
  ['VN', '+84'],
  ['ID', '+62'],
  ['RU', '+7'],
];

const OTHERS: ReadonlyArray<readonly [string, string]> = [
  ['MO', '+853'],
  ['SG', '+65'],
  ['MY', '+60'],
  ['TH', '+66'],
  ['PH', '+63'],
  ['IN', '+91'],
  ['PK', '+92'],
  ['BD', '+880'],
  ['AE', '+971'],
  ['SA', '+966'],
  ['IL', '+972'],
  ['EG', '+20'],
  ['NG', '+234'],
  ['KE', '+254'],
  ['ZA', '+27'],
  ['GB', '+44'],
  ['DE', '+49'],
  ['FR', '+33'],
  ['IT', '+39'],
  ['ES', '+34'],
  ['NL', '+31'],
  ['CH', '+41'],
  ['SE', '+46'],
  ['PL', '+48'],
  ['UA', '+380'],
  ['KZ', '+7'],
  ['CA', '+1'],
  ['MX', '+52'],
  ['BR', '+55'],
  ['AR', '+54'],
  ['CO', '+57'],
  ['CL', '+56'],
  ['AU', '+61'],
  ['NZ', '+64'],
];

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

function entries(locale: Locale, list: typeof FEATURED, state: 0 | 1): AreaCode[] {
  const names = new Intl.DisplayNames([LANGUAGE_TAG[locale]], { type: 'region', style: 'short' });
  return list.map(([region, initials]) => ({ region, country: names.of(region) ?? region, initials, state }));
}

/** Every area code with its country named in `locale`, featured ones first. */
export function areaCodes(locale: Locale): AreaCode[] {
  const collator = new Intl.Collator(LANGUAGE_TAG[locale]);
  const others = entries(locale, OTHERS, 0).sort((a, b) => collator.compare(a.country, b.country));
  return [...entries(locale, FEATURED, 1), ...others];
}
