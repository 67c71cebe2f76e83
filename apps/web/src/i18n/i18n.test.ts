import { LOCALES, messages } from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import { APP_TEXTS, createI18n } from './index.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('app texts', () => {
  const english = APP_TEXTS.en;

  it.each(LOCALES)('%s has every key, none empty, with the same placeholders', (locale) => {
    const texts = APP_TEXTS[locale];
    const missing = Object.keys(english).filter((key) => !texts[key]?.trim());
    const extra = Object.keys(texts).filter((key) => !(key in english));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    for (const [key, text] of Object.entries(english)) {
      expect([key, placeholders(texts[key] ?? '')]).toEqual([key, placeholders(text)]);
    }
  });

  it('never shadows a server message key', () => {
    const shadowed = Object.keys(english).filter((key) => key in messages.en);
    expect(shadowed).toEqual([]);
  });

  it("translates rule keys exactly as the server's catalogue words them, placeholders filled", () => {
    const i18n = createI18n('cn');
    expect(i18n.t('common.invalidParams', { ns: 'server', field: 'x' })).toBe(
      messages.cn['common.invalidParams']?.replace('{field}', 'x'),
    );
    expect(i18n.t('identity.resendIn', { seconds: 5 })).toBe('5 秒后重发');
  });

  it('falls back to English for a key a locale lacks at run time', () => {
    const i18n = createI18n('ru');
    expect(i18n.t('route.home')).toBe('Главная');
    expect(i18n.t('no.such.key')).toBe('no.such.key');
  });
});
