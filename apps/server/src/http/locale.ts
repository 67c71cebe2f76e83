import { DEFAULT_LOCALE, type Locale, toLocale } from '@halyard/protocol';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
  }
}

/** The `lang` header (what the web app sends), else Accept-Language, else English. */
export function requestLocale(request: FastifyRequest): Locale {
  const lang = request.headers.lang;
  const fromHeader = toLocale(Array.isArray(lang) ? lang[0] : lang);
  if (fromHeader) return fromHeader;
  const accepted = request.headers['accept-language']?.split(',') ?? [];
  for (const entry of accepted) {
    const locale = toLocale(entry.split(';')[0]);
    if (locale) return locale;
  }
  return DEFAULT_LOCALE;
}
