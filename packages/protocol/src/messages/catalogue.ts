import type { Locale } from '../locales.ts';

/** One domain's messages in all nine locales. A test checks every key is in every locale. */
export type Catalogue = Record<Locale, Record<string, string>>;
