import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locales.ts';
import { approvals } from './approvals.ts';
import type { Catalogue } from './catalogue.ts';
import { common } from './common.ts';
import { content } from './content.ts';
import { cycle } from './cycle.ts';
import { fiat } from './fiat.ts';
import { futures } from './futures.ts';
import { identity } from './identity.ts';
import { ieo } from './ieo.ts';
import { ledger } from './ledger.ts';
import { market } from './market.ts';
import { operators } from './operators.ts';
import { referral } from './referral.ts';
import { rules } from './rules.ts';
import { spot } from './spot.ts';
import { support } from './support.ts';
import { wallet } from './wallet.ts';

export type { Catalogue } from './catalogue.ts';

/** Every domain's catalogue. Add a domain here and the completeness test covers it. */
export const catalogues: Record<string, Catalogue> = {
  common,
  rules,
  identity,
  ledger,
  content,
  support,
  market,
  cycle,
  futures,
  spot,
  wallet,
  ieo,
  fiat,
  operators,
  approvals,
  referral,
};

function merge(): Record<Locale, Record<string, string>> {
  const merged = Object.fromEntries(LOCALES.map((locale) => [locale, {}])) as Record<
    Locale,
    Record<string, string>
  >;
  for (const catalogue of Object.values(catalogues)) {
    for (const locale of LOCALES) Object.assign(merged[locale], catalogue[locale]);
  }
  return merged;
}

export const messages = merge();

export type MessageParams = Record<string, string | number>;

/**
 * The message for `key` in `locale`, `{name}` placeholders filled; English, then
 * the key, as fallbacks. Never throws: it builds the message of answers whose
 * command has already committed, and the locale, key and params may come from
 * client input (own properties only, so "__proto__" or "toString" find nothing).
 */
export function translate(locale: Locale, key: string, params: MessageParams = {}): string {
  const template = messageOf(locale, key) ?? messageOf(DEFAULT_LOCALE, key) ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? paramText(params[name]) : whole,
  );
}

function messageOf(locale: string, key: string): string | undefined {
  const catalogue = Object.hasOwn(messages, locale) ? messages[locale as Locale] : undefined;
  return catalogue && Object.hasOwn(catalogue, key) ? catalogue[key] : undefined;
}

/** A parameter's text; a value that cannot be made into one (a null-prototype object) shows as nothing. */
function paramText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '';
  }
}
