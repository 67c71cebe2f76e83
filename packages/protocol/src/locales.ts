/** The nine interface languages of the spec, by the codes the spec uses. */
export const LOCALES = ['cn', 'tw', 'en', 'jp', 'ko', 'tr', 'vi', 'id', 'ru'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** A Map, not an object literal: the tag is client input, and "__proto__" or "constructor" must miss. */
const BROWSER_ALIASES: ReadonlyMap<string, Locale> = new Map([
  ['zh', 'cn'],
  ['zh-cn', 'cn'],
  ['zh-hans', 'cn'],
  ['zh-sg', 'cn'],
  ['zh-tw', 'tw'],
  ['zh-hk', 'tw'],
  ['zh-hant', 'tw'],
  ['ja', 'jp'],
  ['en', 'en'],
  ['ko', 'ko'],
  ['tr', 'tr'],
  ['vi', 'vi'],
  ['id', 'id'],
  ['in', 'id'],
  ['ru', 'ru'],
]);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Maps a stored choice, a `lang` header or a browser language tag
 * ("zh-TW", "ja-JP", "en") to one of the nine locales, or null.
 */
export function toLocale(tag: unknown): Locale | null {
  if (typeof tag !== 'string' || tag === '') return null;
  const lower = tag.trim().toLowerCase();
  if (isLocale(lower)) return lower;
  return BROWSER_ALIASES.get(lower) ?? BROWSER_ALIASES.get(lower.split('-')[0] ?? '') ?? null;
}
